#include "host/sim/stuck_detector.h"

#include "host/checkpoint/archive.h"

#include <algorithm>

namespace crowd {

void StuckDetector::add_agent(const glm::vec3& position, float radius, double now) {
  Track track;
  track.anchor = position;
  track.anchor_time = now;
  track.reach = 2.0f * radius;
  track.was_walking = true; // its clock starts now; one that is not walking yet restarts later
  tracks_.push_back(track);
}

void StuckDetector::restart(int agent, const glm::vec3& position, double now) {
  Track& track = tracks_.at(static_cast<std::size_t>(agent));
  end_episode(track, now);
  track.anchor = position;
  track.anchor_time = now;
}

void StuckDetector::stop(int agent, double now) {
  end_episode(tracks_.at(static_cast<std::size_t>(agent)), now);
}

void StuckDetector::end_episode(Track& track, double now) {
  if (track.episode_start < 0.0)
    return;
  const double length = now - track.episode_start;
  closed_.total_seconds += length;
  closed_.longest_seconds = std::max(closed_.longest_seconds, length);
  track.episode_start = -1.0;
}

std::vector<int> StuckDetector::observe(double now, std::span<const glm::vec3> positions,
                                        std::span<const std::uint8_t> walking) {
  std::vector<int> replan;
  if (stuck_seconds_ <= 0.0)
    return replan;
  for (std::size_t i = 0; i < tracks_.size(); ++i) {
    Track& track = tracks_[i];
    if (!walking[i]) {
      end_episode(track, now);
      track.was_walking = false;
      continue;
    }
    const glm::vec3 p = positions[i];
    if (!track.was_walking) {
      track.was_walking = true;
      track.anchor = p;
      track.anchor_time = now;
      continue;
    }
    const float dx = p.x - track.anchor.x, dz = p.z - track.anchor.z;
    if (dx * dx + dz * dz > track.reach * track.reach) {
      // Progress: the episode (if any) is over and the clock restarts from here.
      end_episode(track, now);
      track.anchor = p;
      track.anchor_time = now;
      continue;
    }
    if (now - track.anchor_time < stuck_seconds_)
      continue;
    if (track.episode_start < 0.0) {
      // The episode began when the agent last made progress.
      track.episode_start = track.anchor_time;
      ++closed_.episodes;
      if (!track.ever_stuck) {
        track.ever_stuck = true;
        ++closed_.agents;
      }
    }
    // Replan, and again after another interval without progress (the anchor stays put, so
    // moving on is still measured from where the agent got stuck).
    track.anchor_time = now;
    ++closed_.replans;
    replan.push_back(static_cast<int>(i));
  }
  return replan;
}

StuckStats StuckDetector::stats(double now) const {
  StuckStats s = closed_;
  for (const Track& track : tracks_) {
    if (track.episode_start < 0.0)
      continue;
    const double length = now - track.episode_start;
    s.total_seconds += length;
    s.longest_seconds = std::max(s.longest_seconds, length);
    ++s.stuck_now;
  }
  return s;
}

void StuckDetector::stuck_flags(std::vector<std::uint8_t>& out) const {
  out.resize(tracks_.size());
  for (std::size_t i = 0; i < tracks_.size(); ++i)
    out[i] = tracks_[i].episode_start >= 0.0 ? 1 : 0;
}

namespace {

// The field lists of a checkpoint (host/checkpoint/archive.h), shared by save and restore.
constexpr auto kTrackFields = [](auto& archive, auto& t) {
  archive.fields(t.anchor, t.anchor_time, t.episode_start, t.reach, t.ever_stuck, t.was_walking);
};
constexpr auto kStatsFields = [](auto& archive, auto& s) {
  archive.fields(s.agents, s.episodes, s.replans, s.total_seconds, s.longest_seconds, s.stuck_now);
};

} // namespace

void StuckDetector::save(ArchiveWriter& out) const {
  out.put_records(tracks_, kTrackFields);
  kStatsFields(out, closed_);
}

void StuckDetector::restore(ArchiveReader& in) {
  in.get_records(tracks_, kTrackFields);
  kStatsFields(in, closed_);
}

} // namespace crowd

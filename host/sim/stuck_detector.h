// Finds agents that make no progress: an agent heading for its goal that stays within its own
// diameter of one spot for `stuck_seconds` is stuck. The simulation replans its path (a new
// search from where it stands, which also clears a corridor that leads nowhere) each time the
// interval passes again, until it moves on, arrives or stops walking. How long each episode
// lasted is kept for the metrics.
//
// The measure is displacement, not distance to the goal: a path around a wall may lead away
// from the goal for a long time, and an agent walking it is making progress; one pinned in a
// jam or against a corner is not, however close its goal.
#pragma once

#include "host/output/stuck_stats.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

class StuckDetector {
public:
  /// stuck_seconds <= 0 disables detection.
  explicit StuckDetector(double stuck_seconds) : stuck_seconds_(stuck_seconds) {}

  /// Registers the next agent (ids in order) at `position` with its radius, at time `now`.
  void add_agent(const glm::vec3& position, float radius, double now);
  /// The agent starts (again) toward a goal at `now` from `position`: its clock restarts.
  void restart(int agent, const glm::vec3& position, double now);
  /// The agent stopped walking (arrived, removed, frozen): an open episode ends at `now`.
  void stop(int agent, double now);

  /// Observes the positions at the end of a step at time `now`; `walking[i]` is non-zero for
  /// the agents heading for a goal. An agent that starts walking (it entered the scene, its
  /// wait at a waypoint is over, it has a new goal) starts its clock there. Returns the agents
  /// to replan now, in id order.
  std::vector<int> observe(double now, std::span<const glm::vec3> positions,
                           std::span<const std::uint8_t> walking);

  StuckStats stats(double now) const;
  /// Per agent: 1 while it is in a stuck episode (as of the last observe).
  void stuck_flags(std::vector<std::uint8_t>& out) const;

  /// Checkpoints (host/checkpoint/archive.h): every track and the counts so far.
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  struct Track {
    glm::vec3 anchor{0.0f};      ///< Where the agent was when its clock last restarted.
    double anchor_time = 0.0;    ///< When it was there (or when it was last replanned).
    double episode_start = -1.0; ///< < 0: not stuck.
    float reach = 0.0f;          ///< Moving this far from the anchor is progress (diameter).
    bool ever_stuck = false;
    bool was_walking = false; ///< At the last observation: starting to walk restarts the clock.
  };
  void end_episode(Track& track, double now);

  double stuck_seconds_;
  std::vector<Track> tracks_;
  StuckStats closed_; ///< Counts, and the durations of the episodes that ended.
};

} // namespace crowd

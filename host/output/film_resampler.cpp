#include "host/output/film_resampler.h"

#include "host/checkpoint/archive.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

// Frame times k / fps and step times s x dt are computed differently; within this they are
// the same instant.
constexpr double kSameInstant = 1e-9;

} // namespace

namespace {

double checked_fps(double fps) {
  if (!(fps > 0.0) || !std::isfinite(fps))
    throw std::invalid_argument("--fps must be a number > 0");
  return fps;
}

const FilmOptions& checked_framing(const FilmOptions& options, double fps) {
  if (!(options.preroll >= 0.0) || !std::isfinite(options.preroll))
    throw std::invalid_argument("--preroll must be a number >= 0");
  if (options.handles < 0)
    throw std::invalid_argument("--handles must be >= 0");
  if (static_cast<double>(options.handles) / fps > options.preroll + kSameInstant)
    throw std::invalid_argument("--handles: " + std::to_string(options.handles) +
                                " frames before the start frame need a --preroll of at least " +
                                std::to_string(static_cast<double>(options.handles) / fps) +
                                " s at this frame rate");
  return options;
}

} // namespace

FilmResampler::FilmResampler(double fps, std::vector<std::unique_ptr<FrameSink>> film_sinks,
                             FilmOptions options)
    : fps_(checked_fps(fps)), sinks_(std::move(film_sinks)),
      options_(checked_framing(options, fps_)),
      motion_(1.0 / fps_, options_.max_turn_rate_degrees) {}

double FilmResampler::frame_time(int j) const {
  return options_.preroll + j / fps_;
}

int FilmResampler::frames_written() const {
  const int first = std::max(-options_.handles, first_frame_in_run());
  return std::max(0, next_frame_ - first);
}

int FilmResampler::first_frame_in_run() const {
  // The earliest j whose time is not before the run's start (time 0).
  return static_cast<int>(std::ceil(-options_.preroll * fps_ - kSameInstant * fps_));
}

void FilmResampler::emit(int j, double time, const FrameView& after, bool on_step, double a) {
  const std::size_t count = after.positions.size();
  positions_.resize(count);
  velocities_.resize(count);
  phases_.resize(count);
  const float weight = static_cast<float>(a);
  for (std::size_t i = 0; i < count; ++i) {
    const glm::vec2 v_after = i < after.velocities.size() ? after.velocities[i] : glm::vec2(0.0f);
    const AgentPhase p_after = i < after.phases.size() ? after.phases[i] : AgentPhase::Walking;
    const bool existed_before = i < before_positions_.size();
    if (on_step || !existed_before) {
      positions_[i] = after.positions[i];
      velocities_[i] = v_after;
      phases_[i] = on_step ? p_after : AgentPhase::Removed;
      continue;
    }
    positions_[i] = glm::mix(before_positions_[i], after.positions[i], weight);
    velocities_[i] = glm::mix(before_velocities_[i], v_after, weight);
    const bool shown = is_present(before_phases_[i]) && is_present(p_after);
    phases_[i] = shown ? p_after : AgentPhase::Removed;
  }
  if (options_.ground_height)
    for (glm::vec3& p : positions_)
      p.y = options_.ground_height(p);
  FrameView view;
  view.number = options_.start_frame + j;
  view.time = time;
  view.positions = positions_;
  view.velocities = velocities_;
  view.phases = phases_;
  view.types = after.types;
  if (options_.look) {
    for (std::size_t i = looks_.size(); i < count; ++i)
      looks_.push_back(options_.look(static_cast<int>(i)));
    view.looks = std::span<const CharacterLook>(looks_.data(), count);
  }
  motion_.update(velocities_, phases_, options_.facing_hint);
  view.headings = motion_.headings();
  view.turn_rates = motion_.turn_rates();
  locomotion_.update(positions_, velocities_, phases_, motion_.turn_rates(), options_.clips);
  view.gaits = locomotion_.gaits();
  view.cycle_phases = locomotion_.cycle_phases();
  view.playback_rates = locomotion_.playback_rates();
  if (j < -options_.handles)
    return; // preroll before the handles: the characters move, nothing is written
  for (const auto& sink : sinks_)
    sink->write_frame(view);
}

void FilmResampler::write_frame(const FrameView& step) {
  const double t_after = step.time;
  if (!have_step_) {
    // The first step: frames before it do not exist; the one on it (the first frame of the
    // preroll, at time 0, for a run from the start) is the step itself.
    next_frame_ =
        static_cast<int>(std::ceil((t_after - options_.preroll) * fps_ - kSameInstant * fps_));
    next_frame_ = std::max(next_frame_, first_frame_in_run());
  }
  for (;; ++next_frame_) {
    const double t = frame_time(next_frame_);
    const bool on_step = std::abs(t - t_after) <= kSameInstant;
    if (t > t_after && !on_step)
      break;
    const double a =
        have_step_ && t_after > before_time_ ? (t - before_time_) / (t_after - before_time_) : 1.0;
    emit(next_frame_, t, step, on_step || !have_step_, a);
  }
  have_step_ = true;
  before_time_ = t_after;
  before_positions_.assign(step.positions.begin(), step.positions.end());
  before_velocities_.assign(step.velocities.begin(), step.velocities.end());
  before_velocities_.resize(before_positions_.size(), glm::vec2(0.0f));
  before_phases_.assign(step.phases.begin(), step.phases.end());
  before_phases_.resize(before_positions_.size(), AgentPhase::Walking);
}

void FilmResampler::finish() {
  for (const auto& sink : sinks_)
    sink->finish();
}

void FilmResampler::save(ArchiveWriter& out) {
  out.fields(have_step_, before_time_, before_positions_, before_velocities_, before_phases_,
             next_frame_);
  motion_.save(out);
  locomotion_.save(out);
  for (const auto& sink : sinks_)
    sink->save(out);
}

void FilmResampler::restore(ArchiveReader& in) {
  in.fields(have_step_, before_time_, before_positions_, before_velocities_, before_phases_);
  in.expect(before_velocities_.size(), before_positions_.size(), "the film's velocities");
  in.expect(before_phases_.size(), before_positions_.size(), "the film's phases");
  in.get(next_frame_);
  motion_.restore(in);
  locomotion_.restore(in);
  for (const auto& sink : sinks_)
    sink->restore(in);
}

std::vector<std::filesystem::path> FilmResampler::keep_streams_after_finish() {
  std::vector<std::filesystem::path> kept;
  for (const auto& sink : sinks_)
    for (auto& path : sink->keep_streams_after_finish())
      kept.push_back(std::move(path));
  return kept;
}

} // namespace crowd

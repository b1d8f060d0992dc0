// Simulation steps -> film frames at a fixed frame rate.
#pragma once

#include "host/output/character_motion.h"
#include "host/output/frame_sink.h"
#include "host/output/locomotion.h"

#include <functional>
#include <memory>
#include <vector>

namespace crowd {

/// What the film frames carry besides the resampled trajectory.
struct FilmOptions {
  /// The characters' largest turn rate (CharacterMotion), degrees per second.
  double max_turn_rate_degrees = CharacterMotion::kDefaultMaxTurnRateDegrees;
  /// Where an agent shown first while standing faces (its first corner); empty: +z.
  FacingHint facing_hint;
  /// The ground's height under a position: the frames' y (characters stand on the real
  /// ground, not on the navmesh above it); empty: the trajectory's y.
  std::function<float(const glm::vec3&)> ground_height;
  /// The locomotion clips of each agent (Locomotion); empty: the defaults for everyone.
  Locomotion::ClipsOf clips;
  /// Each agent's character (CharacterCast), asked once per agent when it first appears;
  /// empty: frames carry no looks and sinks fall back on the type labels.
  std::function<CharacterLook(int id)> look;
  /// Shot framing: frame number `start_frame` is at simulation time `preroll` seconds, frame
  /// start_frame + j at preroll + j / fps. The `handles` frames before the start frame are
  /// written too (preroll must cover them); earlier frames of the preroll are not written, but
  /// the characters' facing and locomotion run through them, so the shot opens on a crowd
  /// already in step.
  int start_frame = 0;
  double preroll = 0.0;
  int handles = 0;
};

/// The film convention for the first frame of a shot, crowd run's default `--start-frame`.
inline constexpr int kFilmStartFrame = 1001;

/// Takes every simulation step (in order, the first at the start of the run) and hands the
/// film sinks frame start_frame + j at time preroll + j / fps, for every j >= -handles whose
/// time the steps have reached (FilmOptions).
/// Between the two steps that bracket a frame, positions and velocities are interpolated
/// linearly (a = (t_k - t_before) / (t_after - t_before)); a frame that falls on a step (within
/// 1e-9 s) takes that step as it is. An agent shows in a frame only when it is present and
/// not Removed at both bracketing steps, so it appears at the first frame at or after the
/// step that spawned it and disappears from the first frame after the step that removed it;
/// otherwise its phase in the frame is Removed (not shown). Each frame also carries the
/// characters' headings and turn rates (CharacterMotion) and their locomotion (Locomotion), the
/// same for every film sink, and stands them on the ground (FilmOptions::ground_height).
class FilmResampler : public FrameSink {
public:
  FilmResampler(double fps, std::vector<std::unique_ptr<FrameSink>> film_sinks,
                FilmOptions options = {});

  void write_frame(const FrameView& step) override;
  void finish() override;
  /// Its own state (the last step, the next frame), then each film sink's.
  void save(ArchiveWriter& out) override;
  void restore(ArchiveReader& in) override;
  std::vector<std::filesystem::path> keep_streams_after_finish() override;

  /// Frames handed to the sinks so far.
  int frames_written() const;

private:
  void emit(int j, double time, const FrameView& after, bool on_step, double a);
  /// The time of frame start_frame + j, seconds of simulation.
  double frame_time(int j) const;
  /// The earliest j whose time is not before the run's start.
  int first_frame_in_run() const;

  double fps_;
  std::vector<std::unique_ptr<FrameSink>> sinks_;
  FilmOptions options_;
  CharacterMotion motion_;
  Locomotion locomotion_;
  bool have_step_ = false;
  double before_time_ = 0.0;
  std::vector<glm::vec3> before_positions_;
  std::vector<glm::vec2> before_velocities_;
  std::vector<AgentPhase> before_phases_;
  int next_frame_ = 0; ///< j of the next frame (its number less start_frame).
  // Scratch of the frame being handed out.
  std::vector<glm::vec3> positions_;
  std::vector<glm::vec2> velocities_;
  std::vector<AgentPhase> phases_;
  /// Each agent's look, a pure function of the agent (FilmOptions::look): a cache, not state.
  std::vector<CharacterLook> looks_;
};

} // namespace crowd

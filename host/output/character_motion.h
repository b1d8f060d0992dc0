// How the exported characters face and turn, frame by frame: a property of the character
// drawn from its trajectory (film exports, the viewer), not of the simulation, whose
// trajectories it never changes.
#pragma once

#include "host/output/metrics.h"

#include <functional>
#include <glm/glm.hpp>
#include <optional>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// The direction (x, z) agent `id` is about to walk, asked for an agent shown for the first
/// time while (almost) standing, so that it starts facing its way (its first corner) rather
/// than +z; nothing when unknown (it then faces +z until it moves).
using FacingHint = std::function<std::optional<glm::vec2>(int id)>;

/// Each agent's heading follows the direction of its smoothed velocity, an exponential moving
/// average over frames, s += (v - s) x (1 - exp(-frame_seconds / time_constant)): avoidance
/// changes velocity a little every step, which would make a character twitch; 0.3 s of
/// averaging reads as a body turning, not a jitter. The heading then turns toward that
/// direction at most `max_turn_rate` radians per second, the shorter way round, so that a
/// character never spins round in one frame (an agent leaving a wait the way it came, a
/// crowd meeting head on): a person turns about 180 degrees a second at most, turning in
/// place included (Hase & Stein, "Turning strategies during human walking", J. Neurophysiol.
/// 81, 1999: a 180-degree turn in about two steps, roughly a second). While the smoothed
/// speed is below kMinSpeed (standing, stopping) the agent keeps its heading. An agent shown
/// for the first time faces its velocity, or while standing the FacingHint's direction, at
/// once. Headings are angles about +y, 0 facing +z, atan2(vx, vz), in (-pi, pi].
class CharacterMotion {
public:
  static constexpr float kTimeConstantSeconds = 0.3f;
  static constexpr float kMinSpeed = 0.05f;                   ///< m/s
  static constexpr double kDefaultMaxTurnRateDegrees = 180.0; ///< per second

  CharacterMotion(double frame_seconds, double max_turn_rate_degrees = kDefaultMaxTurnRateDegrees);

  /// Advances one frame. Agents whose phase is Removed are not shown: their state resets.
  void update(std::span<const glm::vec2> velocities, std::span<const AgentPhase> phases,
              const FacingHint& hint = {});
  /// Radians about +y, per agent, after the last update.
  std::span<const float> headings() const { return headings_; }
  /// Radians per second about +y, per agent: the turn from the previous frame to the last,
  /// over the frame's duration (0 where the agent was not shown before).
  std::span<const float> turn_rates() const { return turn_rates_; }

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  double frame_seconds_;
  float blend_;
  float max_turn_per_frame_; ///< Radians.
  std::vector<glm::vec2> smoothed_;
  std::vector<float> headings_;
  std::vector<float> turn_rates_;
  std::vector<std::uint8_t> shown_;
};

} // namespace crowd

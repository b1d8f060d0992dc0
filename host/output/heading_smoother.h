// Facing directions of agents for film exports, from their velocities.
#pragma once

#include "host/output/metrics.h"

#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// Each agent's heading is the direction of its smoothed velocity, an exponential moving
/// average over frames, s += (v - s) x (1 - exp(-frame_seconds / time_constant)): the
/// avoidance steering changes velocity a little every step, which would make a character
/// twitch; 0.3 s of averaging reads as a body turning, not a jitter. While the smoothed speed
/// is below min_speed (standing, or stopping) the agent keeps its last heading; an agent
/// shown for the first time starts from its current velocity (no ramp), facing +z until it
/// moves. Headings are angles about +y, 0 facing +z, atan2(vx, vz).
class HeadingSmoother {
public:
  static constexpr float kTimeConstantSeconds = 0.3f;
  static constexpr float kMinSpeed = 0.05f; ///< m/s

  explicit HeadingSmoother(double frame_seconds);

  /// Advances one frame. Agents whose phase is Removed are not shown: their state resets.
  void update(std::span<const glm::vec2> velocities, std::span<const AgentPhase> phases);
  /// Radians about +y, per agent, after the last update.
  std::span<const float> headings() const { return headings_; }

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  float blend_;
  std::vector<glm::vec2> smoothed_;
  std::vector<float> headings_;
  std::vector<bool> shown_;
};

} // namespace crowd

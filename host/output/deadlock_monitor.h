// Finds deadlocks for the metrics (an observer: it steers nothing). An agent is deadlocked while
// it is stuck (host/sim/stuck_detector.h: no progress for stuck_seconds while walking to a
// reachable target) and another stuck agent stands in its way and does not walk its way: the
// gap between their discs below kGap, in front of it (toward its target), heading more than 60
// degrees off its own heading (each agent's heading is the straight line to its current target).
// Two agents stopped face to face (DetourCrowd's sampler stops them well before they touch),
// agents converging on one point, and a knot of crossing flows are deadlocks; a queue of stuck
// agents walking one way is not.
//
// Measured from positions, targets and the stuck detector alone, so the same for every backend.
#pragma once

#include "host/output/point_grid.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

struct DeadlockStats {
  int agents = 0; ///< Distinct agents deadlocked at some step.
  int at_end = 0; ///< Agents deadlocked at the last step observed.
};

class DeadlockMonitor {
public:
  /// Discs closer than this (metres; about 1.5 s of walking) count as in each other's way.
  static constexpr float kGap = 2.0f;

  /// `agent_height`: agents further apart than this in y are on different floors.
  explicit DeadlockMonitor(float agent_height) : agent_height_(agent_height) {}

  /// Registers the next agent (ids in order).
  void add_agent(float radius);

  /// Observes the end of a step: positions, current targets and stuck flags by agent id.
  void observe(std::span<const glm::vec3> positions, std::span<const glm::vec3> targets,
               std::span<const std::uint8_t> stuck);

  DeadlockStats stats() const { return {ever_count_, now_count_}; }

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  float agent_height_;
  std::vector<float> radius_;
  std::vector<std::uint8_t> ever_; ///< Per agent: deadlocked at some step.
  int ever_count_ = 0;
  int now_count_ = 0;
  float max_radius_ = 0.0f;
  PointGrid grid_; ///< Scratch: the stuck agents.
};

} // namespace crowd

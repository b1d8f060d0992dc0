// An observer of the verification suite: density and speed in a measurement area, sampled
// every step from a start time on, as RiMEA test 4 measures the fundamental diagram at a
// measuring point ("classical" density: agents in the area over its size, Steffen & Seyfried,
// Physica A 389 (2010), method A/B's area count). It only reads the simulation.
#pragma once

#include "host/sim/simulation.h"

#include <glm/glm.hpp>

namespace crowd {

class AreaSampler {
public:
  /// The rectangle [lo, hi] on the ground (x, z); samples from `from_time` seconds on; speed
  /// is the velocity's component along `direction` (a unit vector).
  AreaSampler(glm::vec2 lo, glm::vec2 hi, double from_time, glm::vec2 direction)
      : lo_(lo), hi_(hi), from_(from_time), direction_(direction) {}

  /// Call after every step.
  void observe(const Simulation& sim);

  int samples() const { return samples_; }
  /// Mean agents in the area over the samples.
  double mean_count() const;
  /// mean_count over the area, persons per square metre.
  double mean_density() const;
  /// Mean velocity along the direction over every (agent, sample) in the area, m/s; 0 when
  /// nobody was there.
  double mean_speed() const;
  /// The most agents seen in the area at once.
  int max_count() const { return max_count_; }

private:
  glm::vec2 lo_, hi_;
  double from_;
  glm::vec2 direction_;
  int samples_ = 0;
  long long agent_samples_ = 0;
  double speed_sum_ = 0.0;
  int max_count_ = 0;
};

} // namespace crowd

#include "host/verify/area_sampler.h"

#include <algorithm>

namespace crowd {

void AreaSampler::observe(const Simulation& sim) {
  // Step times are multiples of the decimal dt: a sliver below catches "from 10 s" at 10 s.
  if (sim.time() + 1e-9 < from_)
    return;
  const auto positions = sim.positions();
  const auto velocities = sim.velocities();
  const auto phases = sim.phases();
  int count = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!is_present(phases[i]))
      continue;
    const glm::vec3& p = positions[i];
    if (p.x < lo_.x || p.x > hi_.x || p.z < lo_.y || p.z > hi_.y)
      continue;
    ++count;
    speed_sum_ += static_cast<double>(glm::dot(velocities[i], direction_));
  }
  ++samples_;
  agent_samples_ += count;
  max_count_ = std::max(max_count_, count);
}

double AreaSampler::mean_count() const {
  return samples_ > 0 ? static_cast<double>(agent_samples_) / samples_ : 0.0;
}

double AreaSampler::mean_density() const {
  const double area = static_cast<double>(hi_.x - lo_.x) * static_cast<double>(hi_.y - lo_.y);
  return area > 0.0 ? mean_count() / area : 0.0;
}

double AreaSampler::mean_speed() const {
  return agent_samples_ > 0 ? speed_sum_ / static_cast<double>(agent_samples_) : 0.0;
}

} // namespace crowd

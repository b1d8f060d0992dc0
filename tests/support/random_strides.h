// Where agents want to go in a step, for the corridor-move tests: every position moved up to
// `max_stride` metres in a random direction over the ground, so that some walk into walls and
// pillars and many cross polygons.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <random>
#include <vector>

namespace crowd::test {

inline void random_strides(std::vector<glm::vec3>& positions, unsigned seed, float max_stride) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f), stride(0.0f, max_stride);
  for (glm::vec3& p : positions) {
    const float a = angle(rng), len = stride(rng);
    p += glm::vec3(std::cos(a) * len, 0.0f, std::sin(a) * len);
  }
}

} // namespace crowd::test

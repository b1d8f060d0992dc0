// Helpers shared by the kernel and executor tests: a seeded random source, conversion to
// Detour's float[3] layout, and small scene builders on AgentArrays.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/kernels/agent_grid_build.h"
#include "host/sim/wall_grid_builder.h"

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <random>
#include <thrust/system/cpp/execution_policy.h>
#include <vector>

namespace crowd::test {

/// A seeded random source; every test that draws numbers owns one, so results are repeatable.
class Rng {
public:
  explicit Rng(std::uint32_t seed) : gen_(seed) {}

  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(gen_); }
  /// A point uniformly distributed in the disc of radius r around the origin.
  glm::vec2 in_disc(float r) {
    for (;;) {
      const glm::vec2 p{uniform(-r, r), uniform(-r, r)};
      if (p.x * p.x + p.y * p.y <= r * r)
        return p;
    }
  }
  /// A unit vector in a uniformly random direction.
  glm::vec2 direction() {
    const float a = uniform(0.0f, 6.2831853f);
    return {std::cos(a), std::sin(a)};
  }

private:
  std::mt19937 gen_;
};

/// Detour's float[3] from a point (x, y, z) or a ground vector (x, z) with y = 0.
inline std::array<float, 3> dt3(const glm::vec3& v) {
  return {v.x, v.y, v.z};
}
inline std::array<float, 3> dt3(const glm::vec2& v, float y = 0.0f) {
  return {v.x, y, v.y};
}

/// Agent arrays with rows of `max_neighbors` neighbours and `max_segments` wall segments.
inline AgentArrays make_agent_arrays(int max_neighbors = 6, int max_segments = 8) {
  AgentArrays a;
  a.max_neighbors = max_neighbors;
  a.max_segments = max_segments;
  return a;
}

/// A wall grid with no segments over the given area.
inline WallGridData empty_wall_grid(glm::vec2 area_min = glm::vec2(-1.0f),
                                    glm::vec2 area_max = glm::vec2(1.0f)) {
  return build_wall_grid({}, area_min, area_max, 1.0f);
}

/// An agent grid built by build_agent_grid with thrust::cpp::par, as the CPU executor does.
struct HostAgentGrid {
  std::vector<std::int32_t> keys, items, cell_start;
  std::vector<glm::vec4> points;
  AgentGridView view;

  HostAgentGrid(const GridSpec& spec, const AgentView& agents)
      : keys(static_cast<std::size_t>(agents.count)), items(static_cast<std::size_t>(agents.count)),
        cell_start(static_cast<std::size_t>(spec.cell_count()) + 2, -1),
        points(static_cast<std::size_t>(agents.count)) {
    build_agent_grid(thrust::cpp::par, spec, agents, keys.data(), items.data(), points.data(),
                     cell_start.data());
    view = {{spec, cell_start.data(), items.data()}, points.data()};
  }
  HostAgentGrid(const HostAgentGrid&) = delete; // view points into the vectors
  HostAgentGrid& operator=(const HostAgentGrid&) = delete;
};

/// Squared ground distance, computed as the proximity kernel does (p - q, then x*x + z*z).
inline float ground_distance_sq(const glm::vec3& p, const glm::vec3& q) {
  const glm::vec3 d = p - q;
  return d.x * d.x + d.z * d.z;
}

} // namespace crowd::test

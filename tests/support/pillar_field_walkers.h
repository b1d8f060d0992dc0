// Agents for the corridor tests: walkers at random places of the pillar field
// (tests/support/pillar_field.h), each heading for a random goal across it.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_navigator.h"

#include <gtest/gtest.h>
#include <random>

namespace crowd::test {

/// Appends agents to `arrays` until it holds `count`, each at a random point of `navmesh`
/// (0.4 m radius, 5 m query range, DetourCrowd's avoidance), registered with `navigator` at
/// 3.5 m/s and given a random goal; `seed` picks the points.
inline void add_pillar_field_walkers(const NavMesh& navmesh, CorridorNavigator& navigator,
                                     AgentArrays& arrays, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> coord(-28.0f, 28.0f);
  const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
  while (arrays.count() < count) {
    const auto start = navmesh.nearest_point({coord(rng), 0.0f, coord(rng)});
    const auto goal = navmesh.nearest_point({coord(rng), 0.0f, coord(rng)});
    if (!start || !goal)
      continue;
    const int i = arrays.append(*start, 0.4f, 2.0f, 8.0f, 5.0f, 2.0f, set);
    EXPECT_TRUE(navigator.add_agent(i, 3.5f));
    navigator.set_target(i, *goal);
  }
}

} // namespace crowd::test

// A test world shared by the path tests: a 60 x 60 m square with a 6 x 6 grid of 2 m
// pillars, so corridors turn many times and there are many ways around.
#pragma once

#include "host/scenario/scenario.h"

namespace crowd::test {

inline Scenario pillar_field() {
  Scenario s;
  s.world.bounds = WorldSpec::Bounds2D{{-30.0f, -30.0f}, {30.0f, 30.0f}};
  for (int i = -2; i <= 3; ++i) {
    for (int j = -2; j <= 3; ++j) {
      const float x = static_cast<float>(i) * 10.0f - 5.0f,
                  z = static_cast<float>(j) * 10.0f - 5.0f;
      s.world.obstacles.push_back({{x - 1, z - 1}, {x + 1, z - 1}, {x + 1, z + 1}, {x - 1, z + 1}});
    }
  }
  return s;
}

/// The pillar field's navmesh built in tiles of `tile_size` cells (0: one tile), as the
/// corridor tests run on both.
inline Scenario pillar_field_in_tiles(int tile_size) {
  Scenario s = pillar_field();
  if (tile_size > 0)
    s.world.navmesh.tile_size = tile_size;
  return s;
}

} // namespace crowd::test

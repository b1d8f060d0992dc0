// The scene family of `crowd bench`: crossing flows through a field of pillars at a fixed
// density, the world growing with the agent count, so that runs of different sizes differ in
// size only.
#pragma once

#include "host/scenario/scenario.h"

#include <cstdint>

namespace crowd {

/// Agents per square metre of walkable floor (the floor minus the pillars).
inline constexpr double kBenchDensity = 0.3;
/// Pillars: squares of this side, one every kBenchPillarSpacing metres in x and z.
inline constexpr float kBenchPillarSide = 1.0f;
inline constexpr float kBenchPillarSpacing = 8.0f;

/// The geometry chosen for a number of agents.
struct BenchSceneLayout {
  float side = 0.0f;      ///< The world is the square [-side/2, side/2]^2.
  float cell_size = 0.3f; ///< Recast cell size (grows for very large worlds, see below).
  int pillars_per_axis = 0;
  double walkable_area = 0.0; ///< side^2 minus the pillars, m^2.
};

/// Side, pillar grid and cell size for `agents` agents (agents >= 1).
///
/// The side solves agents = kBenchDensity x (side^2 - pillar area). The cell size is Recast's
/// default 0.3 m up to a 1,200 m world (4,000 x 4,000 cells: about 270,000 agents; 64,000
/// agents need a 470 m world, 1,570^2 cells), then side / 4,000, which keeps the grid at 16 M
/// cells (a 1,830 m world at 0.46 m cells at 1,000,000 agents), so that the build time, in
/// tiles above 4 M cells (navmesh.h), stays a few seconds.
BenchSceneLayout bench_scene_layout(int agents);

/// Blocks per axis of the flows: round(side / 64 m), at least 1.
int bench_blocks_per_axis(float side);

/// The bench scene for `agents` agents: a square world with a regular grid of square pillars,
/// cut into blocks of about 64 m (one block up to ~1,200 agents, 7 x 7 at 64,000). Each block
/// has four groups of an equal share of the agents, walking west -> east, east -> west,
/// south -> north and north -> south: each group starts anywhere in the half of the block on
/// its side (the four halves overlap so that the whole floor starts at the same density) and
/// heads for a band along the opposite edge of the block, so the flows cross everywhere.
/// Blocks keep paths (and the per-agent work of path finding) the same length at every size
/// instead of growing with the world: a 470 m path crosses more polygons than DetourCrowd's
/// corridor holds (256). Radius uniform in
/// [0.3, 0.4] m, speed uniform in [1.2, 1.5] m/s, avoidance "good", agents leave on arrival.
/// `steps` defaults to 200. Throws std::invalid_argument for agents < 1.
Scenario make_bench_scenario(int agents, std::uint64_t seed = 1);

} // namespace crowd

#include "host/bench/bench_scene.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace crowd {

namespace {

/// Cell size 0.3 m (Recast's default) up to this many cells along the side, then larger.
constexpr double kMaxCellsPerSide = 4000.0;
constexpr float kDefaultCellSize = 0.3f;
/// Side of the blocks the world is cut into, each with its own four flows (rounded so that
/// the blocks tile the world).
constexpr float kBlockSide = 64.0f;
/// Width of the goal band along the opposite edge: a tenth of the block, at least 4 m.
constexpr float kGoalBandFraction = 0.1f;
constexpr float kMinGoalBand = 4.0f;

int pillars_per_axis(double side) {
  return std::max(0, static_cast<int>(std::floor(side / kBenchPillarSpacing)));
}

} // namespace

int bench_blocks_per_axis(float side) {
  return std::max(1, static_cast<int>(std::round(side / kBlockSide)));
}

BenchSceneLayout bench_scene_layout(int agents) {
  if (agents < 1) {
    throw std::invalid_argument("bench scene: agents must be >= 1, got " + std::to_string(agents));
  }
  const double floor_needed = static_cast<double>(agents) / kBenchDensity;
  const double pillar_area = static_cast<double>(kBenchPillarSide) * kBenchPillarSide;
  // side^2 = floor_needed + n(side)^2 x pillar area; n is a step function of side, so iterate
  // from the pillar-free side (converges in a few rounds; stop at a fixed point or after 50).
  double side = std::sqrt(floor_needed);
  for (int round = 0; round < 50; ++round) {
    const double n = pillars_per_axis(side);
    const double next = std::sqrt(floor_needed + n * n * pillar_area);
    if (next == side) {
      break;
    }
    side = next;
  }
  BenchSceneLayout layout;
  // To a tenth of a metre, so that the scene files hold short numbers (density moves by less
  // than 1% at 200 agents, less at more).
  layout.side = static_cast<float>(std::round(side * 10.0) / 10.0);
  layout.pillars_per_axis = pillars_per_axis(layout.side);
  const double n = layout.pillars_per_axis;
  layout.walkable_area = static_cast<double>(layout.side) * layout.side - n * n * pillar_area;
  layout.cell_size = std::max(
      kDefaultCellSize, static_cast<float>(std::ceil(side / kMaxCellsPerSide * 100.0) / 100.0));
  return layout;
}

Scenario make_bench_scenario(int agents, std::uint64_t seed) {
  const BenchSceneLayout layout = bench_scene_layout(agents);
  const float h = layout.side / 2.0f;

  Scenario scenario;
  scenario.file = "bench_" + std::to_string(agents) + ".json";
  scenario.name = "bench_" + std::to_string(agents);
  scenario.seed = seed;
  scenario.dt = 0.1f;
  scenario.steps = 200;
  scenario.world.bounds = WorldSpec::Bounds2D{{-h, -h}, {h, h}};
  scenario.world.navmesh.cell_size = layout.cell_size;

  // Pillars centred on a grid of spacing kBenchPillarSpacing, the grid centred in the world:
  // the outer pillars stand at least half a spacing from the edges.
  const int n = layout.pillars_per_axis;
  const float half_pillar = kBenchPillarSide / 2.0f;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const float cx =
          (static_cast<float>(i) - static_cast<float>(n - 1) / 2.0f) * kBenchPillarSpacing;
      const float cz =
          (static_cast<float>(j) - static_cast<float>(n - 1) / 2.0f) * kBenchPillarSpacing;
      scenario.world.obstacles.push_back({{cx - half_pillar, cz - half_pillar},
                                          {cx + half_pillar, cz - half_pillar},
                                          {cx + half_pillar, cz + half_pillar},
                                          {cx - half_pillar, cz + half_pillar}});
    }
  }

  scenario.defaults.radius = 0.4f;
  scenario.defaults.max_speed = 1.4f;
  scenario.defaults.avoidance = avoidance_preset(AvoidancePreset::Good);
  scenario.defaults.avoidance_name = "good";
  scenario.defaults.on_arrival = OnArrival::Remove;

  // Blocks of about kBlockSide metres, each with its own four crossing flows.
  const int blocks = bench_blocks_per_axis(layout.side);
  const float block = layout.side / static_cast<float>(blocks);
  const float band = std::max(kMinGoalBand, std::round(kGoalBandFraction * block * 10.0f) / 10.0f);
  const int group_count = 4 * blocks * blocks;
  int group_index = 0;
  for (int bx = 0; bx < blocks; ++bx) {
    for (int bz = 0; bz < blocks; ++bz) {
      const float x0 = -h + block * static_cast<float>(bx), x1 = x0 + block;
      const float z0 = -h + block * static_cast<float>(bz), z1 = z0 + block;
      const float xm = (x0 + x1) / 2.0f, zm = (z0 + z1) / 2.0f;
      struct Flow {
        glm::vec2 spawn_min, spawn_max, goal_min, goal_max;
      };
      const Flow flows[4] = {
          {{x0, z0}, {xm, z1}, {x1 - band, z0}, {x1, z1}}, // west -> east
          {{xm, z0}, {x1, z1}, {x0, z0}, {x0 + band, z1}}, // east -> west
          {{x0, z0}, {x1, zm}, {x0, z1 - band}, {x1, z1}}, // south -> north
          {{x0, zm}, {x1, z1}, {x0, z0}, {x1, z0 + band}}, // north -> south
      };
      for (const Flow& flow : flows) {
        GroupSpec group;
        // An equal share each; the first groups take the remainder.
        group.count = agents / group_count + (group_index < agents % group_count ? 1 : 0);
        ++group_index;
        if (group.count == 0) {
          continue;
        }
        group.spawn_kind = GroupSpec::SpawnKind::Rect;
        group.spawn_min = flow.spawn_min;
        group.spawn_max = flow.spawn_max;
        group.goal_kind = GroupSpec::GoalKind::Rect;
        group.goal_min = flow.goal_min;
        group.goal_max = flow.goal_max;
        group.base = scenario.defaults;
        group.radius = Distribution{0.3f, 0.4f};
        group.max_speed = Distribution{1.2f, 1.5f};
        scenario.groups.push_back(group);
      }
    }
  }
  return scenario;
}

} // namespace crowd

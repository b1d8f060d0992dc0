// A random crowd for the executor tests: agents of mixed sizes, presets and modes at random
// places of a 40 x 40 m walled world with a pillar in its middle, each heading for a random
// goal. The CUDA-vs-CPU tests run it on both executors; tests/host/sim tests run it on the CPU.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/kernels/geometry.h"
#include "host/sim/wall_grid_builder.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace crowd::test {

inline constexpr glm::vec2 kRandomCrowdMin{0.0f, 0.0f};
inline constexpr glm::vec2 kRandomCrowdMax{40.0f, 40.0f};

/// A wall from a to b, oriented as the navmesh's boundary edges are: walkable space to the
/// left, i.e. tri_area_2d(walkable point, p, q) >= 0.
inline WallSegment oriented_wall(glm::vec2 a, glm::vec2 b, glm::vec2 walkable_point) {
  WallSegment s{{a.x, 0.0f, a.y}, {b.x, 0.0f, b.y}};
  if (tri_area_2d(walkable_point, a, b) < 0.0f)
    std::swap(s.p, s.q);
  return s;
}

/// The border of the world and a 4 x 4 m pillar in its middle, in a wall grid of 4 m cells.
inline WallGridData random_crowd_walls() {
  std::vector<WallSegment> segments;
  const glm::vec2 lo = kRandomCrowdMin, hi = kRandomCrowdMax;
  const glm::vec2 centre = (lo + hi) * 0.5f;
  const glm::vec2 corners[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  for (int k = 0; k < 4; ++k)
    segments.push_back(oriented_wall(corners[k], corners[(k + 1) % 4], centre));
  const glm::vec2 pillar[4] = {centre + glm::vec2(-2.0f, -2.0f), centre + glm::vec2(2.0f, -2.0f),
                               centre + glm::vec2(2.0f, 2.0f), centre + glm::vec2(-2.0f, 2.0f)};
  for (int k = 0; k < 4; ++k) {
    // Walkable outside the pillar: just beyond the middle of the edge.
    const glm::vec2 mid = (pillar[k] + pillar[(k + 1) % 4]) * 0.5f;
    segments.push_back(oriented_wall(pillar[k], pillar[(k + 1) % 4], mid + (mid - centre)));
  }
  return build_wall_grid(segments, lo, hi, 4.0f);
}

struct RandomCrowd {
  AgentArrays agents;
  std::vector<glm::vec2> goals; // [count]
  float max_query_range = 0.0f;

  /// The executor's parameters for this crowd: an agent grid over the world with cells of the
  /// largest query range, dt 0.1 s, the default collision passes, and a standoff breaker that
  /// acts within a few steps (0.2 s blocked, 0.3 s sidesteps turned by 75 degrees) so that short
  /// runs go through its every branch.
  KernelStepParams params() const {
    KernelStepParams p;
    p.agent_grid = make_grid_spec(kRandomCrowdMin, kRandomCrowdMax, max_query_range);
    p.standoff = {0.2f, 0.3f, 0.25881904f, 0.96592583f};
    return p;
  }
};

/// The largest sampling pattern: 32 divs x 4 rings + 1 = 129 samples per level.
inline AvoidanceParams largest_avoidance_pattern() {
  AvoidanceParams big;
  big.adaptive_divs = kMaxPatternDivs;
  big.adaptive_rings = kMaxPatternRings;
  big.adaptive_depth = 2;
  return big;
}

/// Adds `count` agents at random places of the world, with random sizes and goals, cycling
/// through the low, good and high presets and through the standoff sides (none, right, right,
/// left); every `big_pattern_every`-th agent (0 = none) gets the largest sampling pattern, every
/// `force_model_every`-th (0 = none) the force model instead, every `orca_every`-th ORCA, and
/// every `ttc_every`-th time-to-collision sampling (its fan on the path, or for every other one
/// on the corridor section, which these crowds without corridors leave to the path).
inline void add_random_agents(RandomCrowd& crowd, int count, std::mt19937& rng,
                              int big_pattern_every, int force_model_every = 0, int orca_every = 0,
                              int ttc_every = 0) {
  std::uniform_real_distribution<float> place(1.0f, 39.0f);
  std::uniform_real_distribution<float> radius(0.3f, 0.5f);
  std::uniform_real_distribution<float> separation(0.0f, 2.0f);
  const AvoidancePreset presets[] = {AvoidancePreset::Low, AvoidancePreset::Good,
                                     AvoidancePreset::High};
  for (int k = 0; k < count; ++k) {
    const float r = radius(rng);
    const int index = crowd.agents.count();
    AvoidanceParams ttc = avoidance_defaults(kAvoidanceTtc);
    ttc.ttc.reference = (index / std::max(ttc_every, 1)) % 2 == 0 ? kTtcShortcut : kTtcCorridor;
    const AvoidanceParams params =
        ttc_every > 0 && index % ttc_every == 0     ? ttc
        : orca_every > 0 && index % orca_every == 0 ? avoidance_defaults(kAvoidanceOrca)
        : force_model_every > 0 && index % force_model_every == 0
            ? avoidance_defaults(kAvoidanceMass)
        : big_pattern_every > 0 && index % big_pattern_every == 0
            ? largest_avoidance_pattern()
            : avoidance_preset(presets[static_cast<std::size_t>(index) % 3]);
    const float range = r * 12.0f; // DetourCrowd's collisionQueryRange
    const std::uint8_t sides[] = {kStandoffOff, kStandoffRight, kStandoffRight, kStandoffLeft};
    crowd.agents.append({place(rng), 0.0f, place(rng)}, r, 2.0f, 8.0f, range, separation(rng),
                        crowd.agents.avoidance_set_of(params),
                        sides[static_cast<std::size_t>(index) % 4]);
    crowd.goals.emplace_back(place(rng), place(rng));
    crowd.max_query_range = std::max(crowd.max_query_range, range);
  }
}

/// What the host does before the kernel stages: every third agent stands, the others head
/// for their goals at 1.2-1.6 m/s (from their own positions, as the corridors would). By agent
/// id, whatever row each is in (AgentArrays::reorder_rows).
inline void plan_random_crowd(RandomCrowd& crowd) {
  AgentArrays& a = crowd.agents;
  for (std::size_t i = 0; i < a.mode.size(); ++i) {
    if (a.mode[i] == kAgentInactive)
      continue;
    const auto id = static_cast<std::size_t>(a.id_of(static_cast<int>(i)));
    const float speed = 1.2f + 0.4f * static_cast<float>(id % 5) / 4.0f;
    a.desired_speed[i] = speed;
    const glm::vec2 to_goal = crowd.goals[id] - glm::vec2(a.position[i].x, a.position[i].z);
    const float distance = std::sqrt(to_goal.x * to_goal.x + to_goal.y * to_goal.y);
    if (id % 3 == 0 || distance < 0.1f) {
      a.mode[i] = kAgentStanding;
      a.preferred_velocity[i] = glm::vec2(0.0f);
    } else {
      a.mode[i] = kAgentMoving;
      a.preferred_velocity[i] = to_goal * (speed / distance);
    }
  }
}

/// Removes agent `id` the way CrowdSolver does: inactive, velocity zeroed, a layout change.
inline void remove_random_agent(RandomCrowd& crowd, int id) {
  crowd.agents.mode[static_cast<std::size_t>(id)] = kAgentInactive;
  crowd.agents.velocity[static_cast<std::size_t>(id)] = glm::vec2(0.0f);
  ++crowd.agents.layout_version;
}

/// A crowd of `count` agents after `warmup_steps` CPU executor steps (planned every step), so
/// that velocities, neighbour rows and contacts are those of a crowd in motion; every tenth
/// agent is then removed (inactive agents must be skipped by every stage).
inline RandomCrowd random_crowd_in_motion(int count, std::uint32_t seed, int big_pattern_every,
                                          int warmup_steps) {
  std::mt19937 rng(seed);
  RandomCrowd crowd;
  add_random_agents(crowd, count, rng, big_pattern_every);
  const WallGridData walls = random_crowd_walls(); // the CPU executor keeps a view of it
  auto cpu = make_cpu_executor(1);
  cpu->set_walls(walls);
  for (int step = 0; step < warmup_steps; ++step) {
    plan_random_crowd(crowd);
    StageTimes times;
    cpu->step(crowd.agents, crowd.params(), times);
  }
  for (int id = 5; id < count; id += 10)
    remove_random_agent(crowd, id);
  plan_random_crowd(crowd);
  return crowd;
}

} // namespace crowd::test

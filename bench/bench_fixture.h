// The scene every micro-benchmark runs on: N agents at about 0.3 agents/m^2 in a square world
// with a grid of pillars, like samples/scenarios/pillars.json scaled to N. Built once per agent
// count (cached for the whole process) from a fixed seed, so every run measures the same scene.
//
// What a scene holds:
//   scenario / navmesh  the 2D world (bounds and pillar prisms) and its Recast navmesh, built
//                       with NavMesh::build(Scenario) as a run does;
//   walls               the wall grid of the navmesh's boundary edges (cells of 4 m, as
//                       CrowdSolver builds it);
//   params              the executor's step parameters: agent grid of make_grid_spec over the
//                       navmesh bounds with cells of the largest query range, dt 0.1 s and the
//                       collision settings of the default SolverOptions;
//   agents              the agent arrays after a few warm-up steps of the CPU executor, so
//                       velocities, neighbours and contacts look like a crowd in motion;
//   goals               one goal per agent (for the corridor benchmark), 10-40 m away.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/core/solver_options.h"
#include "cuda/core/stage_timer.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/scenario.h"
#include "host/sim/wall_grid_builder.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crowd::bench {

/// Agent counts of the size sweep (1k, 4k, 16k, 64k).
inline constexpr int kSizes[] = {1000, 4000, 16000, 64000};
inline constexpr float kDensity = 0.3f;        ///< agents per square metre
inline constexpr float kPillarSpacing = 10.0f; ///< m between pillar centres
inline constexpr float kPillarHalf = 0.6f;     ///< pillars are 1.2 m squares
inline constexpr float kClearance = 0.3f;      ///< extra gap from pillars and the bounds, m
inline constexpr std::uint32_t kSeed = 20240611u;
inline constexpr int kWarmupSteps = 5; ///< CPU executor steps before the scene is frozen

/// Registers the agent counts as the benchmark's last argument, reported in microseconds.
inline void agent_counts(benchmark::internal::Benchmark* b) {
  for (int n : kSizes)
    b->Arg(n);
  b->Unit(benchmark::kMicrosecond);
}

/// agent_counts, timed by the wall clock (the stages run on several threads, so the main
/// thread's CPU time would undercount them).
inline void agent_sizes(benchmark::internal::Benchmark* b) {
  agent_counts(b);
  b->UseRealTime();
}

/// Sets the throughput of a benchmark that processed `agents` agents per iteration.
inline void set_agents_processed(benchmark::State& state, int agents) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(agents));
}

/// Adds each stage of `times` (accumulated over the iterations) as a counter in ms per
/// iteration, named "<stage>_ms".
inline void set_stage_counters(benchmark::State& state, const StageTimes& times) {
  for (const auto& [stage, ms] : times.entries())
    state.counters[stage + "_ms"] = benchmark::Counter(ms, benchmark::Counter::kAvgIterations);
}

struct BenchScene {
  int agent_count = 0;
  float half_size = 0.0f; ///< the world is [-half_size, half_size]^2
  Scenario scenario;
  NavMesh navmesh;
  WallGridData walls;
  KernelStepParams params;
  AgentArrays agents;
  std::vector<glm::vec3> goals;
  std::vector<float> max_speed;

  BenchScene(int count, Scenario world, NavMesh mesh)
      : agent_count(count), scenario(std::move(world)), navmesh(std::move(mesh)) {}
};

namespace detail {

/// The world of a scene: a floor of count / kDensity square metres with a pillar every
/// kPillarSpacing metres (at least 3 m from the bounds).
inline Scenario make_world(int count, float& half_size) {
  const float side = std::sqrt(static_cast<float>(count) / kDensity);
  half_size = 0.5f * side;
  Scenario s;
  s.name = "bench_" + std::to_string(count);
  s.seed = kSeed;
  s.dt = 0.1f;
  s.world.bounds = WorldSpec::Bounds2D{{-half_size, -half_size}, {half_size, half_size}};
  const int first = static_cast<int>(std::ceil((-half_size + 3.0f) / kPillarSpacing));
  const int last = static_cast<int>(std::floor((half_size - 3.0f) / kPillarSpacing));
  for (int ix = first; ix <= last; ++ix) {
    for (int iz = first; iz <= last; ++iz) {
      const float x = static_cast<float>(ix) * kPillarSpacing;
      const float z = static_cast<float>(iz) * kPillarSpacing;
      s.world.obstacles.push_back({{x - kPillarHalf, z - kPillarHalf},
                                   {x + kPillarHalf, z - kPillarHalf},
                                   {x + kPillarHalf, z + kPillarHalf},
                                   {x - kPillarHalf, z + kPillarHalf}});
    }
  }
  s.defaults.radius = 0.4f; // the largest radius drawn below: the navmesh's erosion
  return s;
}

/// Distance from p to the nearest pillar's square (0 inside it).
inline float pillar_distance(glm::vec2 p) {
  const glm::vec2 centre = glm::round(p / kPillarSpacing) * kPillarSpacing;
  const glm::vec2 d = glm::max(glm::abs(p - centre) - glm::vec2(kPillarHalf), glm::vec2(0.0f));
  return std::sqrt(d.x * d.x + d.y * d.y);
}

/// A point uniformly in the world, at least `margin` from the bounds and from every pillar.
template <class Rng> glm::vec2 free_point(Rng& rng, float half_size, float margin) {
  std::uniform_real_distribution<float> coord(-half_size + margin, half_size - margin);
  for (;;) {
    const glm::vec2 p{coord(rng), coord(rng)};
    if (pillar_distance(p) >= margin)
      return p;
  }
}

inline std::unique_ptr<BenchScene> build_scene(int count) {
  float half_size = 0.0f;
  Scenario world = make_world(count, half_size);
  NavMesh mesh = NavMesh::build(world);
  auto scene = std::make_unique<BenchScene>(count, std::move(world), std::move(mesh));
  scene->half_size = half_size;
  const NavMesh& navmesh = scene->navmesh;
  const glm::vec2 area_min{navmesh.bounds_min().x, navmesh.bounds_min().z};
  const glm::vec2 area_max{navmesh.bounds_max().x, navmesh.bounds_max().z};
  scene->walls = build_wall_grid(navmesh.boundary_segments(), area_min, area_max, 4.0f);

  const SolverOptions options;
  AgentArrays& a = scene->agents;
  a.max_neighbors = options.max_neighbors;
  a.max_segments = options.max_wall_segments;
  const AgentParams defaults; // avoidance "good", separation 2, accel 8 (DetourCrowd's demo)
  const std::int32_t set = a.avoidance_set_of(defaults.avoidance);

  // Agents: radius 0.3-0.4 m and top speed 1.1-1.5 m/s as in pillars.json, placed without
  // overlap (rejection against a hash grid of 1 m cells) and clear of pillars and bounds.
  std::mt19937 rng(kSeed ^ static_cast<std::uint32_t>(count));
  std::uniform_real_distribution<float> radius_of(0.3f, 0.4f), speed_of(1.1f, 1.5f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const int cells = static_cast<int>(std::ceil(2.0f * half_size)) + 1;
  std::vector<std::vector<int>> occupancy(static_cast<std::size_t>(cells) * cells);
  const auto cell_of = [&](glm::vec2 p) {
    const int x = std::clamp(static_cast<int>(p.x + half_size), 0, cells - 1);
    const int z = std::clamp(static_cast<int>(p.y + half_size), 0, cells - 1);
    return glm::ivec2(x, z);
  };
  float max_range = 0.0f;
  for (int i = 0; i < count; ++i) {
    const float r = radius_of(rng);
    const float speed = speed_of(rng);
    glm::vec2 p{0.0f};
    for (int attempt = 0;; ++attempt) {
      if (attempt > 10000)
        throw std::runtime_error("bench scene: no room for agent " + std::to_string(i));
      p = free_point(rng, half_size, r + kClearance);
      const glm::ivec2 c = cell_of(p);
      bool clear = true;
      for (int z = std::max(c.y - 1, 0); clear && z <= std::min(c.y + 1, cells - 1); ++z) {
        for (int x = std::max(c.x - 1, 0); clear && x <= std::min(c.x + 1, cells - 1); ++x) {
          for (int j : occupancy[static_cast<std::size_t>(z) * cells + x]) {
            const glm::vec3 q = a.position[static_cast<std::size_t>(j)];
            const glm::vec2 d{p.x - q.x, p.y - q.z};
            const float reach = r + a.radius[static_cast<std::size_t>(j)];
            if (d.x * d.x + d.y * d.y < reach * reach) {
              clear = false;
              break;
            }
          }
        }
      }
      if (clear)
        break;
    }
    const glm::ivec2 c = cell_of(p);
    occupancy[static_cast<std::size_t>(c.y) * cells + c.x].push_back(i);
    glm::vec3 pos{p.x, 0.0f, p.y};
    if (const auto snapped = navmesh.nearest_point(pos))
      pos.y = snapped->y; // keep x/z: the agents were placed clear of each other there
    const float range = 12.0f * r;
    max_range = std::max(max_range, range);
    a.append(pos, r, navmesh.settings().agent_height, defaults.max_accel, range,
             defaults.separation_weight, set);

    // A goal 10-40 m away, and the preferred velocity straight toward it (the corridor's
    // steering in open space), at the agent's top speed; it starts at 0.5-1 of it.
    glm::vec2 goal{0.0f};
    for (;;) {
      const float angle = unit(rng) * 6.2831853f;
      const float dist = 10.0f + 30.0f * unit(rng);
      goal = p + dist * glm::vec2(std::cos(angle), std::sin(angle));
      const float margin = 0.4f + kClearance;
      if (std::abs(goal.x) <= half_size - margin && std::abs(goal.y) <= half_size - margin &&
          pillar_distance(goal) >= margin)
        break;
    }
    scene->goals.push_back({goal.x, pos.y, goal.y});
    scene->max_speed.push_back(speed);
    const glm::vec2 dir = glm::normalize(goal - p);
    const std::size_t k = static_cast<std::size_t>(i);
    a.preferred_velocity[k] = dir * speed;
    a.desired_speed[k] = speed;
    a.velocity[k] = dir * speed * (0.5f + 0.5f * unit(rng));
  }

  KernelStepParams& params = scene->params;
  params.dt = scene->scenario.dt;
  params.collision_iterations = options.collision_iterations;
  params.collision.relaxation = options.collision_resolve_factor;
  params.collision.walls = options.collision_walls;
  params.collision.yield = options.collision_yield;
  params.agent_grid = make_grid_spec(area_min, area_max, max_range);

  // A few steps of the whole CPU executor: avoidance and collisions give the crowd realistic
  // velocities and contacts, and every proximity and steering array is filled.
  auto executor = make_cpu_executor(0);
  executor->set_walls(scene->walls);
  StageTimes times;
  for (int step = 0; step < kWarmupSteps; ++step)
    executor->step(a, params, times);
  return scene;
}

} // namespace detail

/// The scene of `count` agents, built on first use and kept for the whole process.
inline const BenchScene& bench_scene(int count) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<BenchScene>> scenes;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = scenes[count];
  if (!slot)
    slot = detail::build_scene(count);
  return *slot;
}

} // namespace crowd::bench

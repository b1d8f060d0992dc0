// What an obstacle event costs (scenario `events`, Crowd::add_obstacle): DetourTileCache's
// rebuild of the tiles the obstacle touches, then CrowdSolver::navmesh_changed (the navigator's
// navmesh tables built again, every corridor renumbered and those through a rebuilt tile cut
// and queued, the wall grid), on bench_fixture.h's scene built for dynamic obstacles, against
// one solver step of the same crowd measured in the same run (counter "event_steps").
#include "bench/bench_fixture.h"
#include "host/sim/crowd_solver.h"

#include <benchmark/benchmark.h>
#include <chrono>

namespace crowd::bench {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void BM_ObstacleEvent(benchmark::State& state) {
  const BenchScene& scene = bench_scene(static_cast<int>(state.range(0)));
  Scenario world = scene.scenario;
  ObstacleEvent drop; // any event makes the navmesh dynamic
  drop.name = "crate";
  drop.radius = 1.0f;
  world.events.push_back(drop);
  NavMesh navmesh = NavMesh::build(world);
  CrowdSolver solver(navmesh, SolverOptions{}, make_cpu_executor(0));
  for (int i = 0; i < scene.agent_count; ++i) {
    AgentSetup setup;
    setup.position = scene.agents.position[static_cast<std::size_t>(i)];
    setup.goal = scene.goals[static_cast<std::size_t>(i)];
    setup.params.radius = scene.agents.radius[static_cast<std::size_t>(i)];
    setup.params.max_speed = scene.max_speed[static_cast<std::size_t>(i)];
    solver.add_agent(setup);
  }
  solver.step(0.1f); // every agent's path
  const auto stepped = std::chrono::steady_clock::now();
  solver.step(0.1f);
  const double step_ms = ms_since(stepped);
  // A 1 m cylinder dropped in the middle of the crowd and lifted again: two events.
  NavObstacle crate;
  crate.position = {0.5f * scene.half_size, 0.0f, 0.5f};
  crate.radius = 1.0f;
  double event_ms = 0.0;
  int tiles = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const unsigned int id = navmesh.add_obstacle(crate);
    tiles += navmesh.update_obstacles();
    solver.navmesh_changed();
    navmesh.remove_obstacle(id);
    tiles += navmesh.update_obstacles();
    solver.navmesh_changed();
    event_ms += ms_since(start);
  }
  const double events = 2.0 * static_cast<double>(state.iterations());
  state.counters["event_ms"] = event_ms / events;
  state.counters["step_ms"] = step_ms;
  state.counters["event_steps"] = event_ms / events / step_ms;
  state.counters["tiles"] = tiles / events;
}
BENCHMARK(BM_ObstacleEvent)->Apply(agent_sizes);

} // namespace
} // namespace crowd::bench

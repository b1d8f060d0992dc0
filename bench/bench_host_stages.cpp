// Micro-benchmarks of the host stages that query the navmesh: Detour's A* (findPath, the
// `paths` stage's searches) and the per-step corridor work of CorridorNavigator (`paths`
// validity checks, `corridors` and `move_corridors`), on the navmesh of bench_fixture.h's scene.
#include "bench/bench_fixture.h"
#include "host/paths/corridor_navigator.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>
#include <random>
#include <vector>

namespace crowd::bench {
namespace {

int agents_of(const benchmark::State& state) {
  return static_cast<int>(state.range(0));
}

struct PathQuery {
  dtPolyRef start_ref = 0, end_ref = 0;
  glm::vec3 start{0.0f}, end{0.0f};
};

/// Where the searches go: from an agent to its goal 10-40 m away (what a crowd asks for), or
/// between two random points anywhere in the world (long searches, often cut short by the
/// node pool or the corridor's polygon limit, which is what a run gets for far goals).
enum class PathSpan { Local, Across };

std::vector<PathQuery> make_path_queries(const BenchScene& scene, dtNavMeshQuery& query,
                                         PathSpan span, int count) {
  std::mt19937 rng(kSeed + 1u);
  const glm::vec3 ext = scene.navmesh.placement_extents();
  const dtQueryFilter& filter = scene.navmesh.filter();
  const auto snap = [&](glm::vec3 p, dtPolyRef& ref, glm::vec3& out) {
    float nearest[3];
    ref = 0;
    query.findNearestPoly(&p.x, &ext.x, &filter, &ref, nearest);
    out = {nearest[0], nearest[1], nearest[2]};
    return ref != 0;
  };
  std::vector<PathQuery> queries;
  for (int i = 0; static_cast<int>(queries.size()) < count; ++i) {
    glm::vec3 a{0.0f}, b{0.0f};
    if (span == PathSpan::Local) {
      const std::size_t agent = static_cast<std::size_t>(i % scene.agent_count);
      a = scene.agents.position[agent];
      b = scene.goals[agent];
    } else {
      const glm::vec2 p = detail::free_point(rng, scene.half_size, 0.7f);
      const glm::vec2 q = detail::free_point(rng, scene.half_size, 0.7f);
      a = {p.x, 0.0f, p.y};
      b = {q.x, 0.0f, q.y};
    }
    PathQuery pq;
    if (snap(a, pq.start_ref, pq.start) && snap(b, pq.end_ref, pq.end))
      queries.push_back(pq);
  }
  return queries;
}

/// One A* search per iteration on one thread, with the solver's node pool (8192 nodes) and
/// corridor capacity (256 polygons); items per second = searches per second per core.
void BM_FindPath(benchmark::State& state, PathSpan span) {
  const BenchScene& scene = bench_scene(agents_of(state));
  const SolverOptions options;
  NavQueryPtr query = scene.navmesh.make_query(options.path_search_nodes);
  const std::vector<PathQuery> queries = make_path_queries(scene, *query, span, 256);
  std::vector<dtPolyRef> path(static_cast<std::size_t>(options.max_path_polys));
  std::size_t next = 0;
  double polys = 0.0, partial = 0.0;
  for (auto _ : state) {
    const PathQuery& q = queries[next];
    next = (next + 1) % queries.size();
    int count = 0;
    const dtStatus status =
        query->findPath(q.start_ref, q.end_ref, &q.start.x, &q.end.x, &scene.navmesh.filter(),
                        path.data(), &count, options.max_path_polys);
    benchmark::DoNotOptimize(path.data());
    polys += count;
    partial += dtStatusDetail(status, DT_PARTIAL_RESULT) ? 1.0 : 0.0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["polys"] = benchmark::Counter(polys, benchmark::Counter::kAvgIterations);
  state.counters["partial"] = benchmark::Counter(partial, benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(BM_FindPath, local, PathSpan::Local)->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_FindPath, across, PathSpan::Across)->Apply(agent_sizes);

/// CorridorNavigator::plan, the CPU executor's corridor phases and the navigator's answers for
/// every agent, all of them following a path (the stages `paths`, `corridors` and
/// `move_corridors` of a step, on all cores). Between
/// iterations, outside the timing, every agent moves one step along its preferred velocity
/// (standing in for the kernels) and agents that reached their goal turn back to where they
/// started, so the crowd keeps walking and asking for a few new paths per step.
void BM_CorridorUpdate(benchmark::State& state) {
  const BenchScene& scene = bench_scene(agents_of(state));
  const float dt = scene.params.dt;
  SolverOptions options;
  // Setup searches every agent's first path in one plan() instead of 64 per step.
  options.path_requests_per_step = scene.agent_count;
  tbb::task_arena arena(tbb::task_arena::automatic);
  AgentArrays agents = scene.agents;
  CorridorNavigator navigator(scene.navmesh, options, arena, agents);
  std::vector<glm::vec3> from(static_cast<std::size_t>(scene.agent_count));
  std::vector<glm::vec3> to = scene.goals;
  for (int i = 0; i < scene.agent_count; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (!navigator.add_agent(i, scene.max_speed[k])) {
      agents.mode[k] = kAgentInactive;
      continue;
    }
    from[k] = agents.position[k];
    navigator.set_target(i, to[k]);
  }
  const std::unique_ptr<Executor> executor = make_cpu_executor(0);
  executor->set_navmesh_tables(navigator.tables());
  StageTimes times;
  const auto follow = [&] {
    arena.execute(
        [&] { executor->follow_corridors(agents, options.path_optimization_range_factor); });
    navigator.answer_following();
  };
  const auto plan = [&] {
    arena.execute([&] { executor->check_corridors(agents); });
    navigator.plan(dt, times);
  };
  const auto move = [&] {
    NavmeshCorrections corrections;
    arena.execute([&] { corrections = executor->move_corridors(agents); });
    navigator.answer_moves(corrections);
  };
  plan();
  follow();
  move();
  times.clear();

  double turns = 0.0;
  for (auto _ : state) {
    plan();
    follow();
    state.PauseTiming();
    for (std::size_t k = 0; k < agents.position.size(); ++k) {
      agents.position[k].x += agents.preferred_velocity[k].x * dt;
      agents.position[k].z += agents.preferred_velocity[k].y * dt;
    }
    state.ResumeTiming();
    move();
    state.PauseTiming();
    for (int i = 0; i < scene.agent_count; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      const glm::vec3 d = agents.position[k] - to[k];
      if (agents.mode[k] == kAgentInactive || d.x * d.x + d.z * d.z > 1.0f)
        continue;
      std::swap(from[k], to[k]);
      navigator.set_target(i, to[k]);
      turns += 1.0;
    }
    state.ResumeTiming();
  }
  set_agents_processed(state, scene.agent_count);
  set_stage_counters(state, times);
  state.counters["new_paths"] = benchmark::Counter(turns, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_CorridorUpdate)->Apply(agent_sizes);

} // namespace
} // namespace crowd::bench

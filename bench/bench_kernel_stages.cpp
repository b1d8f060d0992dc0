// Micro-benchmarks of the kernel stages (cuda/kernels) on the CPU, run the way the CPU executor
// runs them (host/sim/cpu_executor.cpp): the agent grid with Thrust's sequential policy, every
// other stage spread over all cores with TBB, one agent per call (one CpuBlock per agent for
// avoidance). Each benchmark first runs the stages before it once, so its inputs are those of a
// real step, then times its own stage alone. Sizes: the scene of bench_fixture.h at 1k to 64k
// agents; items per second = agents per second through the stage.
#include "bench/bench_fixture.h"
#include "cuda/kernels/agent_grid_build.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/integration.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/separation.h"
#include "host/sim/cpu_block.h"

#include <benchmark/benchmark.h>
#include <numeric>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <thrust/system/cpp/execution_policy.h>
#include <utility>
#include <vector>

namespace crowd::bench {
namespace {

/// Calls f(i) for every agent, in chunks of 64 spread over the cores (the executor's loop).
template <class F> void for_each_agent(int n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<int>(0, n, 64), [&](const tbb::blocked_range<int>& r) {
    for (int i = r.begin(); i < r.end(); ++i)
      f(i);
  });
}

/// The kernel stages of one step over a copy of a scene's agents, with the executor's buffers
/// and per-thread scratch made once.
class KernelStages {
public:
  explicit KernelStages(const BenchScene& scene)
      : scene_(scene), agents_(scene.agents), walls_(scene.walls.view()),
        keys_(static_cast<std::size_t>(agents_.count())),
        items_(static_cast<std::size_t>(agents_.count())),
        cell_start_(static_cast<std::size_t>(scene.params.agent_grid.cell_count()) + 2),
        points_(static_cast<std::size_t>(agents_.count())), segment_scratch_([this] {
          return std::make_pair(
              std::vector<float>(static_cast<std::size_t>(agents_.max_segments)),
              std::vector<std::int32_t>(static_cast<std::size_t>(agents_.max_segments)));
        }),
        avoidance_scratch_(agents_.max_neighbors, agents_.max_segments) {}

  AgentArrays& agents() { return agents_; }
  int count() const { return agents_.count(); }
  const KernelStepParams& params() const { return scene_.params; }

  /// Stage 3: the agent grid (cell keys, stable sort, cell ranges), sequential.
  void grid() {
    build_agent_grid(thrust::cpp::par, scene_.params.agent_grid, agents_.view(), keys_.data(),
                     items_.data(), points_.data(), cell_start_.data());
  }
  /// Stage 4: neighbours and wall segments of every agent (needs grid()).
  void proximity() {
    const AgentView v = agents_.view();
    const AgentGridView g{{scene_.params.agent_grid, cell_start_.data(), items_.data()},
                          points_.data()};
    for_each_agent(v.count, [&](int i) {
      find_neighbors(i, v, g);
      auto& [distance, ids] = segment_scratch_.local();
      find_wall_segments(i, v, walls_, distance.data(), ids.data());
    });
  }
  /// Stage 5: separation (needs proximity()).
  void steering() {
    const AgentView v = agents_.view();
    for_each_agent(v.count, [&](int i) { steer_with_separation(i, v); });
  }
  /// Stage 6: velocity sampling, one CpuBlock per agent (needs steering()).
  void avoidance() {
    const AgentView v = agents_.view();
    for_each_agent(v.count, [&](int i) {
      CpuBlock block;
      choose_velocity(block, i, v, avoidance_scratch_.local().view());
    });
  }
  /// Stage 7: acceleration-limited velocity change and move (needs avoidance()).
  void integrate() {
    const AgentView v = agents_.view();
    for_each_agent(v.count, [&](int i) { integrate_agent(i, v, scene_.params.dt); });
  }
  /// Stage 8: `passes` Jacobi passes of collision resolution (needs proximity()).
  void collisions(int passes) {
    const AgentView v = agents_.view();
    for (int pass = 0; pass < passes; ++pass) {
      for_each_agent(v.count,
                     [&](int i) { collision_displacement(i, v, scene_.params.collision); });
      for_each_agent(v.count, [&](int i) { apply_displacement(i, v); });
    }
  }

private:
  const BenchScene& scene_;
  AgentArrays agents_;
  WallGridView walls_;
  std::vector<std::int32_t> keys_, items_, cell_start_;
  std::vector<glm::vec4> points_;
  tbb::enumerable_thread_specific<std::pair<std::vector<float>, std::vector<std::int32_t>>>
      segment_scratch_;
  tbb::enumerable_thread_specific<CpuAvoidanceScratch> avoidance_scratch_;
};

int agents_of(const benchmark::State& state) {
  return static_cast<int>(state.range(0));
}

void BM_GridBuild(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  for (auto _ : state) {
    k.grid();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_GridBuild)->Apply(agent_sizes);

void BM_Proximity(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  k.grid();
  for (auto _ : state) {
    k.proximity();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
  // What the stage found per agent: neighbours kept (of max_neighbors) and wall segments.
  const AgentArrays& a = k.agents();
  const double n = static_cast<double>(k.count());
  state.counters["neighbors"] =
      static_cast<double>(std::accumulate(a.neighbor_count.begin(), a.neighbor_count.end(), 0)) / n;
  state.counters["walls"] =
      static_cast<double>(std::accumulate(a.segment_count.begin(), a.segment_count.end(), 0)) / n;
}
BENCHMARK(BM_Proximity)->Apply(agent_sizes);

void BM_Steering(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  k.grid();
  k.proximity();
  for (auto _ : state) {
    k.steering();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_Steering)->Apply(agent_sizes);

/// Avoidance with every agent on one of DetourCrowd's presets (the demo's low, medium, good,
/// high: 11, 11, 15, 22 samples per level; 1, 2, 3, 3 levels).
void BM_Avoidance(benchmark::State& state, AvoidancePreset preset) {
  KernelStages k(bench_scene(agents_of(state)));
  AgentArrays& a = k.agents();
  a.avoidance_params.assign(1, avoidance_preset(preset));
  std::fill(a.avoidance_set.begin(), a.avoidance_set.end(), 0);
  k.grid();
  k.proximity();
  k.steering();
  for (auto _ : state) {
    k.avoidance();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
  const AvoidanceParams p = avoidance_preset(preset);
  state.counters["samples"] = static_cast<double>(p.samples_per_level() * p.adaptive_depth);
}
BENCHMARK_CAPTURE(BM_Avoidance, low, AvoidancePreset::Low)->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, medium, AvoidancePreset::Medium)->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, good, AvoidancePreset::Good)->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, high, AvoidancePreset::High)->Apply(agent_sizes);

void BM_Integrate(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  k.grid();
  k.proximity();
  k.steering();
  k.avoidance();
  // Positions drift a step per iteration; the stage's cost does not depend on them.
  for (auto _ : state) {
    k.integrate();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_Integrate)->Apply(agent_sizes);

/// Collision resolution on the contacts right after integration; positions are restored
/// before every iteration (outside the timing), so each one resolves the same contacts.
void BM_Collisions(benchmark::State& state, int passes) {
  KernelStages k(bench_scene(agents_of(state)));
  k.grid();
  k.proximity();
  k.steering();
  k.avoidance();
  k.integrate();
  const std::vector<glm::vec3> before = k.agents().position;
  for (auto _ : state) {
    state.PauseTiming();
    std::copy(before.begin(), before.end(), k.agents().position.begin());
    state.ResumeTiming();
    k.collisions(passes);
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
  state.counters["passes"] = passes;
}
BENCHMARK_CAPTURE(BM_Collisions, one_pass, 1)->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Collisions, default_passes, SolverOptions{}.collision_iterations)
    ->Apply(agent_sizes);

/// The whole CPU executor step (stages 3-8 with the executor's own buffers and task arena),
/// from the same state every iteration; the counters give each stage's share in ms per step.
void BM_CpuExecutorStep(benchmark::State& state) {
  const BenchScene& scene = bench_scene(agents_of(state));
  auto executor = make_cpu_executor(0);
  executor->set_walls(scene.walls);
  AgentArrays agents = scene.agents;
  StageTimes times;
  executor->step(agents, scene.params, times); // first step sizes the executor's buffers
  times.clear();
  for (auto _ : state) {
    state.PauseTiming();
    agents = scene.agents;
    state.ResumeTiming();
    executor->step(agents, scene.params, times);
  }
  set_agents_processed(state, scene.agent_count);
  set_stage_counters(state, times);
}
BENCHMARK(BM_CpuExecutorStep)->Apply(agent_sizes);

} // namespace
} // namespace crowd::bench

// Micro-benchmarks of the kernel stages (cuda/kernels) on the CPU: each calls the CPU executor's
// phase (cuda/core/executor.h), so it times exactly what a step runs: the agent grid with
// Thrust's sequential policy, every other stage spread over all cores with TBB. Each benchmark
// first runs the phases before its own once, so its inputs are those of a real step, then
// times its own phase alone. Sizes: the scene of bench_fixture.h at 1k to 64k agents; items per
// second = agents per second through the stage.
#include "bench/bench_fixture.h"

#include <benchmark/benchmark.h>
#include <numeric>
#include <vector>

namespace crowd::bench {
namespace {

/// The kernel phases of one step over a copy of a scene's agents, on a CPU executor (all cores)
/// that keeps its buffers and per-thread scratch from call to call.
class KernelStages {
public:
  explicit KernelStages(const BenchScene& scene)
      : agents_(scene.agents), executor_(make_cpu_executor(0)) {
    executor_->set_walls(scene.walls);
    executor_->begin_step(agents_, scene.params);
  }

  AgentArrays& agents() { return agents_; }
  int count() const { return agents_.count(); }
  Executor& executor() { return *executor_; }
  /// Binds the executor to the arrays again after they were replaced or their sizes changed.
  void rebind(const KernelStepParams& params) { executor_->begin_step(agents_, params); }

private:
  AgentArrays agents_;
  std::unique_ptr<Executor> executor_;
};

int agents_of(const benchmark::State& state) {
  return static_cast<int>(state.range(0));
}

void BM_GridBuild(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  for (auto _ : state) {
    k.executor().build_grid();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_GridBuild)->Apply(agent_sizes);

void BM_Proximity(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  k.executor().build_grid();
  for (auto _ : state) {
    k.executor().find_proximity();
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
  k.executor().build_grid();
  k.executor().find_proximity();
  for (auto _ : state) {
    k.executor().steer();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_Steering)->Apply(agent_sizes);

/// Avoidance with every agent on one of DetourCrowd's presets (the demo's low, medium, good,
/// high: 11, 11, 15, 22 samples per level; 1, 2, 3, 3 levels).
/// Every agent on one avoidance model: DetourCrowd's sampling at a preset, the force model or
/// ORCA (their default parameters), so the models' costs compare on one scene.
void BM_Avoidance(benchmark::State& state, AvoidanceParams params) {
  const BenchScene& scene = bench_scene(agents_of(state));
  KernelStages k(scene);
  AgentArrays& a = k.agents();
  a.avoidance_params.assign(1, params);
  std::fill(a.avoidance_set.begin(), a.avoidance_set.end(), 0);
  k.rebind(scene.params); // the parameter sets changed
  k.executor().build_grid();
  k.executor().find_proximity();
  k.executor().steer();
  for (auto _ : state) {
    k.executor().choose_velocities();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
  if (params.model == kAvoidanceDetour)
    state.counters["samples"] =
        static_cast<double>(params.samples_per_level() * params.adaptive_depth);
}
BENCHMARK_CAPTURE(BM_Avoidance, low, avoidance_preset(AvoidancePreset::Low))->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, medium, avoidance_preset(AvoidancePreset::Medium))
    ->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, good, avoidance_preset(AvoidancePreset::Good))->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, high, avoidance_preset(AvoidancePreset::High))->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, mass, avoidance_defaults(kAvoidanceMass))->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, orca, avoidance_defaults(kAvoidanceOrca))->Apply(agent_sizes);
BENCHMARK_CAPTURE(BM_Avoidance, ttc, avoidance_defaults(kAvoidanceTtc))->Apply(agent_sizes);

void BM_Integrate(benchmark::State& state) {
  KernelStages k(bench_scene(agents_of(state)));
  k.executor().build_grid();
  k.executor().find_proximity();
  k.executor().steer();
  k.executor().choose_velocities();
  // Positions drift a step per iteration; the stage's cost does not depend on them.
  for (auto _ : state) {
    k.executor().integrate();
    benchmark::ClobberMemory();
  }
  set_agents_processed(state, k.count());
}
BENCHMARK(BM_Integrate)->Apply(agent_sizes);

/// Collision resolution on the contacts right after integration; positions are restored
/// before every iteration (outside the timing), so each one resolves the same contacts.
void BM_Collisions(benchmark::State& state, int passes) {
  KernelStages k(bench_scene(agents_of(state)));
  k.executor().build_grid();
  k.executor().find_proximity();
  k.executor().steer();
  k.executor().choose_velocities();
  k.executor().integrate();
  const std::vector<glm::vec3> before = k.agents().position;
  for (auto _ : state) {
    state.PauseTiming();
    std::copy(before.begin(), before.end(), k.agents().position.begin());
    state.ResumeTiming();
    for (int pass = 0; pass < passes; ++pass)
      k.executor().resolve_collisions(pass);
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

// The whole CUDA executor step (upload, stages 3-8, download) on bench_fixture.h's scene, timed
// on the device: the executor records a CUDA event at every stage boundary on its stream and
// reports the elapsed times in StageTimes; their sum is the iteration's manual time. Built only
// with the CUDA backend; skipped when no device is present.
#if defined(CROWD_HAS_CUDA)

#include "bench/bench_fixture.h"

#include <benchmark/benchmark.h>
#include <exception>

namespace crowd::bench {
namespace {

void BM_CudaExecutorStep(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  const BenchScene& scene = bench_scene(static_cast<int>(state.range(0)));
  std::unique_ptr<Executor> executor;
  AgentArrays agents = scene.agents;
  StageTimes times;
  try {
    executor = make_cuda_executor();
    executor->set_walls(scene.walls);
    // The first step allocates the device mirror and uploads the per-agent parameters.
    executor->step(agents, scene.params, times);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  StageTimes total;
  for (auto _ : state) {
    // Every iteration starts from the scene's state (the layout is unchanged, so only the
    // per-step inputs are uploaded, as in a run).
    agents = scene.agents;
    times.clear();
    executor->step(agents, scene.params, times);
    double ms = 0.0;
    for (const auto& [stage, stage_ms] : times.entries()) {
      ms += stage_ms;
      total.add(stage, stage_ms);
    }
    state.SetIterationTime(ms / 1000.0);
  }
  set_agents_processed(state, scene.agent_count);
  set_stage_counters(state, total);
}
BENCHMARK(BM_CudaExecutorStep)->Apply(agent_counts)->UseManualTime();
// The scales a GPU is bought for: the bench scenes of 262,144 and 1,000,000 agents (the CPU's
// micro-benchmarks stop at 64,000, where a run of them already takes minutes).
BENCHMARK(BM_CudaExecutorStep)
    ->Arg(262144)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

} // namespace
} // namespace crowd::bench

#endif // CROWD_HAS_CUDA

// What writing one per-step trajectory frame costs (TrajectoryWriter::write_frame: the rows
// formatted on the workers of the calling arena, host/output/ordered_rows.h, then one write to
// the temporary file), the bench scene's agents on 1 or 2 threads: the two rows of one run are
// the ratio (a frame of 64,000 agents is about 3.8 MB of text).
#include "bench/bench_fixture.h"
#include "host/output/trajectory_writer.h"
#include "tests/support/temp_dir.h"

#include <benchmark/benchmark.h>
#include <filesystem>
#include <memory>
#include <oneapi/tbb/task_arena.h>
#include <string>
#include <vector>

namespace crowd::bench {
namespace {

/// Arguments: agents, threads (the names read BM_TrajectoryFrame/AGENTS/THREADS).
void BM_TrajectoryFrame(benchmark::State& state) {
  const BenchScene& scene = bench_scene(static_cast<int>(state.range(0)));
  const std::vector<glm::vec3>& positions = scene.agents.position;
  const std::vector<glm::vec2>& velocities = scene.agents.velocity;
  const std::vector<AgentPhase> phases(positions.size(), AgentPhase::Walking);
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  const test::TempDir scratch("crowd-bench");
  // A new file every 16 frames (outside the timing): the temporary file stays under 64 MB.
  std::unique_ptr<TrajectoryWriter> writer;
  int step = 0;
  for (auto _ : state) {
    if (step % 16 == 0) {
      state.PauseTiming();
      writer.reset(); // unfinished: its temporary file is removed
      writer = std::make_unique<TrajectoryWriter>(scratch.path() / "trajectory.csv");
      state.ResumeTiming();
    }
    arena.execute([&] { writer->write_frame(step, 0.1 * step, positions, velocities, phases); });
    ++step;
  }
  set_agents_processed(state, scene.agent_count);
}
BENCHMARK(BM_TrajectoryFrame)
    ->ArgsProduct({{kSizes[0], kSizes[1], kSizes[2], kSizes[3]}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

} // namespace
} // namespace crowd::bench

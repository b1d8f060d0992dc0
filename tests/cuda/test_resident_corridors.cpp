// cuda/executor/resident_corridors.cu: the CUDA executor keeps the corridor rows in device
// memory and runs the corridor phases there; the host fetches the rows it reads and the
// executor uploads the rows it writes. With tables that leave every third polygon to Detour
// (its edges ask, and it is not flat), each phase flags some agents and answers the rest on
// the device, so the event path (the flagged lists, the rows fetched for the navigator, the
// answered rows uploaded again) runs every step. The host's view of the run must be the CPU
// executor's, byte for byte: positions, corrections, flagged agents, and every corridor row.
#include "cuda/core/executor.h"
#include "cuda/kernels/corridor_following.h"
#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/corridor_navigator.h"
#include "tests/support/partly_asking_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/pillar_field_walkers.h"
#include "tests/support/random_strides.h"

#include <gtest/gtest.h>

#if defined(CROWD_HAS_CUDA)

#include "tests/support/cuda_device.h"

#include <cstring>
#include <numeric>
#include <oneapi/tbb/task_arena.h>
#include <vector>

namespace crowd {
namespace {

constexpr float kRangeFactor = 30.0f;

/// What the host saw of a run of the corridor phases.
struct CorridorRun {
  AgentArrays arrays;
  std::vector<std::vector<std::int32_t>> asked; ///< per phase, the flagged agents
  std::vector<NavmeshCorrections> corrections;  ///< per step
};

CorridorRun run_phases(const NavMesh& navmesh, Executor& executor, int steps) {
  SolverOptions options;
  options.path_optimization_range_factor = kRangeFactor;
  tbb::task_arena arena{2};
  CorridorRun run;
  AgentArrays& arrays = run.arrays;
  CorridorNavigator navigator(
      navmesh, options, arena, arrays,
      [&](std::span<const std::int32_t> which) { executor.fetch_corridor_rows(arrays, which); },
      [&](std::span<const std::int32_t> which, std::span<std::int32_t> first) {
        executor.fetch_corridor_starts(arrays, which, first);
      });
  const test::PartlyAskingTables tables(navigator.tables());
  executor.set_navmesh_tables(tables.view);
  test::add_pillar_field_walkers(navmesh, navigator, arrays, 60, 5);
  StageTimes times;
  for (int step = 0; step < steps; ++step) {
    arena.execute([&] { executor.check_corridors(arrays); });
    navigator.plan(0.1f, times);
    arena.execute([&] { executor.follow_corridors(arrays, kRangeFactor); });
    run.asked.push_back(arrays.corridors.asked);
    navigator.answer_following();
    // Every agent wants to go up to 1.5 m in some direction: into pillars, across polygons.
    test::random_strides(arrays.position, static_cast<unsigned>(step), 1.5f);
    NavmeshCorrections corrections;
    arena.execute([&] { corrections = executor.move_corridors(arrays); });
    run.asked.push_back(arrays.corridors.asked);
    navigator.answer_moves(corrections);
    run.corrections.push_back(corrections);
  }
  std::vector<std::int32_t> every(static_cast<std::size_t>(arrays.count()));
  std::iota(every.begin(), every.end(), 0);
  executor.fetch_corridor_rows(arrays, every);
  return run;
}

template <class T> bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(CudaResidentCorridors, TheHostSeesWhatTheCpuExecutorGives) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(32));
  const int steps = test::size_for_device(20, 6);
  const std::unique_ptr<Executor> cpu_executor = make_cpu_executor(2);
  const std::unique_ptr<Executor> cuda_executor = make_cuda_executor();
  const CorridorRun cpu = run_phases(navmesh, *cpu_executor, steps);
  const CorridorRun cuda = run_phases(navmesh, *cuda_executor, steps);

  std::size_t flagged = 0;
  for (const std::vector<std::int32_t>& asked : cpu.asked)
    flagged += asked.size();
  EXPECT_GT(flagged, static_cast<std::size_t>(steps) * 10) << "the host answers every step";
  EXPECT_EQ(cuda.asked, cpu.asked);
  for (std::size_t s = 0; s < cpu.corrections.size(); ++s) {
    EXPECT_EQ(cuda.corrections[s].count, cpu.corrections[s].count) << "step " << s;
    EXPECT_EQ(cuda.corrections[s].max_distance, cpu.corrections[s].max_distance) << "step " << s;
  }
  EXPECT_TRUE(same_bytes(cuda.arrays.position, cpu.arrays.position));
  const CorridorArrays &got = cuda.arrays.corridors, &want = cpu.arrays.corridors;
  EXPECT_TRUE(same_bytes(got.size, want.size));
  EXPECT_TRUE(same_bytes(got.position, want.position));
  EXPECT_TRUE(same_bytes(got.target, want.target));
  for (int i = 0; i < got.count(); ++i) {
    const std::int32_t* row = got.row(i);
    const std::int32_t* expected = want.row(i);
    EXPECT_TRUE(std::equal(row, row + got.size[static_cast<std::size_t>(i)], expected))
        << "agent " << i;
  }
}

} // namespace
} // namespace crowd

#endif // CROWD_HAS_CUDA

// The corridor kernels on the device (cuda/executor/corridor_kernels.h): corners, visibility
// shortcut and corridor move for N agents at once, one thread per agent, timed with CUDA events
// around the launch alone (manual time; uploads and downloads are not counted). The corridors
// are 4,096 random paths on the pillar field of the tests, repeated to N rows, each agent at
// its path's start heading 1 m along it. Built only with the CUDA backend; skipped when no
// device is present.
#if defined(CROWD_HAS_CUDA)

#include "bench/bench_fixture.h"
#include "cuda/executor/corridor_kernels.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

namespace crowd::bench {
namespace {

constexpr int kPathCapacity = 64;
constexpr int kDistinctPaths = 4096;

struct CorridorScene {
  NavMesh navmesh;
  PortalTable portals;
  PolygonShapes shapes;
  NavmeshTablesView tables;
  std::unique_ptr<DeviceNavmeshTables> device;
  CorridorRows distinct;    ///< kDistinctPaths rows
  std::vector<float> ahead; ///< per distinct row: 1 m along the path toward its target

  CorridorScene()
      : navmesh(NavMesh::build(test::pillar_field())), portals(navmesh.detour()),
        shapes(navmesh.detour(), navmesh.filter()), tables(navmesh_tables_view(portals, shapes)) {
    NavQueryPtr query = navmesh.make_query();
    std::mt19937 rng(5);
    test::RandomPath path;
    distinct.capacity = kPathCapacity;
    while (distinct.count() < kDistinctPaths) {
      if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng,
                             kPathCapacity, path))
        continue;
      for (int k = 0; k < kPathCapacity; ++k)
        distinct.polys.push_back(k < static_cast<int>(path.polys.size())
                                     ? portals.index_of(path.polys[static_cast<std::size_t>(k)])
                                     : -1);
      distinct.size.push_back(static_cast<int>(path.polys.size()));
      distinct.position.insert(distinct.position.end(), path.start_pos, path.start_pos + 3);
      distinct.target.insert(distinct.target.end(), path.goal_pos, path.goal_pos + 3);
      const float dx = path.goal_pos[0] - path.start_pos[0],
                  dz = path.goal_pos[2] - path.start_pos[2];
      const float len = std::max(1e-3f, std::sqrt(dx * dx + dz * dz));
      ahead.insert(ahead.end(),
                   {path.start_pos[0] + dx / len, path.start_pos[1], path.start_pos[2] + dz / len});
    }
  }

  /// `count` rows, the distinct ones repeated, and the points 1 m ahead.
  void rows(int count, CorridorRows& out, std::vector<float>& points) const {
    out = CorridorRows{};
    out.capacity = kPathCapacity;
    points.clear();
    for (int i = 0; i < count; ++i) {
      const auto d = static_cast<std::size_t>(i % kDistinctPaths);
      const auto row = d * kPathCapacity;
      out.polys.insert(out.polys.end(), distinct.polys.begin() + static_cast<std::ptrdiff_t>(row),
                       distinct.polys.begin() + static_cast<std::ptrdiff_t>(row + kPathCapacity));
      out.size.push_back(distinct.size[d]);
      out.position.insert(out.position.end(), &distinct.position[d * 3],
                          &distinct.position[d * 3] + 3);
      out.target.insert(out.target.end(), &distinct.target[d * 3], &distinct.target[d * 3] + 3);
      points.insert(points.end(), &ahead[d * 3], &ahead[d * 3] + 3);
    }
  }
};

/// The scene, or null (and the benchmark skipped) without a device.
const CorridorScene* corridor_scene(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return nullptr;
  }
  static std::unique_ptr<CorridorScene> scene;
  if (!scene) {
    scene = std::make_unique<CorridorScene>();
    scene->device = std::make_unique<DeviceNavmeshTables>(scene->tables);
  }
  return scene.get();
}

void BM_CudaCorridorCorners(benchmark::State& state) {
  const CorridorScene* scene = corridor_scene(state);
  if (scene == nullptr)
    return;
  CorridorRows rows;
  std::vector<float> ahead;
  scene->rows(static_cast<int>(state.range(0)), rows, ahead);
  for (auto _ : state) {
    double ms = 0.0;
    benchmark::DoNotOptimize(find_corners_on_device(*scene->device, rows, 4, &ms));
    state.SetIterationTime(ms / 1000.0);
  }
  set_agents_processed(state, rows.count());
}

void BM_CudaCorridorShortcut(benchmark::State& state) {
  const CorridorScene* scene = corridor_scene(state);
  if (scene == nullptr)
    return;
  CorridorRows rows;
  std::vector<float> ahead;
  scene->rows(static_cast<int>(state.range(0)), rows, ahead);
  const std::vector<float> range(static_cast<std::size_t>(rows.count()), 6.0f * 0.3f * 12.0f);
  for (auto _ : state) {
    CorridorRows work = rows;
    double ms = 0.0;
    benchmark::DoNotOptimize(
        optimize_visibility_on_device(*scene->device, work, ahead, range, &ms));
    state.SetIterationTime(ms / 1000.0);
  }
  set_agents_processed(state, rows.count());
}

void BM_CudaCorridorMove(benchmark::State& state) {
  const CorridorScene* scene = corridor_scene(state);
  if (scene == nullptr)
    return;
  CorridorRows rows;
  std::vector<float> ahead;
  scene->rows(static_cast<int>(state.range(0)), rows, ahead);
  // A step's move: 0.15 m toward the point ahead (1.5 m/s for 0.1 s).
  std::vector<float> npos(ahead.size());
  for (std::size_t k = 0; k < ahead.size(); ++k)
    npos[k] = rows.position[k] + (ahead[k] - rows.position[k]) * 0.15f;
  for (auto _ : state) {
    CorridorRows work = rows;
    double ms = 0.0;
    benchmark::DoNotOptimize(move_corridors_on_device(*scene->device, work, npos, &ms));
    state.SetIterationTime(ms / 1000.0);
  }
  set_agents_processed(state, rows.count());
}

// Ten iterations: each one also uploads and downloads the batch (not timed), which at
// 1,000,000 agents takes about 100 times the kernel, so the default iteration count would run
// for minutes.
void corridor_counts(benchmark::internal::Benchmark* b) {
  b->Arg(65536)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(10);
}

BENCHMARK(BM_CudaCorridorCorners)->Apply(corridor_counts);
BENCHMARK(BM_CudaCorridorShortcut)->Apply(corridor_counts);
BENCHMARK(BM_CudaCorridorMove)->Apply(corridor_counts);

} // namespace
} // namespace crowd::bench

#endif // CROWD_HAS_CUDA

// Hierarchical path search (host/paths/hierarchical_search.h) against Detour's flat A* on the
// `crowd bench` world, built in tiles: the same start and goal pairs, long ones (at least a
// quarter of the world's side apart). Counters per pair: polygons expanded (Detour's node pool
// against the polygons the confined search reached), path length (string-pulled, metres) and
// pairs whose search reached the goal; time per iteration covers every pair.
//
//   ./build/bench/crowd_bench --benchmark_filter=BM_PathSearch
#include "host/bench/bench_scene.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/hierarchical_search.h"

#include <DetourNavMeshQuery.h>
#include <DetourNode.h>
#include <algorithm>
#include <benchmark/benchmark.h>
#include <map>
#include <memory>
#include <random>
#include <vector>

namespace crowd::bench {
namespace {

constexpr int kPairs = 32;
constexpr int kMaxPath = 65535;   ///< Polygons a path may hold; also Detour's node pool.
constexpr int kTestTileSize = 64; ///< Forces tiles on the small worlds (the smoke run).

struct PathWorld {
  NavMesh navmesh;
  PolygonGraph graph;
  TileGraph tiles;
  std::vector<std::pair<dtPolyRef, dtPolyRef>> pairs;
  std::vector<std::pair<glm::vec3, glm::vec3>> points;
  /// Per pair, the flat A*'s path length, or a negative value where it did not reach the goal.
  std::vector<float> flat_length;
};

float straight_length(dtNavMeshQuery& query, const glm::vec3& from, const glm::vec3& to,
                      const std::vector<dtPolyRef>& path, int count) {
  std::vector<float> points(3 * 4096);
  int n = 0;
  query.findStraightPath(&from.x, &to.x, path.data(), count, points.data(), nullptr, nullptr, &n,
                         4096);
  float length = 0.0f;
  for (int i = 1; i < n; ++i)
    length += glm::distance(glm::vec3(points[3 * i - 3], points[3 * i - 2], points[3 * i - 1]),
                            glm::vec3(points[3 * i], points[3 * i + 1], points[3 * i + 2]));
  return length;
}

PathWorld& path_world(int agents) {
  static std::map<int, std::unique_ptr<PathWorld>> worlds;
  auto& world = worlds[agents];
  if (world)
    return *world;
  Scenario scenario = make_bench_scenario(agents);
  if (agents < 100000)
    scenario.world.navmesh.tile_size = kTestTileSize;
  NavMesh navmesh = NavMesh::build(scenario);
  PolygonGraph graph(navmesh.detour(), navmesh.filter());
  TileGraph tiles(navmesh.detour());
  world = std::make_unique<PathWorld>(
      PathWorld{std::move(navmesh), std::move(graph), std::move(tiles), {}, {}, {}});
  const float side = bench_scene_layout(agents).side;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coordinate(-side / 2.0f, side / 2.0f);
  NavQueryPtr query = world->navmesh.make_query(64);
  while (static_cast<int>(world->pairs.size()) < kPairs) {
    glm::vec3 a(coordinate(rng), 0.0f, coordinate(rng)), b(coordinate(rng), 0.0f, coordinate(rng));
    if (glm::distance(a, b) < side / 4.0f)
      continue;
    const glm::vec3 ext = world->navmesh.placement_extents();
    dtPolyRef ra = 0, rb = 0;
    float pa[3], pb[3];
    query->findNearestPoly(&a.x, &ext.x, &world->navmesh.filter(), &ra, pa);
    query->findNearestPoly(&b.x, &ext.x, &world->navmesh.filter(), &rb, pb);
    if (ra == 0 || rb == 0)
      continue;
    world->pairs.emplace_back(ra, rb);
    world->points.emplace_back(glm::vec3(pa[0], pa[1], pa[2]), glm::vec3(pb[0], pb[1], pb[2]));
  }
  NavQueryPtr flat = world->navmesh.make_query(kMaxPath);
  std::vector<dtPolyRef> path(kMaxPath);
  for (std::size_t k = 0; k < world->pairs.size(); ++k) {
    int count = 0;
    const dtStatus status = flat->findPath(world->pairs[k].first, world->pairs[k].second,
                                           &world->points[k].first.x, &world->points[k].second.x,
                                           &world->navmesh.filter(), path.data(), &count, kMaxPath);
    const bool reached = dtStatusSucceed(status) && !dtStatusDetail(status, DT_PARTIAL_RESULT);
    world->flat_length.push_back(reached ? straight_length(*flat, world->points[k].first,
                                                           world->points[k].second, path, count)
                                         : -1.0f);
  }
  return *world;
}

void report(benchmark::State& state, const PathWorld& w, double expanded, double length,
            double reached) {
  state.counters["expanded"] = expanded / kPairs;
  state.counters["length_m"] = length / kPairs;
  state.counters["reached"] = reached;
  state.counters["tiles"] = w.navmesh.tile_count();
}

void BM_PathSearchFlat(benchmark::State& state) {
  PathWorld& w = path_world(static_cast<int>(state.range(0)));
  NavQueryPtr query = w.navmesh.make_query(kMaxPath);
  std::vector<dtPolyRef> path(kMaxPath);
  double expanded = 0.0, length = 0.0, reached = 0.0;
  for (auto _ : state) {
    expanded = length = reached = 0.0;
    for (std::size_t k = 0; k < w.pairs.size(); ++k) {
      int count = 0;
      const dtStatus status = query->findPath(w.pairs[k].first, w.pairs[k].second,
                                              &w.points[k].first.x, &w.points[k].second.x,
                                              &w.navmesh.filter(), path.data(), &count, kMaxPath);
      expanded += static_cast<double>(query->getNodePool()->getNodeCount());
      reached += dtStatusSucceed(status) && !dtStatusDetail(status, DT_PARTIAL_RESULT) ? 1 : 0;
      state.PauseTiming();
      length += straight_length(*query, w.points[k].first, w.points[k].second, path, count);
      state.ResumeTiming();
    }
  }
  report(state, w, expanded, length, reached);
}

void BM_PathSearchHierarchical(benchmark::State& state) {
  PathWorld& w = path_world(static_cast<int>(state.range(0)));
  NavQueryPtr query = w.navmesh.make_query(64);
  std::vector<dtPolyRef> path(kMaxPath);
  double expanded = 0.0, length = 0.0, reached = 0.0, worst = 0.0, mean = 0.0;
  int compared = 0;
  for (auto _ : state) {
    expanded = length = reached = worst = mean = 0.0;
    compared = 0;
    for (std::size_t k = 0; k < w.pairs.size(); ++k) {
      const HierarchicalPath found =
          find_path_by_tiles(w.graph, w.tiles, w.graph.index_of(w.pairs[k].first),
                             w.graph.index_of(w.pairs[k].second), 1, path);
      expanded += static_cast<double>(found.expanded);
      reached += found.complete ? 1 : 0;
      state.PauseTiming();
      const float ours =
          straight_length(*query, w.points[k].first, w.points[k].second, path, found.count);
      length += ours;
      if (w.flat_length[k] > 0.0f) {
        const double longer = ours / w.flat_length[k] - 1.0;
        worst = std::max(worst, longer);
        mean += longer;
        ++compared;
      }
      state.ResumeTiming();
    }
  }
  report(state, w, expanded, length, reached);
  // Against the flat A*'s paths where it reached the goal: how much longer, in percent.
  state.counters["longer_worst_pct"] = 100.0 * worst;
  state.counters["longer_mean_pct"] = compared > 0 ? 100.0 * mean / compared : 0.0;
}

BENCHMARK(BM_PathSearchFlat)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PathSearchHierarchical)
    ->Arg(1000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
} // namespace crowd::bench

// host/paths/corridor_navigator.cpp: what the navmesh tables cannot answer for, the navigator
// answers with Detour, and the agents end the phase exactly as if the tables had answered.
// The sample scenes rarely take these paths (no off-mesh connections, few partial tile-border
// links), so here the executor is given tables stripped of one part, which makes it flag
// nearly every agent, and the navigator's answers are compared with the full tables' results.
#include "cuda/kernels/corridor_following.h"
#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/corridor_navigator.h"
#include "tests/support/pillar_field.h"
#include "tests/support/pillar_field_walkers.h"
#include "tests/support/random_strides.h"

#include <cstring>
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <vector>

namespace crowd {
namespace {

constexpr float kRangeFactor = 30.0f; // SolverOptions' path_optimization_range_factor

template <class T> bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

class NavigatorAnswers : public ::testing::TestWithParam<int> {
protected:
  NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(GetParam()));
  SolverOptions options;
  tbb::task_arena arena{2};
  AgentArrays arrays;
  std::unique_ptr<CorridorNavigator> navigator;

  // 200 agents with goals across the field, planned until every path has come.
  void SetUp() override {
    options.path_optimization_range_factor = kRangeFactor;
    navigator = std::make_unique<CorridorNavigator>(navmesh, options, arena, arrays);
    test::add_pillar_field_walkers(navmesh, *navigator, arrays, 200, 5);
    const std::unique_ptr<Executor> executor = make_cpu_executor(2);
    executor->set_navmesh_tables(navigator->tables());
    StageTimes times;
    for (int step = 0; step < 50 && navigator->pending_path_requests() > 0; ++step) {
      executor->check_corridors(arrays);
      navigator->plan(0.1f, times);
    }
    ASSERT_EQ(navigator->pending_path_requests(), 0u);
  }

  // The follow phase on `tables`, then the navigator's answers; returns how many were asked.
  std::size_t follow_with(const NavmeshTablesView& tables) {
    const std::unique_ptr<Executor> executor = make_cpu_executor(2);
    executor->set_navmesh_tables(tables);
    executor->follow_corridors(arrays, kRangeFactor);
    const std::size_t asked = arrays.corridors.asked.size();
    navigator->answer_following();
    return asked;
  }

  std::size_t move_with(const NavmeshTablesView& tables, NavmeshCorrections& corrections) {
    const std::unique_ptr<Executor> executor = make_cpu_executor(2);
    executor->set_navmesh_tables(tables);
    corrections = executor->move_corridors(arrays);
    const std::size_t asked = arrays.corridors.asked.size();
    navigator->answer_moves(corrections);
    return asked;
  }

  void expect_same_following(const AgentArrays& expected) const {
    const CorridorArrays &got = arrays.corridors, &want = expected.corridors;
    EXPECT_TRUE(same_bytes(arrays.preferred_velocity, expected.preferred_velocity));
    EXPECT_TRUE(same_bytes(got.size, want.size));
    EXPECT_TRUE(same_bytes(got.polys, want.polys));
    EXPECT_TRUE(same_bytes(got.corner_count, want.corner_count));
    for (int i = 0; i < arrays.count(); ++i) {
      const std::size_t at = static_cast<std::size_t>(i * got.corner_capacity);
      const std::size_t n = static_cast<std::size_t>(got.corner_count[static_cast<std::size_t>(i)]);
      EXPECT_EQ(std::memcmp(&got.corner_verts[at], &want.corner_verts[at], n * sizeof(glm::vec3)),
                0)
          << "agent " << i;
      EXPECT_EQ(std::memcmp(&got.corner_flags[at], &want.corner_flags[at], n), 0) << "agent " << i;
    }
    for (int i = 0; i < arrays.count(); ++i)
      EXPECT_EQ(got.state[static_cast<std::size_t>(i)] & kCorridorAskBits, 0) << "agent " << i;
  }
};

TEST_P(NavigatorAnswers, CornersAndShortcutsTheTablesCannotFindComeFromDetour) {
  const AgentArrays planned = arrays;
  ASSERT_EQ(follow_with(navigator->tables()), 0u) << "the full tables answer for every agent";
  const AgentArrays answered_by_tables = arrays;

  // Without portals the funnel cannot pass any corridor of more than one polygon.
  NavmeshTablesView no_portals = navigator->tables();
  const std::vector<std::int32_t> no_portal(static_cast<std::size_t>(no_portals.polygon_count) + 1,
                                            0);
  no_portals.portal_start = no_portal.data();
  arrays = planned;
  EXPECT_GT(follow_with(no_portals), 100u);
  expect_same_following(answered_by_tables);

  // With every edge a partial tile-border link the shortcut's raycast must ask at the first edge.
  NavmeshTablesView every_edge_asks = navigator->tables();
  const std::vector<std::int32_t> ask(
      static_cast<std::size_t>(every_edge_asks.vertex_start[every_edge_asks.polygon_count]),
      kEdgeAskDetour);
  every_edge_asks.across = ask.data();
  arrays = planned;
  EXPECT_GT(follow_with(every_edge_asks), 50u);
  expect_same_following(answered_by_tables);
}

TEST_P(NavigatorAnswers, MovesTheTablesCannotMakeComeFromDetour) {
  ASSERT_EQ(follow_with(navigator->tables()), 0u);
  // Every agent wants to go up to 1.5 m in some direction: into pillars, across polygons.
  test::random_strides(arrays.position, 9, 1.5f);
  const AgentArrays wanted = arrays;
  NavmeshCorrections by_tables;
  ASSERT_EQ(move_with(navigator->tables(), by_tables), 0u);
  const AgentArrays moved_by_tables = arrays;

  // No polygon flat: the tables cannot give the height after any move.
  NavmeshTablesView none_flat = navigator->tables();
  const std::vector<std::uint8_t> not_flat(static_cast<std::size_t>(none_flat.polygon_count), 0);
  none_flat.flat = not_flat.data();
  arrays = wanted;
  NavmeshCorrections by_detour;
  EXPECT_EQ(move_with(none_flat, by_detour), static_cast<std::size_t>(arrays.count()));
  EXPECT_TRUE(same_bytes(arrays.position, moved_by_tables.position));
  EXPECT_TRUE(same_bytes(arrays.corridors.position, moved_by_tables.corridors.position));
  EXPECT_TRUE(same_bytes(arrays.corridors.size, moved_by_tables.corridors.size));
  EXPECT_TRUE(same_bytes(arrays.corridors.polys, moved_by_tables.corridors.polys));
  EXPECT_TRUE(same_bytes(arrays.corridors.target, moved_by_tables.corridors.target));
  EXPECT_EQ(by_detour.count, by_tables.count);
  EXPECT_EQ(by_detour.max_distance, by_tables.max_distance);
  EXPECT_GT(by_tables.count, 0) << "some agents wanted to walk into pillars";
}

// Where the rows live in device memory, every row the navigator fetches crosses the bus. While
// a crowd is planned, its queue holds most agents and each of their corridors is still one
// polygon (a path near its end, to the look-ahead): the navigator reads their start polygons
// (4 bytes each) and fetches the rows of the agents it serves, not of every queued one.
TEST(NavigatorFetches, APlanningBurstReadsTheQueuesStartPolygonsAndTheServedAgentsRows) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(0));
  SolverOptions options;
  options.path_requests_per_step = 4;
  options.path_share_queue_length = 1000; // every agent by A*, 4 per step
  tbb::task_arena arena{2};
  AgentArrays arrays;
  std::vector<std::int32_t> rows_fetched, starts_read;
  CorridorNavigator navigator(
      navmesh, options, arena, arrays,
      [&](std::span<const std::int32_t> which) {
        rows_fetched.insert(rows_fetched.end(), which.begin(), which.end());
      },
      [&](std::span<const std::int32_t> which, std::span<std::int32_t> first) {
        starts_read.insert(starts_read.end(), which.begin(), which.end());
        for (std::size_t j = 0; j < which.size(); ++j)
          first[j] = arrays.corridors.first_polygon(which[j]);
      });
  test::add_pillar_field_walkers(navmesh, navigator, arrays, 100, 9);
  const std::unique_ptr<Executor> executor = make_cpu_executor(2);
  executor->set_navmesh_tables(navigator.tables());
  StageTimes times;
  for (int step = 0; step < 3; ++step) {
    rows_fetched.clear();
    starts_read.clear();
    const std::size_t queued = navigator.pending_path_requests();
    executor->check_corridors(arrays);
    navigator.plan(0.1f, times);
    EXPECT_EQ(starts_read.size(), queued) << "step " << step;
    // The 4 served (no topology optimisation is due in the first 0.5 s).
    EXPECT_EQ(rows_fetched.size(), 4u) << "step " << step;
    EXPECT_EQ(navigator.pending_path_requests(), queued - 4) << "step " << step;
  }
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, NavigatorAnswers, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& tile_size) {
                           return tile_size.param == 0 ? std::string("one_tile")
                                                       : std::string("tiles_of_32");
                         });

} // namespace
} // namespace crowd

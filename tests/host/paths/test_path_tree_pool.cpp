// The navigator's cache of path trees (host/paths/path_tree_pool.h), held once as the arrays the
// corridor bodies read: a tree reads the same from the pool as it was built, however many trees
// came and went before it, and the room of the trees dropped is reclaimed.
#include "host/navmesh/navmesh.h"
#include "host/paths/path_tree.h"
#include "host/paths/path_tree_pool.h"
#include "tests/support/pillar_field.h"

#include <DetourNavMesh.h>
#include <algorithm>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

namespace crowd {
namespace {

struct PillarTrees {
  Scenario scenario = test::pillar_field();
  NavMesh navmesh = NavMesh::build(scenario);
  PolygonGraph graph{navmesh.detour(), navmesh.filter()};
  std::vector<PathTree> trees; ///< toward polygon g, for every polygon g

  PillarTrees() {
    trees.resize(static_cast<std::size_t>(graph.size()));
    for (int g = 0; g < graph.size(); ++g)
      graph.build_tree(g, trees[static_cast<std::size_t>(g)]);
  }

  /// Whether the pool's tree toward `goal` answers every polygon as the tree built, and gives
  /// every path the tree gives.
  ::testing::AssertionResult reads_as_built(const PathTreePool& pool, int goal) const {
    const PathTree& tree = trees[static_cast<std::size_t>(goal)];
    const int t = pool.view().tree_of(goal);
    if (t < 0)
      return ::testing::AssertionFailure() << "no tree toward " << goal;
    std::vector<dtPolyRef> built(64), pooled(64);
    for (int p = 0; p < graph.size(); ++p) {
      if (pool.view().next_of(t, p) != tree.next_of(p))
        return ::testing::AssertionFailure() << "toward " << goal << ", after polygon " << p;
      bool built_complete = false, pooled_complete = false;
      const int n = graph.extract_path(tree, p, built, built_complete);
      if (graph.extract_path(pool.view(), t, p, pooled, pooled_complete) != n ||
          pooled_complete != built_complete ||
          !std::equal(built.begin(), built.begin() + n, pooled.begin()))
        return ::testing::AssertionFailure() << "toward " << goal << ", the path from " << p;
    }
    return ::testing::AssertionSuccess();
  }
};

TEST(PathTreePool, EveryTreeReadsAsBuiltWhileOthersComeAndGo) {
  const PillarTrees f;
  ASSERT_GT(f.graph.size(), 20);
  PathTreePool pool(f.graph.size());
  std::vector<int> held;
  // Rounds that add a few trees and drop the oldest, as the cache does: the freed room is
  // reclaimed (the trees moved) several times along the way.
  for (int round = 0; round < 12; ++round) {
    for (int k = 0; k < 6; ++k) {
      const int goal = (round * 7 + k * 3) % f.graph.size();
      if (pool.holds(goal))
        continue;
      pool.add(goal, f.trees[static_cast<std::size_t>(goal)]);
      held.push_back(goal);
    }
    while (held.size() > 8) {
      pool.remove(held.front());
      EXPECT_LT(pool.view().tree_of(held.front()), 0);
      held.erase(held.begin());
    }
    for (const int goal : held)
      EXPECT_TRUE(f.reads_as_built(pool, goal)) << "round " << round;
  }
  for (int g = 0; g < f.graph.size(); ++g)
    EXPECT_EQ(pool.holds(g), std::find(held.begin(), held.end(), g) != held.end()) << g;
}

TEST(PathTreePool, ReclaimsTheRoomOfDroppedTreesAsTheyComeAndGo) {
  const PillarTrees f;
  PathTreePool pool(f.graph.size());
  std::size_t largest_tree = 0, most_live = 0;
  for (const PathTree& tree : f.trees)
    largest_tree = std::max(largest_tree, tree.size());
  // Every tree in turn, ten at a time, many times over: as many trees pass through the pool as
  // a long run's cache sees, while it never holds more than ten.
  std::vector<int> held;
  for (int turn = 0; turn < 40 * f.graph.size(); ++turn) {
    const int goal = turn % f.graph.size();
    if (held.size() == 10) {
      pool.remove(held.front());
      held.erase(held.begin());
      EXPECT_LE(4 * pool.freed_entries(), pool.live_entries());
    }
    pool.add(goal, f.trees[static_cast<std::size_t>(goal)]);
    held.push_back(goal);
    most_live = std::max(most_live, pool.live_entries());
  }
  // Its arrays stay within a small multiple of the most it held at once, not of all it saw:
  // two int32 columns of polygons (a quarter more freed at most, an eighth more room and a page
  // or so), the tree index, and the slots (three columns, up to twice the trees held and 64).
  const std::size_t polygons = static_cast<std::size_t>(f.graph.size());
  const std::size_t bound =
      sizeof(std::int32_t) *
      (polygons + 2 * ((most_live + largest_tree) * 3 / 2 + 1024) + 3 * 2 * (2 * 10 + 64));
  EXPECT_LE(pool.memory_bytes(), bound);
  for (const int goal : held)
    EXPECT_TRUE(f.reads_as_built(pool, goal));
}

// The navigator drops the trees a step's new ones leave no room for before it adds them: the
// new trees then take the dropped ones' room, and the pool's arrays do not grow past what the
// most trees it held at once needed.
TEST(PathTreePool, NewTreesTakeTheRoomOfDroppedOnesBeforeTheArraysGrow) {
  const PillarTrees f;
  const std::size_t size = f.trees[0].size();
  for (const PathTree& tree : f.trees)
    ASSERT_EQ(tree.size(), size) << "the pillar field is one walkable area";
  PathTreePool pool(f.graph.size());
  std::vector<int> held;
  for (int goal = 0; goal < 10; ++goal) {
    pool.add(goal, f.trees[static_cast<std::size_t>(goal)]);
    held.push_back(goal);
  }
  const std::size_t full = pool.memory_bytes();
  for (int turn = 10; turn < 10 + 6 * f.graph.size(); ++turn) {
    const int goal = turn % f.graph.size();
    pool.remove(held.front());
    held.erase(held.begin());
    pool.add(goal, f.trees[static_cast<std::size_t>(goal)]);
    held.push_back(goal);
    ASSERT_EQ(pool.memory_bytes(), full) << "turn " << turn;
  }
  for (const int goal : held)
    EXPECT_TRUE(f.reads_as_built(pool, goal));
}

TEST(PathTreePool, CountsEveryChangeAndRefusesATreeItHoldsOrLacks) {
  const PillarTrees f;
  PathTreePool pool(f.graph.size());
  const std::uint64_t empty = pool.version();
  pool.add(3, f.trees[3]);
  EXPECT_GT(pool.version(), empty);
  const std::uint64_t one = pool.version();
  EXPECT_THROW(pool.add(3, f.trees[3]), std::logic_error);
  EXPECT_THROW(pool.add(f.graph.size(), f.trees[3]), std::logic_error);
  EXPECT_THROW(pool.remove(4), std::logic_error);
  EXPECT_EQ(pool.version(), one);
  pool.remove(3);
  EXPECT_GT(pool.version(), one);
  EXPECT_FALSE(pool.holds(3));
  pool.clear(f.graph.size());
  EXPECT_EQ(pool.live_entries(), 0u);
  EXPECT_EQ(pool.freed_entries(), 0u);
}

} // namespace
} // namespace crowd

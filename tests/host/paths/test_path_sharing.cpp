// Shared paths (host/paths/path_tree.h): one tree per goal polygon serves every agent heading
// there, within the per-step search budget, and agrees with Detour's own A*.
#include "cuda/core/executor.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/path_tree.h"
#include "host/sim/crowd_solver.h"
#include "tests/support/pillar_field.h"

#include <DetourNavMeshQuery.h>
#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <span>
#include <stdexcept>
#include <vector>

namespace crowd {
namespace {

using test::pillar_field;

AgentSetup agent_at(glm::vec3 position, glm::vec3 goal) {
  AgentSetup a;
  a.position = position;
  a.goal = goal;
  a.json_path = "test";
  return a;
}

// Sharing on from the first waiting agent (by default only long queues share).
SolverOptions sharing() {
  SolverOptions o;
  o.path_share_queue_length = 0;
  return o;
}

struct Fixture {
  Scenario scenario = pillar_field();
  NavMesh navmesh = NavMesh::build(scenario);
  CrowdSolver solver;
  explicit Fixture(const SolverOptions& options = sharing())
      : solver(navmesh, options, make_cpu_executor(options.threads)) {}
};

/// The polygon Detour places `point` on (0 for none), and where on it (`on_it`, 3 floats).
dtPolyRef nearest_polygon(const NavMesh& navmesh, const dtNavMeshQuery& query, glm::vec3 point,
                          float* on_it) {
  const glm::vec3 ext = navmesh.placement_extents();
  dtPolyRef ref = 0;
  query.findNearestPoly(&point.x, &ext.x, &navmesh.filter(), &ref, on_it);
  return ref;
}

float corridor_length(const NavMesh& navmesh, std::span<const dtPolyRef> path, glm::vec3 from,
                      glm::vec3 to) {
  NavQueryPtr q = navmesh.make_query();
  std::vector<float> pts(3 * 256);
  int n = 0;
  q->findStraightPath(&from.x, &to.x, path.data(), static_cast<int>(path.size()), pts.data(),
                      nullptr, nullptr, &n, 256);
  float length = 0.0f;
  for (int k = 1; k < n; ++k) {
    const glm::vec3 a{pts[3 * (k - 1)], pts[3 * (k - 1) + 1], pts[3 * (k - 1) + 2]};
    const glm::vec3 b{pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]};
    length += glm::distance(a, b);
  }
  return length;
}

TEST(PathSharing, TwoAgentsWithTheSameStartAndGoalPolygonsShareOneSearch) {
  Fixture f;
  f.solver.add_agent(agent_at({0.0f, 0.0f, 0.0f}, {27.0f, 0.0f, 27.0f}));
  f.solver.add_agent(agent_at({0.4f, 0.0f, 0.0f}, {27.2f, 0.0f, 27.0f}));
  f.solver.step(0.1f);
  const CorridorNavigator& nav = f.solver.navigator();
  ASSERT_EQ(nav.target_state(0), TargetState::Valid);
  ASSERT_EQ(nav.target_state(1), TargetState::Valid);
  ASSERT_EQ(nav.corridor(0)[0], nav.corridor(1)[0]) << "the test wants one start polygon";
  EXPECT_EQ(nav.path_searches(), 1u);
  const auto a = nav.corridor(0), b = nav.corridor(1);
  EXPECT_GT(a.size(), 3u);
  EXPECT_EQ(a.back(), b.back()) << "the test wants one goal polygon";
  // Both follow the one tree's path from their polygon, its start mended for where each one
  // stands (the topology optimisation in follow_tree), so the two corridors may leave the
  // start polygon by different portals; as long as each other within the tolerance the tree
  // keeps against A* (TreePathsAreConnectedAndAsShortAsDetoursAStar).
  const float la = corridor_length(f.navmesh, a, {0.0f, 0.0f, 0.0f}, {27.0f, 0.0f, 27.0f});
  const float lb = corridor_length(f.navmesh, b, {0.4f, 0.0f, 0.0f}, {27.2f, 0.0f, 27.0f});
  EXPECT_LE(la, lb * 1.1f + 0.5f);
  EXPECT_LE(lb, la * 1.1f + 0.5f);
}

TEST(PathSharing, AgentsAnywhereHeadingIntoOnePolygonShareOneTree) {
  Fixture f;
  for (int k = 0; k < 40; ++k) {
    const float x = -27.0f + static_cast<float>(k % 8) * 3.0f;
    const float z = -27.0f + static_cast<float>(k / 8) * 2.5f;
    f.solver.add_agent(agent_at({x, 0.0f, z}, {27.0f, 0.0f, 27.0f}));
  }
  f.solver.step(0.1f);
  EXPECT_EQ(f.solver.navigator().path_searches(), 1u);
  EXPECT_EQ(f.solver.navigator().pending_path_requests(), 0u);
  for (int k = 0; k < 40; ++k)
    EXPECT_EQ(f.solver.navigator().target_state(k), TargetState::Valid) << k;
}

TEST(PathSharing, TreePathsAreConnectedAndAsShortAsDetoursAStar) {
  Fixture f;
  NavQueryPtr q = f.navmesh.make_query(8192);
  PolygonGraph graph(f.navmesh.detour(), f.navmesh.filter());
  const glm::vec3 ext = f.navmesh.placement_extents();
  const glm::vec3 goal{26.0f, 0.0f, 24.0f};
  float goal_pos[3];
  const dtPolyRef goal_ref = nearest_polygon(f.navmesh, *q, goal, goal_pos);
  ASSERT_NE(goal_ref, 0u);
  PathTree tree;
  graph.build_tree(graph.index_of(goal_ref), tree);
  int checked = 0;
  for (float x = -28.0f; x <= 28.0f; x += 7.0f) {
    for (float z = -28.0f; z <= 28.0f; z += 7.0f) {
      const glm::vec3 start{x, 0.0f, z};
      dtPolyRef start_ref = 0;
      float start_pos[3];
      q->findNearestPoly(&start.x, &ext.x, &f.navmesh.filter(), &start_ref, start_pos);
      if (!start_ref)
        continue;
      std::vector<dtPolyRef> path(256), astar(256);
      bool complete = false;
      const int n = graph.extract_path(tree, graph.index_of(start_ref), path, complete);
      ASSERT_GT(n, 0);
      ASSERT_TRUE(complete);
      path.resize(static_cast<std::size_t>(n));
      EXPECT_EQ(path.front(), start_ref);
      EXPECT_EQ(path.back(), goal_ref);
      for (std::size_t k = 1; k < path.size(); ++k) {
        float l[3], r[3];
        unsigned char t1 = 0, t2 = 0;
        // Consecutive polygons share a portal (getPortalPoints via findStraightPath works).
        const dtMeshTile* tile = nullptr;
        const dtPoly* poly = nullptr;
        f.navmesh.detour().getTileAndPolyByRefUnsafe(path[k - 1], &tile, &poly);
        bool linked = false;
        for (unsigned int i = poly->firstLink; i != DT_NULL_LINK; i = tile->links[i].next)
          linked = linked || tile->links[i].ref == path[k];
        EXPECT_TRUE(linked) << "polygons " << k - 1 << " and " << k << " are not neighbours";
        (void)l, (void)r, (void)t1, (void)t2;
      }
      int m = 0;
      q->findPath(start_ref, goal_ref, start_pos, goal_pos, &f.navmesh.filter(), astar.data(), &m,
                  256);
      astar.resize(static_cast<std::size_t>(m));
      const glm::vec3 s{start_pos[0], start_pos[1], start_pos[2]};
      const glm::vec3 g{goal_pos[0], goal_pos[1], goal_pos[2]};
      const float tree_length = corridor_length(f.navmesh, path, s, g);
      const float astar_length = corridor_length(f.navmesh, astar, s, g);
      EXPECT_LE(tree_length, astar_length * 1.1f + 0.5f) << "from (" << x << ", " << z << ")";
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

TEST(PathSharing, ATreeSentAsBytesComesBackTheSameWithTheSameMemoryFigure) {
  // An MPI run's ranks build their share of a step's trees and send them to the others
  // (host/distributed): a received tree must give every path and the cache's eviction figure
  // (memory_bytes) of the one built here.
  Fixture f;
  NavQueryPtr q = f.navmesh.make_query(8192);
  PolygonGraph graph(f.navmesh.detour(), f.navmesh.filter());
  float goal_pos[3];
  const dtPolyRef goal_ref = nearest_polygon(f.navmesh, *q, {26.0f, 0.0f, 24.0f}, goal_pos);
  ASSERT_NE(goal_ref, 0u);
  PathTree built;
  graph.build_tree(graph.index_of(goal_ref), built);
  ASSERT_GT(built.size(), 10u);
  const std::vector<std::byte> bytes = path_tree_bytes(built);
  const PathTree received = path_tree_from_bytes(bytes);
  EXPECT_EQ(received.goal, built.goal);
  EXPECT_EQ(received.polygons, built.polygons);
  EXPECT_EQ(received.next, built.next);
  EXPECT_EQ(received.memory_bytes(), built.memory_bytes());
  // What travels between ranks: the rows' differences, well under their 8 bytes a polygon.
  EXPECT_LT(bytes.size(), 12 + 4 * built.size());
  EXPECT_THROW(path_tree_from_bytes(std::span(bytes).first(bytes.size() - 1)),
               std::invalid_argument);
  EXPECT_THROW(path_tree_from_bytes(std::span(bytes).first(bytes.size() - 4)),
               std::invalid_argument);
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{1});
  EXPECT_THROW(path_tree_from_bytes(longer), std::invalid_argument);
  EXPECT_THROW(path_tree_from_bytes(std::span(bytes).first(8)), std::invalid_argument);
}

TEST(PathSharing, BudgetServesAManyAgentCrowdWithinAFewSteps) {
  SolverOptions options = sharing();
  options.path_requests_per_step = 4;
  Fixture f(options);
  // 400 agents toward 8 goal points: at most 8 searches (trees), so 2 steps at 4 per step.
  std::set<dtPolyRef> goal_polys;
  for (int k = 0; k < 400; ++k) {
    const float x = -27.0f + static_cast<float>(k % 20) * 2.7f;
    const float z = -27.0f + static_cast<float>(k / 20) * 2.7f;
    const float gx = -24.0f + static_cast<float>(k % 8) * 7.0f;
    f.solver.add_agent(agent_at({x, 0.0f, z}, {gx, 0.0f, k % 2 ? 27.5f : -27.5f}));
  }
  f.solver.step(0.1f);
  EXPECT_EQ(f.solver.navigator().path_searches(), 4u);
  EXPECT_GT(f.solver.navigator().pending_path_requests(), 0u);
  f.solver.step(0.1f);
  f.solver.step(0.1f);
  f.solver.step(0.1f);
  EXPECT_EQ(f.solver.navigator().pending_path_requests(), 0u);
  EXPECT_LE(f.solver.navigator().path_searches(), 16u);
  for (int k = 0; k < 400; ++k)
    EXPECT_EQ(f.solver.navigator().target_state(k), TargetState::Valid) << k;
}

TEST(PathSharing, EvictingCachedTreesChangesNoPath) {
  SolverOptions small = sharing();
  small.path_tree_cache_bytes = 0; // every tree is dropped once its step is over
  Fixture a(small), b;
  const auto goal = [](int k, float z) {
    return glm::vec3{static_cast<float>(k % 5) * 11.0f - 22.0f, 0.0f, z};
  };
  for (int k = 0; k < 60; ++k) {
    const glm::vec3 p{-27.0f + static_cast<float>(k % 10) * 5.5f, 0.0f,
                      -20.0f + static_cast<float>(k / 10) * 6.0f};
    a.solver.add_agent(agent_at(p, goal(k, 27.0f)));
    b.solver.add_agent(agent_at(p, goal(k, 27.0f)));
  }
  for (int s = 0; s < 60; ++s) {
    if (s == 20 || s == 40) {
      // Away and back: the second time b has the trees cached, a builds them again.
      for (int k = 0; k < 60; ++k) {
        a.solver.set_goal(k, goal(k, s == 20 ? -27.0f : 27.0f));
        b.solver.set_goal(k, goal(k, s == 20 ? -27.0f : 27.0f));
      }
    }
    a.solver.step(0.1f);
    b.solver.step(0.1f);
  }
  EXPECT_GT(a.solver.navigator().path_searches(), b.solver.navigator().path_searches());
  ASSERT_EQ(a.solver.positions().size(), b.solver.positions().size());
  EXPECT_EQ(std::memcmp(a.solver.positions().data(), b.solver.positions().data(),
                        a.solver.positions().size_bytes()),
            0);
}

TEST(PathSharing, ShortQueuesGetOneAStarSearchPerAgent) {
  Fixture f(SolverOptions{});
  f.solver.add_agent(agent_at({0.0f, 0.0f, 0.0f}, {27.0f, 0.0f, 27.0f}));
  f.solver.add_agent(agent_at({0.4f, 0.0f, 0.0f}, {27.2f, 0.0f, 27.0f}));
  f.solver.step(0.1f);
  EXPECT_EQ(f.solver.navigator().path_searches(), 2u);
  EXPECT_EQ(f.solver.navigator().target_state(1), TargetState::Valid);
}

} // namespace
} // namespace crowd

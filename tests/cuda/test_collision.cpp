// cuda/kernels/collision.h: contact shares, wall contacts, and the Jacobi passes on packed crowds.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/solver_options.h"
#include "cuda/kernels/collision.h"
#include "tests/support/crowd_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

namespace crowd {
namespace {

using test::Rng;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

/// Our defaults, as CrowdSolver passes them to the kernels.
CollisionParams solver_defaults() {
  const SolverOptions o;
  CollisionParams p;
  p.relaxation = o.collision_resolve_factor;
  p.walls = o.collision_walls;
  p.yield = o.collision_yield;
  return p;
}

/// DetourCrowd's collision handling (COLLISION_RESOLVE_FACTOR 0.7, halves, no walls).
CollisionParams detour_params() {
  return CollisionParams{};
}

/// Agents with their K nearest neighbours found by brute force (the proximity stage's answer)
/// and the given wall segments listed for every agent.
struct Cluster {
  AgentArrays agents = test::make_agent_arrays(6, 8);
  std::vector<glm::vec4> walls; // (p.x, p.z, q.x, q.z), inner side on the left of p->q

  void add(glm::vec2 p, float r, glm::vec2 preferred = glm::vec2(0.0f)) {
    const int i = agents.append({p.x, 0.0f, p.y}, r, 2.0f, 8.0f, 12.0f * r, 0.0f, 0);
    agents.mode[at(i)] = kAgentMoving;
    agents.preferred_velocity[at(i)] = preferred;
    agents.desired_velocity[at(i)] = preferred;
  }

  void find_neighbors() {
    const int n = agents.count();
    const int k_max = agents.max_neighbors;
    for (int i = 0; i < n; ++i) {
      std::vector<int> others;
      for (int j = 0; j < n; ++j)
        if (j != i)
          others.push_back(j);
      const auto d_sq = [&](int j) { return test::ground_distance_sq(pos(i), pos(j)); };
      std::sort(others.begin(), others.end(), [&](int a, int b) { return d_sq(a) < d_sq(b); });
      const int k = std::min(k_max, static_cast<int>(others.size()));
      for (int m = 0; m < k; ++m)
        agents.neighbor_index[at(i * k_max + m)] = others[at(m)];
      agents.neighbor_count[at(i)] = k;
      const int s = std::min(agents.max_segments, static_cast<int>(walls.size()));
      for (int m = 0; m < s; ++m)
        agents.segment[at(i * agents.max_segments + m)] = walls[at(m)];
      agents.segment_count[at(i)] = s;
    }
  }

  /// One step's collision stage: neighbours, then `passes` Jacobi passes.
  void resolve(const CollisionParams& params, int passes) {
    find_neighbors();
    AgentView v = agents.view();
    for (int pass = 0; pass < passes; ++pass) {
      for (int i = 0; i < v.count; ++i)
        collision_displacement(i, v, params);
      for (int i = 0; i < v.count; ++i)
        apply_displacement(i, v);
    }
  }

  glm::vec3 pos(int i) const { return agents.position[at(i)]; }

  /// Deepest interpenetration over all pairs, as a fraction of the pair's radius sum.
  float max_overlap_fraction() const {
    float worst = 0.0f;
    for (int i = 0; i < agents.count(); ++i)
      for (int j = i + 1; j < agents.count(); ++j) {
        const float reach = agents.radius[at(i)] + agents.radius[at(j)];
        const float d = std::sqrt(test::ground_distance_sq(pos(i), pos(j)));
        worst = std::max(worst, (reach - d) / reach);
      }
    return worst;
  }
};

/// 50 agents of radius 0.4 dropped at random into a disc of radius 3.2 m: their discs cover
/// about 80% of it, so nearly every agent overlaps several others.
Cluster packed_cluster(std::uint32_t seed) {
  Rng rng(seed);
  Cluster c;
  for (int i = 0; i < 50; ++i)
    c.add(rng.in_disc(3.2f), 0.4f);
  return c;
}

// --- contact_share ---------------------------------------------------------------------------

TEST(Collision, ContactSharesAreHalvesWithoutYield) {
  Cluster c;
  c.add({0.0f, 0.0f}, 0.4f, {1.0f, 0.0f});
  c.add({0.5f, 0.0f}, 0.4f, {1.0f, 0.0f});
  const AgentView v = c.agents.view();
  EXPECT_EQ(contact_share(0, 1, {-0.5f, 0.0f}, 0.5f, v, 0.0f), 0.5f);
}

TEST(Collision, TheAgentWalkingIntoAnotherTakesTheLargerShareAndSharesSumToOne) {
  Cluster c;
  c.add({0.0f, 0.0f}, 0.4f, {1.2f, 0.0f}); // follows agent 1
  c.add({0.5f, 0.0f}, 0.4f, {1.2f, 0.0f});
  c.add({1.0f, 0.0f}, 0.4f, {-1.2f, 0.0f}); // meets agent 1 head-on
  const AgentView v = c.agents.view();
  const float follower = contact_share(0, 1, {-0.5f, 0.0f}, 0.5f, v, 0.5f);
  const float leader = contact_share(1, 0, {0.5f, 0.0f}, 0.5f, v, 0.5f);
  EXPECT_FLOAT_EQ(follower, 0.75f);
  EXPECT_FLOAT_EQ(follower + leader, 1.0f);
  // Head-on, both walk into each other: halves.
  EXPECT_FLOAT_EQ(contact_share(1, 2, {-0.5f, 0.0f}, 0.5f, v, 0.5f), 0.5f);
}

// --- wall_correction -------------------------------------------------------------------------

TEST(Collision, WallCorrectionMovesACentreBehindAnEdgeBackOntoIt) {
  // Edge along +x: the inner (walkable) side is +z... left of p->q seen from above is the side
  // where tri_area_2d(pt, p, q) >= 0.
  const glm::vec2 a{-2.0f, 0.0f}, b{2.0f, 0.0f};
  const float inner = tri_area_2d({0.0f, 1.0f}, a, b) >= 0.0f ? 1.0f : -1.0f;
  EXPECT_EQ(wall_correction({0.5f, inner * 0.3f}, a, b), glm::vec2(0.0f));
  const glm::vec2 c = wall_correction({0.5f, -inner * 0.2f}, a, b);
  EXPECT_FLOAT_EQ(c.x, 0.0f);
  EXPECT_NEAR(c.y, inner * 0.2f, 1e-6f);
  // Beyond the endpoints the neighbouring edge owns the point.
  EXPECT_EQ(wall_correction({2.5f, -inner * 0.2f}, a, b), glm::vec2(0.0f));
}

TEST(Collision, WallContactsKeepACrowdPressedOnAWallOnItsInnerSide) {
  // A wall along z = 0 with the walkable side at z > 0, and 20 agents (half the strip covered)
  // walking into it, several already slightly behind it. Wall contacts are averaged with agent
  // contacts (soft), so a centre may stay a little behind the edge within a step, never by 5% of
  // its radius once the first steps have pulled back the ones placed behind it; without wall
  // contacts the crowd spreads through it.
  Rng rng(3);
  Cluster c;
  glm::vec4 wall{-10.0f, 0.0f, 10.0f, 0.0f};
  if (tri_area_2d({0.0f, 1.0f}, {wall.x, wall.y}, {wall.z, wall.w}) < 0.0f)
    wall = {wall.z, wall.w, wall.x, wall.y};
  c.walls.push_back(wall);
  for (int i = 0; i < 20; ++i)
    c.add({rng.uniform(-3.0f, 3.0f), rng.uniform(-0.05f, 2.5f)}, 0.35f, {0.0f, -1.0f});
  for (int step = 0; step < 10; ++step) {
    c.resolve(solver_defaults(), 8);
    for (int i = 0; i < c.agents.count() && step >= 2; ++i)
      ASSERT_GE(c.pos(i).z, -0.05f * 0.35f) << "agent " << i << " behind the wall, step " << step;
  }
  Cluster no_walls = c;
  CollisionParams params = solver_defaults();
  params.walls = false;
  for (int i = 0; i < no_walls.agents.count(); ++i)
    no_walls.agents.position[at(i)].z = std::max(0.0f, no_walls.agents.position[at(i)].z) * 0.2f;
  no_walls.resolve(params, 8);
  float deepest = 0.0f;
  for (int i = 0; i < no_walls.agents.count(); ++i)
    deepest = std::min(deepest, no_walls.pos(i).z);
  EXPECT_LT(deepest, -0.05f * 0.35f) << "the scene does not test the wall contacts";
}

// --- the passes ------------------------------------------------------------------------------

TEST(Collision, APackedClusterOf50AgentsIsSeparatedBelow5PercentWithin30Steps) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    Cluster c = packed_cluster(seed);
    ASSERT_GT(c.max_overlap_fraction(), 0.5f);
    for (int step = 0; step < 30; ++step)
      c.resolve(solver_defaults(), SolverOptions{}.collision_iterations);
    EXPECT_LT(c.max_overlap_fraction(), 0.05f) << "seed " << seed;
  }
}

TEST(Collision, OurDefaultsSeparateAPackedClusterFasterThanDetourCrowds) {
  Cluster ours = packed_cluster(7);
  Cluster detour = packed_cluster(7);
  for (int step = 0; step < 5; ++step) {
    ours.resolve(solver_defaults(), SolverOptions{}.collision_iterations);
    detour.resolve(detour_params(), 4);
  }
  EXPECT_LT(ours.max_overlap_fraction(), 0.5f * detour.max_overlap_fraction());
}

TEST(Collision, APassDoesNotDependOnTheOrderAgentsAreVisitedIn) {
  Cluster forward = packed_cluster(5);
  Cluster backward = packed_cluster(5);
  forward.find_neighbors();
  backward.find_neighbors();
  AgentView f = forward.agents.view();
  AgentView b = backward.agents.view();
  const CollisionParams params = solver_defaults();
  for (int i = 0; i < f.count; ++i)
    collision_displacement(i, f, params);
  for (int i = b.count - 1; i >= 0; --i)
    collision_displacement(i, b, params);
  for (int i = 0; i < f.count; ++i)
    apply_displacement(i, f);
  for (int i = b.count - 1; i >= 0; --i)
    apply_displacement(i, b);
  for (int i = 0; i < f.count; ++i)
    EXPECT_EQ(forward.pos(i), backward.pos(i)) << "agent " << i;
}

} // namespace
} // namespace crowd

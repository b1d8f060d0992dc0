// cuda/kernels/ttc_avoidance.h: time-to-collision sampling (scenario `avoidance: {"model":
// "ttc"}`). The fan is where the parameters put it; a sample's ratio is its time to collision
// over the horizon; smoothing is the documented mean over the sample and its neighbours in its
// ring; the winner is the highest score; stop and wait, then forced passage, happen at the
// documented steps; the proximity stage collects the colliders every N steps. Whole runs under
// every model: test_avoidance_model_runs.cpp.
#include "cuda/kernels/navmesh_geometry.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/ttc_avoidance.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "host/sim/cpu_block.h"
#include "tests/support/avoidance_scene.h"
#include "tests/support/crowd_test_support.h"
#include "tests/support/navmesh_with_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr float kDt = 0.1f;
constexpr float kDegrees = 3.14159265f / 180.0f;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

/// Agent 0 at the origin walking (1.4, 0) on the ttc model; the agents added after it are its
/// colliders (and neighbours), the walls its wall row.
struct Scene : test::AvoidanceScene {
  explicit Scene(TtcAvoidanceParams ttc = {}, int max_neighbors = 4)
      : AvoidanceScene({1.4f, 0.0f}, 2, max_neighbors), scratch(max_neighbors, 2) {
    AvoidanceParams params = avoidance_defaults(kAvoidanceTtc);
    params.ttc = ttc;
    arrays.avoidance_params = {params};
    arrays.preferred_velocity[0] = {1.4f, 0.0f};
  }
  int collider(glm::vec2 position, glm::vec2 velocity) {
    const int j = add(position, velocity);
    arrays.collider_index[at(arrays.ttc_state[0].collider_count)] = j;
    ++arrays.ttc_state[0].collider_count;
    return j;
  }
  const TtcAvoidanceParams& params() const { return arrays.avoidance_params[0].ttc; }

  /// One step of agent 0's avoidance; its ratios and smoothed ratios are left in `scratch`.
  glm::vec2 choose() {
    CpuBlock block;
    AgentView view = arrays.view();
    view.corridors = arrays.corridor_rows(tables);
    choose_velocity(block, 0, view, scratch.view(), StandoffParams{}, kDt);
    return arrays.new_velocity[0];
  }
  /// The context ttc_choose_velocity scores agent 0's samples in (after a choose()).
  TtcContext context() {
    TtcContext ctx;
    ctx.params = &params();
    ctx.desired_velocity = arrays.desired_velocity[0];
    ctx.previous_velocity = arrays.velocity[0];
    ctx.speed = 1.4f;
    ctx.inv_speed = 1.0f / 1.4f;
    ctx.inv_horizon = 1.0f / params().time_horizon;
    ctx.dt = kDt;
    ctx.directions = scratch.view().pattern;
    ctx.wall_time = scratch.view().ttc_wall_time;
    ctx.colliders = scratch.view().ttc_colliders;
    ctx.collider_capacity = ttc_collider_capacity(arrays.max_neighbors);
    ctx.collider_count = ttc_collider_capacity(arrays.ttc_state[0].collider_count);
    ctx.segments = scratch.view().segments;
    ctx.segment_count = arrays.segment_count[0];
    return ctx;
  }
  std::vector<float> ratios() {
    const float* r = scratch.view().ttc_ratio;
    return {r, r + ttc_sample_count(params())};
  }
  std::vector<float> smoothed() {
    const float* r = scratch.view().ttc_smoothed;
    return {r, r + ttc_sample_count(params())};
  }

  CpuAvoidanceScratch scratch;
  NavmeshTablesView tables; ///< Of the navmesh of the corridor rows, where agent 0 has one.
};

float angle_of(glm::vec2 v) {
  return std::atan2(v.y, v.x) / kDegrees;
}

TEST(TtcAvoidance, TheFanSpansItsAngleAroundTheReferenceInEveryRing) {
  TtcAvoidanceParams p;
  p.sample_count = 5;
  p.angle_span = 120.0f;
  Scene scene(p);
  scene.arrays.preferred_velocity[0] = {0.0f, 1.0f}; // the path goes +z: the fan centres there
  scene.choose();
  const TtcContext ctx = scene.context();
  ASSERT_EQ(ttc_sample_count(p), 5 * 2 + 1);
  for (int ring = 0; ring < 2; ++ring) {
    for (int k = 0; k < 5; ++k) {
      const glm::vec2 v = ctx.velocity(ring * 5 + k);
      EXPECT_NEAR(glm::length(v), 1.4f * ttc_ring_speed(ring), 1e-5f);
      EXPECT_NEAR(angle_of(v), 90.0f - 60.0f + 30.0f * static_cast<float>(k), 1e-3f)
          << "ring " << ring << " direction " << k;
    }
  }
  EXPECT_EQ(ctx.velocity(10), glm::vec2(0.0f)); // the zero sample, last
  EXPECT_NEAR(ttc_ring_speed(1), 0.5f, 0.0f);
}

TEST(TtcAvoidance, AFullCircleSpacesItsDirectionsEvenlyAndTheFlagsDropRings) {
  TtcAvoidanceParams p;
  p.sample_count = 8;
  p.angle_span = 360.0f;
  p.enable_slowing_down = 0;
  p.enable_stop = 0;
  Scene scene(p);
  scene.choose();
  const TtcContext ctx = scene.context();
  ASSERT_EQ(ttc_sample_count(p), 8);
  for (int k = 1; k < 8; ++k) {
    const float step = angle_of(ctx.velocity(k)) - angle_of(ctx.velocity(k - 1));
    EXPECT_NEAR(std::remainder(step, 360.0f), 45.0f, 1e-3f) << k;
  }
}

TEST(TtcAvoidance, AloneTheAgentWalksOnAtItsDesiredVelocity) {
  Scene scene;
  const glm::vec2 v = scene.choose();
  EXPECT_NEAR(v.x, 1.4f, 1e-5f);
  EXPECT_NEAR(v.y, 0.0f, 1e-5f);
  for (const float r : scene.ratios())
    EXPECT_EQ(r, 1.0f); // nothing to collide with: every sample is safe
}

TEST(TtcAvoidance, ARatioIsTheTimeToCollisionOverTheHorizon) {
  // A standing collider 3 m ahead: straight ahead at 1.4 m/s touches the enlarged reach
  // (0.4 + 0.4 + 0.05) after (3 - 0.85) / 1.4 s; at half speed after twice that, beyond the
  // 2 s horizon.
  Scene scene;
  scene.collider({3.0f, 0.0f}, {0.0f, 0.0f});
  scene.choose();
  const int n = ttc_direction_count(scene.params());
  const int ahead = n / 2; // odd count: the middle direction is the reference
  const std::vector<float> ratio = scene.ratios();
  EXPECT_NEAR(ratio[at(ahead)], (3.0f - 0.85f) / 1.4f / 2.0f, 1e-5f);
  EXPECT_EQ(ratio[at(n + ahead)], 1.0f);
  EXPECT_EQ(ratio.back(), 1.0f); // standing still collides with nothing
}

TEST(TtcAvoidance, EachSampleMeetsTheSoonestOfAllItsColliders) {
  // The colliders are met four at a time, in groups padded with entries that are never met: with
  // one to seven colliders (one group, a full one, and part of a second), each sample's ratio is
  // the lowest it has against any one of them alone.
  const std::vector<std::pair<glm::vec2, glm::vec2>> colliders = {
      {{2.0f, 0.5f}, {-1.0f, 0.0f}}, {{3.0f, -1.0f}, {0.0f, 0.5f}}, {{1.5f, 1.5f}, {0.0f, -1.0f}},
      {{4.0f, 0.0f}, {-1.2f, 0.0f}}, {{2.5f, -2.0f}, {0.0f, 1.0f}}, {{1.2f, -0.8f}, {0.3f, 0.3f}},
      {{3.5f, 2.5f}, {-0.5f, -0.8f}}};
  constexpr int kRow = 8;
  for (std::size_t count = 1; count <= colliders.size(); ++count) {
    Scene all({}, kRow);
    for (std::size_t k = 0; k < count; ++k)
      all.collider(colliders[k].first, colliders[k].second);
    all.choose();
    std::vector<float> lowest(at(ttc_sample_count(all.params())), 1.0f);
    for (std::size_t k = 0; k < count; ++k) {
      Scene alone({}, kRow);
      alone.collider(colliders[k].first, colliders[k].second);
      alone.choose();
      const std::vector<float> ratio = alone.ratios();
      for (std::size_t s = 0; s < lowest.size(); ++s)
        lowest[s] = std::min(lowest[s], ratio[s]);
    }
    EXPECT_EQ(all.ratios(), lowest) << count << " colliders";
    EXPECT_LT(*std::min_element(lowest.begin(), lowest.end()), 1.0f) << count << " colliders";
  }
}

TEST(TtcAvoidance, OnlyCollidersAheadOfASampleCountAgainstIt) {
  // A faster walker right behind would run into the agent: that is for it to avoid.
  Scene scene;
  scene.collider({-1.0f, 0.0f}, {2.5f, 0.0f});
  const glm::vec2 v = scene.choose();
  const TtcContext ctx = scene.context();
  const std::vector<float> ratio = scene.ratios();
  int backward = 0;
  for (int s = 0; s < static_cast<int>(ratio.size()); ++s) {
    if (ctx.velocity(s).x >= 0.0f)
      EXPECT_EQ(ratio[at(s)], 1.0f) << "sample " << s;
    else
      backward += ratio[at(s)] < 1.0f; // the 240-degree fan's backward samples walk into it
  }
  EXPECT_GT(backward, 0);
  EXPECT_NEAR(v.x, 1.4f, 1e-5f);
}

/// Whether the moves a->b and p->q cross (x/z).
bool crosses(glm::vec2 a, glm::vec2 b, glm::vec2 p, glm::vec2 q) {
  const auto side = [](glm::vec2 o, glm::vec2 d, glm::vec2 x) {
    return (d.x - o.x) * (x.y - o.y) - (d.y - o.y) * (x.x - o.x);
  };
  return side(a, b, p) * side(a, b, q) < 0.0f && side(p, q, a) * side(p, q, b) < 0.0f;
}

TEST(TtcAvoidance, InCorridorModeASampleThatLeavesTheCorridorSectionIsNeverTaken) {
  // Agent 0 5 cm inside a side of its corridor section (an edge of its own polygon into a
  // polygon off the corridor), its path straight across it: in corridor mode the samples that
  // cross the side within the step are never taken, as if it were a wall; in shortcut mode
  // nothing holds it back (its wall row is empty).
  const test::NavmeshWithTables world(test::pillar_field());
  const NavMesh& navmesh = world.navmesh;
  const dtNavMeshQuery* query = world.query.get();
  const PolygonShapes& shapes = world.shapes;
  const NavmeshTablesView& tables = world.tables;
  std::mt19937 rng(3);
  test::RandomPath path;
  int tried = 0;
  for (bool found = false; !found; ++tried) {
    ASSERT_LT(tried, 1000) << "no corridor with a side on its own polygon";
    if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng, 32, path) ||
        path.polys.size() < 3)
      continue;
    for (const TtcReference reference : {kTtcShortcut, kTtcCorridor}) {
      TtcAvoidanceParams p;
      p.reference = reference;
      Scene scene(p);
      scene.tables = tables;
      AgentArrays& a = scene.arrays;
      a.corridors.capacity = 32;
      a.corridors.corner_capacity = 4;
      a.corridors.append(a.position[0]);
      for (std::size_t k = 0; k < path.polys.size(); ++k)
        a.corridors.row(0)[k] = shapes.index().index_of(path.polys[k]);
      a.corridors.size[0] = static_cast<std::int32_t>(path.polys.size());
      // Side 0, where there is one, is of the agent's own polygon when a point just inside its
      // middle is in that polygon.
      glm::vec2 side_p{0.0f}, side_q{0.0f};
      if (for_each_corridor_side(a.corridor_rows(tables), 0,
                                 [&](int k, glm::vec2 sp, glm::vec2 sq) {
                                   if (k == 0) {
                                     side_p = sp;
                                     side_q = sq;
                                   }
                                 }) == 0)
        break;
      const int own = a.corridors.row(0)[0];
      const glm::vec2 along = glm::normalize(side_q - side_p);
      glm::vec2 out{along.y, -along.x};
      const glm::vec2 middle = 0.5f * (side_p + side_q);
      glm::vec3 inside{middle.x - 0.05f * out.x, 0.0f, middle.y - 0.05f * out.y};
      if (!nav::point_in_polygon(&inside.x, tables.polygon_vertices(own),
                                 tables.vertex_count(own))) {
        out = -out;
        inside = {middle.x - 0.05f * out.x, 0.0f, middle.y - 0.05f * out.y};
        if (!nav::point_in_polygon(&inside.x, tables.polygon_vertices(own),
                                   tables.vertex_count(own)))
          break;
      }
      found = true;
      a.position[0] = inside;
      a.velocity[0] = a.desired_velocity[0] = a.preferred_velocity[0] = 1.4f * out;
      const glm::vec2 chosen = scene.choose();
      const glm::vec2 from{inside.x, inside.z};
      const TtcContext ctx = scene.context();
      const std::vector<float> ratio = scene.ratios();
      int leaving = 0;
      for (int s = 0; s < static_cast<int>(ratio.size()); ++s) {
        if (!crosses(from, from + ctx.velocity(s) * kDt, side_p, side_q))
          continue;
        ++leaving;
        if (reference == kTtcCorridor)
          EXPECT_EQ(ratio[at(s)], kTtcLeaves) << "sample " << s;
        else
          EXPECT_NE(ratio[at(s)], kTtcLeaves) << "sample " << s;
      }
      EXPECT_GT(leaving, 0); // straight ahead at least
      if (reference == kTtcCorridor) {
        EXPECT_FALSE(crosses(from, from + chosen * kDt, side_p, side_q));
      } else {
        EXPECT_NEAR(chosen.x, 1.4f * out.x, 1e-5f);
        EXPECT_NEAR(chosen.y, 1.4f * out.y, 1e-5f);
      }
    }
  }
}

TEST(TtcAvoidance, SmoothingIsTheMeanOverTheSampleAndItsNeighboursInItsRing) {
  Scene scene;
  scene.collider({2.0f, 0.3f}, {-1.0f, 0.0f});
  scene.collider({1.5f, -1.2f}, {0.0f, 1.0f});
  scene.wall({3.0f, 1.0f}, {0.2f, 1.0f}); // walkable side below (-z of the a->b line, +x run)
  scene.choose();
  const TtcAvoidanceParams& p = scene.params();
  const int n = ttc_direction_count(p);
  const std::vector<float> ratio = scene.ratios();
  const std::vector<float> smoothed = scene.smoothed();
  const auto counted = [&](int s) { return std::max(ratio[at(s)], 0.0f); };
  bool some_differ = false;
  for (int s = 0; s < n * ttc_ring_count(p); ++s) {
    const int k = s % n;
    if (ratio[at(s)] < 0.0f) {
      EXPECT_EQ(smoothed[at(s)], kTtcLeaves) << s;
      continue;
    }
    float sum = ratio[at(s)];
    float terms = 1.0f;
    if (k > 0)
      sum += counted(s - 1), terms += 1.0f;
    if (k < n - 1)
      sum += counted(s + 1), terms += 1.0f;
    EXPECT_FLOAT_EQ(smoothed[at(s)], sum / terms) << "sample " << s;
    some_differ = some_differ || smoothed[at(s)] != ratio[at(s)];
  }
  EXPECT_TRUE(some_differ);                 // the scene has unsafe samples next to safe ones
  EXPECT_EQ(smoothed.back(), ratio.back()); // the zero sample keeps its own
}

TEST(TtcAvoidance, SmoothingWrapsRoundAFullCircleOnly) {
  const float ratio[] = {0.0f, 1.0f, 1.0f, 1.0f, 0.5f};
  TtcAvoidanceParams p;
  p.sample_count = 5;
  p.enable_slowing_down = 0;
  p.enable_stop = 0;
  p.angle_span = 360.0f;
  EXPECT_FLOAT_EQ(ttc_smoothed_ratio(p, ratio, 0), (0.0f + 1.0f + 0.5f) / 3.0f);
  EXPECT_FLOAT_EQ(ttc_smoothed_ratio(p, ratio, 4), (0.5f + 1.0f + 0.0f) / 3.0f);
  p.angle_span = 200.0f;
  EXPECT_FLOAT_EQ(ttc_smoothed_ratio(p, ratio, 0), (0.0f + 1.0f) / 2.0f);
  EXPECT_FLOAT_EQ(ttc_smoothed_ratio(p, ratio, 4), (0.5f + 1.0f) / 2.0f);
  const float leaving[] = {kTtcLeaves, 1.0f, 1.0f, 1.0f, 1.0f};
  EXPECT_FLOAT_EQ(ttc_smoothed_ratio(p, leaving, 1), 2.0f / 3.0f); // a leaver counts 0
  EXPECT_EQ(ttc_smoothed_ratio(p, leaving, 0), kTtcLeaves);
}

TEST(TtcAvoidance, TheWinnerHasTheHighestScore) {
  Scene scene;
  scene.collider({2.5f, 0.0f}, {-1.2f, 0.0f}); // head on
  const glm::vec2 v = scene.choose();
  const TtcContext ctx = scene.context();
  const std::vector<float> smoothed = scene.smoothed();
  int best = -1;
  float best_score = -1.0f;
  for (int s = 0; s < static_cast<int>(smoothed.size()); ++s) {
    if (smoothed[at(s)] < 0.0f)
      continue;
    const float score = ttc_score(ctx, s, smoothed[at(s)]);
    if (score > best_score)
      best_score = score, best = s;
  }
  ASSERT_GE(best, 0);
  EXPECT_EQ(v, ctx.velocity(best));
}

TEST(TtcAvoidance, ASampleThatCrossesAWallWithinTheStepIsNeverTaken) {
  // A wall 0.1 m ahead across the way (walkable side toward the agent): straight on crosses it
  // within the step.
  Scene scene;
  scene.wall({0.1f, -5.0f}, {0.1f, 5.0f});
  const glm::vec2 v = scene.choose();
  const std::vector<float> ratio = scene.ratios();
  const int n = ttc_direction_count(scene.params());
  EXPECT_EQ(ratio[at(n / 2)], kTtcLeaves);
  EXPECT_LE(v.x * kDt, 0.1f) << "it walks into the wall: " << v.x << ", " << v.y;
}

/// A collider right ahead, closing in, and the fan narrowed so that every moving sample
/// collides almost at once: the best one is still a move, which stop and wait turns into a
/// stop.
Scene blocked_scene() {
  TtcAvoidanceParams p;
  p.sample_count = 3;
  p.angle_span = 10.0f;
  p.enable_slowing_down = 0;
  Scene scene(p);
  scene.collider({0.86f, 0.0f}, {0.0f, 0.0f});
  return scene;
}

TEST(TtcAvoidance, StopAndWaitHoldsTheAgentForTheWaitTimeEvenWhenTheWayClears) {
  Scene scene = blocked_scene();
  EXPECT_EQ(scene.choose(), glm::vec2(0.0f)); // step 1: it stops
  scene.arrays.mode[1] = kAgentInactive;      // the way clears at once
  // stop_wait_time 0.5 s at dt 0.1: the step it stops and four more.
  for (int step = 2; step <= 5; ++step)
    EXPECT_EQ(scene.choose(), glm::vec2(0.0f)) << "step " << step;
  EXPECT_NEAR(scene.choose().x, 1.4f, 1e-5f) << "step 6";
}

TEST(TtcAvoidance, ABlockedAgentForcesItsWayAfterTheWaitLimitForThePassageTime) {
  // Blocked for good: stops of 5 steps, one after the other; after wait_passage_time_limit
  // (2 s: 20 steps) standing, 10 steps (force_passage_time_limit 1 s) ignoring the collider,
  // then blocked again.
  Scene scene = blocked_scene();
  for (int step = 1; step <= 20; ++step)
    ASSERT_EQ(scene.choose(), glm::vec2(0.0f)) << "step " << step;
  for (int step = 21; step <= 30; ++step) {
    const glm::vec2 v = scene.choose();
    ASSERT_NEAR(v.x, 1.4f, 1e-5f) << "step " << step;
  }
  EXPECT_EQ(scene.choose(), glm::vec2(0.0f)) << "step 31";
}

TEST(TtcAvoidance, WithoutStoppingOrForcingTheAgentNeitherStopsNorPushesOn) {
  TtcAvoidanceParams p;
  p.sample_count = 3;
  p.angle_span = 10.0f;
  p.enable_slowing_down = 0;
  p.enable_stop = 0;
  p.enable_force_passage = 0;
  Scene scene(p);
  scene.collider({0.86f, 0.0f}, {0.0f, 0.0f});
  for (int step = 0; step < 40; ++step) {
    scene.choose();
    EXPECT_EQ(scene.arrays.ttc_state[0].stop_time, 0.0f);
    EXPECT_EQ(scene.arrays.ttc_state[0].force_time, 0.0f);
  }
}

TEST(TtcAvoidance, CollidersAreCollectedWithinTheRadiusAndHeightEveryNSteps) {
  AgentArrays a;
  a.max_neighbors = 3;
  AvoidanceParams params = avoidance_defaults(kAvoidanceTtc);
  params.ttc.collector_radius = 2.0f;
  params.ttc.collector_half_height = 0.5f;
  params.ttc.collector_frames_between_updates = 3;
  a.avoidance_params = {params};
  const auto agent = [&](float x, float y, float z) {
    return a.append({x, y, z}, 0.3f, 1.8f, 8.0f, 6.0f, 2.0f, 0);
  };
  agent(0.0f, 0.0f, 0.0f);
  agent(1.5f, 0.0f, 0.0f);  // in
  agent(0.0f, 0.0f, -1.0f); // in, nearest
  agent(2.5f, 0.0f, 0.0f);  // beyond the radius
  agent(1.0f, 0.8f, 0.0f);  // above the half height
  agent(-1.8f, 0.0f, 0.0f); // in, farthest
  agent(1.9f, 0.0f, 0.5f);  // in range but a fourth: the row holds three
  const GridSpec spec = make_grid_spec({-5.0f, -5.0f}, {5.0f, 5.0f}, 1.0f);
  const auto collect = [&] {
    const AgentView view = a.view();
    const test::HostAgentGrid grid(spec, view);
    collect_colliders(0, view, grid.view);
  };
  collect();
  ASSERT_EQ(a.ttc_state[0].collider_count, 3);
  EXPECT_EQ(std::vector<std::int32_t>(a.collider_index.begin(), a.collider_index.begin() + 3),
            (std::vector<std::int32_t>{2, 1, 5}));
  // Kept for two more steps whatever moves, collected again on the third.
  a.position[at(6)] = {0.5f, 0.0f, 0.0f};
  collect();
  collect();
  EXPECT_EQ(a.collider_index[0], 2);
  collect();
  EXPECT_EQ(a.collider_index[0], 6);
}

TEST(TtcAvoidance, AgentsOnAnotherModelKeepNoColliders) {
  test::AvoidanceScene scene({1.0f, 0.0f}, 0);
  scene.add({1.0f, 0.0f}, {0.0f, 0.0f});
  AgentArrays& a = scene.arrays;
  a.avoidance_params = {avoidance_defaults(kAvoidanceOrca)};
  const AgentView view = a.view();
  const test::HostAgentGrid grid(make_grid_spec({-5.0f, -5.0f}, {5.0f, 5.0f}, 1.0f), view);
  collect_colliders(0, view, grid.view);
  EXPECT_EQ(a.ttc_state[0], TtcState{});
}

} // namespace
} // namespace crowd

// The CPU executor (host/sim/cpu_executor.cpp) end to end on small synthetic scenes: the
// kernel stages grid, proximity, steering, avoidance, integrate and collisions together.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/kernels/collision.h"
#include "cuda/kernels/geometry.h"
#include "host/sim/wall_grid_builder.h"
#include "tests/support/crowd_test_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::Rng;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

float length(glm::vec2 v) {
  return std::sqrt(v.x * v.x + v.y * v.y);
}

/// Agents, walls and goals; each step sets the preferred velocity toward the goal at the
/// agent's speed (what the corridor stage does on the host), then runs the executor.
struct Scene {
  AgentArrays agents = test::make_agent_arrays(6, 8);
  std::vector<WallSegment> wall_segments;
  WallGridData walls;
  KernelStepParams params;
  std::vector<glm::vec2> goal;
  std::vector<float> speed;
  glm::vec2 area_min{-20.0f}, area_max{20.0f};

  int add(glm::vec3 pos, glm::vec2 to, float agent_speed, float radius = 0.4f,
          AvoidancePreset preset = AvoidancePreset::Medium, float separation = 0.0f,
          float accel = 8.0f) {
    const std::int32_t set = agents.avoidance_set_of(avoidance_preset(preset));
    const int i = agents.append(pos, radius, 2.0f, accel, 12.0f * radius, separation, set);
    goal.push_back(to);
    speed.push_back(agent_speed);
    return i;
  }

  void stand(int i) {
    agents.mode[at(i)] = kAgentStanding;
    speed[at(i)] = 0.0f;
  }

  /// Call after adding agents and walls.
  void finish(float dt = 0.1f) {
    walls = build_wall_grid(wall_segments, area_min, area_max, 2.0f);
    float max_range = 0.0f;
    for (const float r : agents.query_range)
      max_range = std::max(max_range, r);
    params.dt = dt;
    params.agent_grid = make_grid_spec(area_min, area_max, std::max(max_range, 0.5f));
  }

  void steer() {
    for (int i = 0; i < agents.count(); ++i) {
      glm::vec2 pv{0.0f};
      if (agents.mode[at(i)] == kAgentMoving) {
        const glm::vec3 p = agents.position[at(i)];
        const glm::vec2 d = goal[at(i)] - glm::vec2(p.x, p.z);
        const float dist = length(d);
        if (dist > 1e-3f)
          pv = d * (std::min(speed[at(i)], dist / params.dt) / dist);
      }
      agents.preferred_velocity[at(i)] = pv;
      agents.desired_speed[at(i)] = speed[at(i)];
    }
  }

  void step(Executor& executor) {
    steer();
    StageTimes times;
    executor.step(agents, params, times);
  }
};

std::unique_ptr<Executor> executor_for(const Scene& scene, int threads = 2) {
  auto executor = make_cpu_executor(threads);
  executor->set_walls(scene.walls);
  return executor;
}

float ground_distance(const glm::vec3& a, const glm::vec3& b) {
  return std::sqrt(test::ground_distance_sq(a, b));
}

// --- Passing -----------------------------------------------------------------------------------

struct HeadOnCase {
  const char* name;
  AvoidancePreset preset;
  float lateral_offset;
  int collision_iterations;
};

void PrintTo(const HeadOnCase& c, std::ostream* os) {
  *os << c.name;
}

class HeadOn : public ::testing::TestWithParam<HeadOnCase> {};

TEST_P(HeadOn, TwoAgentsWalkingTowardEachOtherPassWithoutOverlapping) {
  const HeadOnCase c = GetParam();
  Scene scene;
  const float r = 0.5f;
  scene.add({-6.0f, 0.0f, 0.0f}, {8.0f, c.lateral_offset}, 1.5f, r, c.preset);
  scene.add({6.0f, 0.0f, c.lateral_offset}, {-8.0f, 0.0f}, 1.5f, r, c.preset);
  scene.finish();
  scene.params.collision_iterations = c.collision_iterations;
  auto executor = executor_for(scene);
  float closest = 1e9f;
  for (int s = 0; s < 150; ++s) {
    scene.step(*executor);
    closest =
        std::min(closest, ground_distance(scene.agents.position[0], scene.agents.position[1]));
  }
  EXPECT_GE(closest, 0.95f * (r + r)) << "discs overlapped by more than 5% of the radius sum";
  // They got past each other and on toward their goals.
  EXPECT_GT(scene.agents.position[0].x, 5.0f);
  EXPECT_LT(scene.agents.position[1].x, -5.0f);
}

INSTANTIATE_TEST_SUITE_P(
    Presets, HeadOn,
    ::testing::Values(HeadOnCase{"low", AvoidancePreset::Low, 0.0f, 4},
                      HeadOnCase{"medium", AvoidancePreset::Medium, 0.0f, 4},
                      HeadOnCase{"good", AvoidancePreset::Good, 0.0f, 4},
                      HeadOnCase{"high", AvoidancePreset::High, 0.0f, 4},
                      HeadOnCase{"medium_offset", AvoidancePreset::Medium, 0.2f, 4},
                      HeadOnCase{"medium_no_collision_pass", AvoidancePreset::Medium, 0.0f, 0},
                      HeadOnCase{"high_no_collision_pass", AvoidancePreset::High, 0.1f, 0}),
    [](const ::testing::TestParamInfo<HeadOnCase>& case_info) {
      return std::string(case_info.param.name);
    });

// --- Limits ------------------------------------------------------------------------------------

/// A busy scene: agents on a circle heading for the antipode, plus a few standing ones and a
/// wall box around, mixed presets, speeds and accelerations.
Scene circle_scene(int n, std::uint32_t seed) {
  Rng rng(seed);
  Scene scene;
  const float radius = 4.0f + 0.35f * static_cast<float>(n) / 6.2831853f;
  scene.area_min = glm::vec2(-radius - 3.0f);
  scene.area_max = glm::vec2(radius + 3.0f);
  // Ids in random order around the circle, so neighbours fall in different worker chunks.
  std::vector<int> slot(at(n));
  for (int i = 0; i < n; ++i)
    slot[at(i)] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(slot[at(i)], slot[at(rng.integer(0, i))]);
  for (int i = 0; i < n; ++i) {
    const float a = 6.2831853f * static_cast<float>(slot[at(i)]) / static_cast<float>(n);
    const glm::vec2 p{radius * std::cos(a), radius * std::sin(a)};
    const AvoidancePreset preset = static_cast<AvoidancePreset>(i % 4);
    const int id = scene.add({p.x, 0.0f, p.y}, -p + rng.in_disc(0.5f), rng.uniform(0.5f, 3.5f),
                             rng.uniform(0.2f, 0.6f) * 0.5f, preset, rng.chance(0.5) ? 2.0f : 0.0f,
                             rng.uniform(2.0f, 10.0f));
    if (rng.chance(0.05))
      scene.stand(id);
  }
  // A square of walls facing inward (dtTriArea2D(inside, p, q) >= 0), with a pillar.
  const float w = radius + 1.5f;
  const glm::vec2 corners[] = {{-w, -w}, {-w, w}, {w, w}, {w, -w}};
  for (int k = 0; k < 4; ++k) {
    const glm::vec2 p = corners[k], q = corners[(k + 1) % 4];
    WallSegment s{{p.x, 0.0f, p.y}, {q.x, 0.0f, q.y}};
    if (tri_area_2d({0.0f, 0.0f}, p, q) < 0.0f)
      std::swap(s.p, s.q);
    scene.wall_segments.push_back(s);
  }
  scene.finish();
  return scene;
}

TEST(CpuExecutor, NoAgentExceedsItsMaxSpeedOrAcceleration) {
  Scene scene = circle_scene(200, 1);
  auto executor = executor_for(scene);
  int limited = 0;
  for (int s = 0; s < 120; ++s) {
    const std::vector<glm::vec2> before = scene.agents.velocity;
    scene.step(*executor);
    for (int i = 0; i < scene.agents.count(); ++i) {
      const glm::vec2 v = scene.agents.velocity[at(i)];
      const float dv = length(v - before[at(i)]);
      const float max_dv = scene.agents.max_accel[at(i)] * scene.params.dt;
      ASSERT_LE(length(v), scene.speed[at(i)] + 1e-3f + 1e-6f) << "agent " << i << " step " << s;
      ASSERT_LE(dv, max_dv * (1.0f + 1e-5f) + 1e-6f) << "agent " << i << " step " << s;
      limited += dv > 0.999f * max_dv;
    }
  }
  EXPECT_GT(limited, 0) << "the scene should make some agents accelerate at the limit";
}

// --- Standing agents -----------------------------------------------------------------------------

TEST(CpuExecutor, StandingAgentsAloneStayExactlyWhereTheyAre) {
  Scene scene;
  Rng rng(2);
  for (int i = 0; i < 30; ++i) {
    const int id = scene.add(
        {static_cast<float>(i % 6) * 2.0f - 5.0f, 0.0f, static_cast<float>(i / 6) * 2.0f - 5.0f},
        rng.in_disc(10.0f), 1.5f, 0.4f, AvoidancePreset::High, 2.0f);
    scene.stand(id);
  }
  scene.finish();
  const std::vector<glm::vec3> start = scene.agents.position;
  auto executor = executor_for(scene);
  for (int s = 0; s < 50; ++s)
    scene.step(*executor);
  for (int i = 0; i < scene.agents.count(); ++i) {
    EXPECT_EQ(scene.agents.position[at(i)], start[at(i)]) << i;
    EXPECT_EQ(scene.agents.velocity[at(i)], glm::vec2(0.0f)) << i;
  }
}

TEST(CpuExecutor, StandingAgentsMoveOnlyWhenAnotherAgentComesIntoContact) {
  // Walkers cross a field of standing agents (not overlapping each other at the start); a
  // standing agent may be pushed by contact but never walks. Contact within a step: another
  // agent within the radius sum plus one step of walking (2 m/s x 0.1 s) and a chained push.
  Scene scene;
  Rng rng(3);
  std::vector<int> standing;
  for (int i = 0; i < 36; ++i) {
    const glm::vec2 p = glm::vec2(static_cast<float>(i % 6), static_cast<float>(i / 6)) * 1.6f -
                        4.0f + rng.in_disc(0.2f);
    const int id = scene.add({p.x, 0.0f, p.y}, p, 0.0f);
    scene.stand(id);
    standing.push_back(id);
  }
  for (int i = 0; i < 40; ++i) {
    const float z = rng.uniform(-4, 4);
    scene.add({-10.0f - rng.uniform(0.0f, 6.0f), 0.0f, z}, {10.0f, -z}, rng.uniform(1.0f, 2.0f));
  }
  scene.finish();
  auto executor = executor_for(scene);
  int pushed = 0;
  for (int s = 0; s < 150; ++s) {
    const std::vector<glm::vec3> before = scene.agents.position;
    scene.step(*executor);
    for (const int i : standing) {
      EXPECT_EQ(scene.agents.velocity[at(i)], glm::vec2(0.0f));
      if (scene.agents.position[at(i)] == before[at(i)])
        continue;
      ++pushed;
      bool contact = false;
      for (int j = 0; j < scene.agents.count(); ++j) {
        const float reach = scene.agents.radius[at(i)] + scene.agents.radius[at(j)];
        if (j != i && ground_distance(before[at(i)], before[at(j)]) <= reach + 0.3f)
          contact = true;
      }
      EXPECT_TRUE(contact) << "standing agent " << i << " moved at step " << s << " untouched";
    }
  }
  EXPECT_GT(pushed, 0) << "the walkers should push someone";
}

TEST(CpuExecutor, StandingAgentIsPushedOutOfAnOverlap) {
  Scene scene;
  const int a = scene.add({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0.5f);
  scene.stand(a);
  scene.add({0.6f, 0.0f, 0.0f}, {0.6f, 0.0f}, 0.0f, 0.5f);
  scene.stand(1);
  scene.finish();
  auto executor = executor_for(scene);
  scene.step(*executor);
  EXPECT_LT(scene.agents.position[0].x, 0.0f);
  EXPECT_GT(scene.agents.position[1].x, 0.6f);
  EXPECT_EQ(scene.agents.position[0].z, 0.0f);
}

// --- Collisions ----------------------------------------------------------------------------------

TEST(CpuExecutor, CollisionsResolveAnInitialOverlap) {
  Scene scene;
  scene.add({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0.5f);
  scene.add({0.3f, 0.0f, 0.1f}, {0.3f, 0.1f}, 0.0f, 0.5f);
  scene.stand(0);
  scene.stand(1);
  scene.finish();
  auto executor = executor_for(scene);
  float previous = ground_distance(scene.agents.position[0], scene.agents.position[1]);
  for (int s = 0; s < 5; ++s) {
    scene.step(*executor);
    const float d = ground_distance(scene.agents.position[0], scene.agents.position[1]);
    if (previous < 0.999f) {
      EXPECT_GT(d, previous) << "step " << s;
    }
    EXPECT_GE(d, previous) << "step " << s;
    EXPECT_LE(d, 1.0f + 1e-5f) << "pushed apart, never past contact";
    previous = d;
  }
  EXPECT_GT(previous, 0.99f * 1.0f);
  // The push is along the line between them and symmetric.
  const glm::vec3 mid = (scene.agents.position[0] + scene.agents.position[1]) * 0.5f;
  EXPECT_NEAR(mid.x, 0.15f, 1e-5f);
  EXPECT_NEAR(mid.z, 0.05f, 1e-5f);
}

TEST(CpuExecutor, CollisionsUntangleAJammedCluster) {
  Scene scene;
  Rng rng(4);
  for (int i = 0; i < 7; ++i) {
    const glm::vec2 p = rng.in_disc(0.4f);
    scene.add({p.x, 0.0f, p.y}, p, 0.0f, 0.4f);
    scene.stand(i);
  }
  scene.finish();
  auto executor = executor_for(scene);
  const auto worst_overlap = [&] {
    float worst = 0.0f;
    for (int i = 0; i < 7; ++i)
      for (int j = i + 1; j < 7; ++j)
        worst = std::max(worst, 0.8f - ground_distance(scene.agents.position[at(i)],
                                                       scene.agents.position[at(j)]));
    return worst;
  };
  const float initial = worst_overlap();
  for (int s = 0; s < 60; ++s)
    scene.step(*executor);
  EXPECT_GT(initial, 0.3f);
  EXPECT_LT(worst_overlap(), 0.05f * 0.8f);
}

// After the first collision pass both executors compute again only the agents that were
// displaced or have a displaced neighbour (displacement_may_change): the same bits as passes
// that compute every agent, here a fresh executor per pass (nothing to follow).
TEST(CpuExecutor, LaterCollisionPassesSkipOnlyAgentsWhosePushCannotHaveChanged) {
  Scene scene;
  Rng rng(6);
  for (int i = 0; i < 7; ++i) { // a jammed cluster: pushes in every pass
    const glm::vec2 p = rng.in_disc(0.4f);
    scene.add({p.x, 0.0f, p.y}, p, 0.0f, 0.4f);
    scene.stand(i);
  }
  for (int i = 0; i < 20; ++i) { // standing apart: never pushed, so skipped after pass 0
    const glm::vec2 p{5.0f + 1.5f * static_cast<float>(i % 5),
                      -6.0f + 3.0f * static_cast<float>(i / 5)};
    scene.add({p.x, 0.0f, p.y}, p, 0.0f, 0.4f);
    scene.stand(7 + i);
  }
  scene.finish();
  scene.steer();
  scene.params.collision_iterations = 4;
  auto skipping = executor_for(scene);
  skipping->begin_step(scene.agents, scene.params);
  skipping->build_grid();
  skipping->find_proximity();
  AgentArrays full = scene.agents; // the proximity rows included
  const std::vector<glm::vec3> before = scene.agents.position;
  int skipped_after_first = -1;
  for (int pass = 0; pass < scene.params.collision_iterations; ++pass) {
    skipping->resolve_collisions(pass);
    auto fresh = executor_for(scene);
    fresh->begin_step(full, scene.params);
    fresh->resolve_collisions(pass);
    if (pass == 0) {
      const AgentView view = scene.agents.view();
      std::vector<std::uint8_t> displaced(at(view.count));
      for (int i = 0; i < view.count; ++i)
        displaced[at(i)] = was_displaced(i, view);
      skipped_after_first = 0;
      for (int i = 0; i < view.count; ++i)
        skipped_after_first += displacement_may_change(i, view, displaced.data()) ? 0 : 1;
    }
    ASSERT_EQ(std::memcmp(scene.agents.position.data(), full.position.data(),
                          full.position.size() * sizeof(glm::vec3)),
              0)
        << "after pass " << pass;
    ASSERT_EQ(std::memcmp(scene.agents.displacement.data(), full.displacement.data(),
                          full.displacement.size() * sizeof(glm::vec2)),
              0)
        << "after pass " << pass;
  }
  EXPECT_EQ(skipped_after_first, 20) << "the agents standing apart";
  EXPECT_NE(scene.agents.position, before) << "the cluster was pushed apart";
}

TEST(CpuExecutor, CoincidentWalkersDivergeSideways) {
  Scene scene;
  scene.add({0.0f, 0.0f, 0.0f}, {10.0f, 0.0f}, 1.0f);
  scene.add({0.0f, 0.0f, 0.0f}, {10.0f, 0.0f}, 1.0f);
  scene.finish();
  auto executor = executor_for(scene);
  for (int s = 0; s < 30; ++s)
    scene.step(*executor);
  EXPECT_GT(ground_distance(scene.agents.position[0], scene.agents.position[1]), 0.4f);
  for (int i = 0; i < 2; ++i)
    EXPECT_TRUE(std::isfinite(scene.agents.position[at(i)].x) &&
                std::isfinite(scene.agents.position[at(i)].z));
}

// --- Inactive agents and walls -------------------------------------------------------------------

TEST(CpuExecutor, InactiveAgentsAreNeitherMovedNorAvoided) {
  // A walker's path through an inactive agent is bit-identical to its path in an empty scene.
  Scene alone, with_ghost;
  alone.add({-5.0f, 0.0f, 0.1f}, {5.0f, 0.0f}, 1.5f);
  with_ghost.add({-5.0f, 0.0f, 0.1f}, {5.0f, 0.0f}, 1.5f);
  const int ghost = with_ghost.add({0.0f, 0.0f, 0.0f}, {-5.0f, 0.0f}, 1.5f);
  with_ghost.agents.mode[at(ghost)] = kAgentInactive;
  with_ghost.agents.velocity[at(ghost)] = {0.5f, 0.0f};
  alone.finish();
  with_ghost.finish();
  auto ex_alone = executor_for(alone);
  auto ex_ghost = executor_for(with_ghost);
  for (int s = 0; s < 80; ++s) {
    alone.step(*ex_alone);
    with_ghost.step(*ex_ghost);
    ASSERT_EQ(with_ghost.agents.position[0], alone.agents.position[0]) << "step " << s;
    ASSERT_EQ(with_ghost.agents.neighbor_count[0], 0);
  }
  EXPECT_GT(with_ghost.agents.position[0].x, 4.0f);
  EXPECT_EQ(with_ghost.agents.position[at(ghost)], glm::vec3(0.0f));
  EXPECT_EQ(with_ghost.agents.velocity[at(ghost)], glm::vec2(0.5f, 0.0f));
}

TEST(CpuExecutor, AgentSeesOnlyTheWallThatFacesIt) {
  Scene scene;
  scene.add({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f}, 1.0f);
  // x = 2 walls in both orientations; only (2, 3) -> (2, -3) has dtTriArea2D >= 0 here.
  scene.wall_segments = {{{2.0f, 0.0f, -3.0f}, {2.0f, 0.0f, 3.0f}},
                         {{2.0f, 0.0f, 3.0f}, {2.0f, 0.0f, -3.0f}}};
  ASSERT_GE(tri_area_2d({0.0f, 0.0f}, {2.0f, 3.0f}, {2.0f, -3.0f}), 0.0f);
  scene.finish();
  auto executor = executor_for(scene);
  scene.step(*executor);
  ASSERT_EQ(scene.agents.segment_count[0], 1);
  EXPECT_EQ(scene.agents.segment[0], glm::vec4(2.0f, 3.0f, 2.0f, -3.0f));
}

TEST(CpuExecutor, AgentWalkingAtAWallSlowsDownBeforeIt) {
  Scene scene;
  scene.add({0.0f, 0.0f, 0.0f}, {10.0f, 0.0f}, 1.5f);
  scene.wall_segments = {{{3.0f, 0.0f, 5.0f}, {3.0f, 0.0f, -5.0f}}};
  scene.finish();
  auto executor = executor_for(scene);
  float top_speed = 0.0f;
  for (int s = 0; s < 60; ++s) {
    scene.step(*executor);
    const glm::vec3 p = scene.agents.position[0];
    top_speed = std::max(top_speed, length(scene.agents.velocity[0]));
    ASSERT_LT(p.x, 3.0f) << "crossed the wall at step " << s;
  }
  EXPECT_GT(top_speed, 1.0f);
  EXPECT_LT(std::fabs(scene.agents.velocity[0].x), 0.5f) << "not still pressing into the wall";
}

// --- Determinism ---------------------------------------------------------------------------------

TEST(CpuExecutor, SameSceneIsBitIdenticalWithOneOrTwoThreads) {
  Scene one = circle_scene(500, 5);
  Scene two = circle_scene(500, 5);
  Scene automatic = circle_scene(500, 5);
  auto ex1 = executor_for(one, 1);
  auto ex2 = executor_for(two, 2);
  auto ex0 = executor_for(automatic, 0);
  for (int s = 0; s < 100; ++s) {
    one.step(*ex1);
    two.step(*ex2);
    automatic.step(*ex0);
  }
  const auto bytes = [](const auto& v) { return v.size() * sizeof(v[0]); };
  ASSERT_EQ(bytes(one.agents.position), bytes(two.agents.position));
  EXPECT_EQ(std::memcmp(one.agents.position.data(), two.agents.position.data(),
                        bytes(one.agents.position)),
            0);
  EXPECT_EQ(std::memcmp(one.agents.velocity.data(), two.agents.velocity.data(),
                        bytes(one.agents.velocity)),
            0);
  EXPECT_EQ(std::memcmp(one.agents.position.data(), automatic.agents.position.data(),
                        bytes(one.agents.position)),
            0);
  // The scene really moved and interacted.
  int moved = 0, with_neighbors = 0;
  Scene start = circle_scene(500, 5);
  for (int i = 0; i < 500; ++i) {
    moved += ground_distance(one.agents.position[at(i)], start.agents.position[at(i)]) > 1.0f;
    with_neighbors += one.agents.neighbor_count[at(i)] > 0;
  }
  EXPECT_GT(moved, 400);
  EXPECT_GT(with_neighbors, 100);
}

TEST(CpuExecutor, LargeDenseSceneIsBitIdenticalWithOneOrTwoThreads) {
  // Long enough loops that the second worker really runs concurrently.
  Scene one = circle_scene(4000, 7);
  Scene two = circle_scene(4000, 7);
  auto ex1 = executor_for(one, 1);
  auto ex2 = executor_for(two, 2);
  for (int s = 0; s < 25; ++s) {
    one.step(*ex1);
    two.step(*ex2);
  }
  EXPECT_EQ(std::memcmp(one.agents.position.data(), two.agents.position.data(),
                        one.agents.position.size() * sizeof(glm::vec3)),
            0);
  EXPECT_EQ(std::memcmp(one.agents.velocity.data(), two.agents.velocity.data(),
                        one.agents.velocity.size() * sizeof(glm::vec2)),
            0);
}

TEST(CpuExecutor, ReportsEveryKernelStageTime) {
  Scene scene = circle_scene(20, 6);
  auto executor = executor_for(scene);
  EXPECT_EQ(executor->name(), "cpu");
  scene.steer();
  StageTimes times;
  executor->step(scene.agents, scene.params, times);
  std::vector<std::string> names;
  for (const auto& [name, ms] : times.entries()) {
    names.push_back(name);
    EXPECT_GE(ms, 0.0);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"grid", "proximity", "steering", "avoidance",
                                             "integrate", "collisions"}));
}

TEST(CpuExecutor, EmptySceneSteps) {
  Scene scene;
  scene.finish();
  auto executor = executor_for(scene);
  scene.step(*executor);
  EXPECT_EQ(scene.agents.count(), 0);
}

} // namespace
} // namespace crowd

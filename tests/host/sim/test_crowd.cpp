// host/sim/crowd.h: the crowd on a navmesh the caller owns, driven by the caller's dt. Agents
// added stand without a target; sent to targets they walk there across the tiles of a tiled
// navmesh; a reset target stops them; bad calls throw ApiError and change nothing.
#include "host/sim/crowd.h"
#include "host/sim/simulation.h"
#include "tests/support/crowd_api.h"
#include "tests/support/link_worlds.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourStatus.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <unistd.h>

namespace crowd {
namespace {

using test::ground_distance;

// 48 x 24 m with three pillars, in 0.3 m cells and tiles of 32 cells (9.6 m): 5 x 3 tiles. The
// navmesh is built here as the caller's own: the crowd only sees its dtNavMesh.
constexpr const char* kWorld = R"({
  "name": "crowd", "dt": 0.1, "steps": 1,
  "world": {
    "bounds": [[0, 0], [48, 24]],
    "obstacles": [
      [[10, 11], [11, 11], [11, 13], [10, 13]],
      [[23, 8], [25, 8], [25, 16], [23, 16]],
      [[37, 11], [38, 11], [38, 13], [37, 13]]
    ],
    "navmesh": {"cell_size": 0.3, "tile_size": 32}
  },
  "agents": [{"position": [1, 1], "goal": [2, 2]}]
})";

const NavMesh& callers_navmesh() {
  static const NavMesh navmesh = NavMesh::build(parse_scenario(kWorld, "crowd.json"));
  return navmesh;
}

CrowdOptions cpu() {
  return test::crowd_on(BackendKind::Cpu);
}

TEST(Crowd, ReadsTheCallersTiledNavmesh) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  EXPECT_EQ(crowd.navmesh().tile_count(), 15);
  EXPECT_EQ(crowd.navmesh().tile_size(), 32);
  EXPECT_EQ(crowd.navmesh().polygon_count(), callers_navmesh().polygon_count());
  EXPECT_FLOAT_EQ(crowd.navmesh().settings().cell_size, 0.3f);
  EXPECT_FLOAT_EQ(crowd.navmesh().settings().agent_radius,
                  callers_navmesh().settings().agent_radius);
  EXPECT_EQ(crowd.navmesh().boundary_segments().size(),
            callers_navmesh().boundary_segments().size());
  EXPECT_EQ(crowd.executor_name(), "cpu");
}

TEST(Crowd, AddedAgentsStandWithoutATarget) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({5.0f, 0.0f, 5.0f});
  EXPECT_EQ(id, 0);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::None);
  const glm::vec3 start = crowd.position(id);
  for (int step = 0; step < 20; ++step)
    crowd.update(0.1f);
  EXPECT_EQ(crowd.position(id), start);
  EXPECT_EQ(crowd.velocity(id), glm::vec2(0.0f));
}

TEST(Crowd, AgentsWalkToTheirTargetsAcrossTilesPastEachOther) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int a = crowd.add_agent({2.0f, 0.0f, 12.0f});
  const int b = crowd.add_agent({46.0f, 0.0f, 12.5f});
  crowd.request_move_target(a, {46.0f, 0.0f, 12.0f});
  crowd.request_move_target(b, {2.0f, 0.0f, 12.0f});
  crowd.update(0.1f);
  EXPECT_EQ(crowd.target_state(a), CrowdTargetState::Valid);
  // 44 m past three pillars and each other at 1.4 m/s: well within 60 s, with a variable dt.
  for (int step = 0; step < 1000; ++step)
    crowd.update(step % 2 == 0 ? 0.05f : 0.07f);
  EXPECT_LT(ground_distance(crowd.position(a), crowd.target(a)), 0.5f);
  EXPECT_LT(ground_distance(crowd.position(b), crowd.target(b)), 0.5f);
  EXPECT_GT(ground_distance(crowd.position(a), crowd.position(b)), 0.8f);
}

TEST(Crowd, AResetTargetStopsTheAgentWhereItIs) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({2.0f, 0.0f, 4.0f});
  crowd.request_move_target(id, {46.0f, 0.0f, 4.0f});
  for (int step = 0; step < 50; ++step)
    crowd.update(0.1f);
  EXPECT_GT(crowd.position(id).x, 5.0f);
  crowd.reset_move_target(id);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::None);
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  const glm::vec3 stopped = crowd.position(id);
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_LT(ground_distance(crowd.position(id), stopped), 1e-4f);
  EXPECT_LT(crowd.position(id).x, 20.0f);
}

TEST(Crowd, UpdatedParametersTakeEffectOnTheWay) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({3.0f, 0.0f, 4.0f});
  crowd.request_move_target(id, {44.0f, 0.0f, 4.0f});
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_NEAR(glm::length(crowd.velocity(id)), 1.4f, 0.01f);
  AgentParams slower = crowd.agent_parameters(id);
  slower.max_speed = 0.7f;
  slower.avoidance = avoidance_defaults(kAvoidanceOrca);
  crowd.update_agent_parameters(id, slower);
  for (int step = 0; step < 30; ++step)
    crowd.update(0.1f);
  EXPECT_NEAR(glm::length(crowd.velocity(id)), 0.7f, 0.01f);
  EXPECT_EQ(crowd.agent_parameters(id).avoidance.model, kAvoidanceOrca);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Valid); // the target stays
}

TEST(Crowd, TargetsAreProjectedOntoTheNavmesh) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({2.0f, 1.0f, 4.0f}); // 1 m above the floor: placed on it
  EXPECT_NEAR(crowd.position(id).y, 0.0f, 0.3f);
  crowd.request_move_target(id, {30.0f, 1.0f, 4.0f});
  EXPECT_NEAR(crowd.target(id).y, 0.0f, 0.3f);
  EXPECT_NEAR(crowd.target(id).x, 30.0f, 1e-3f);
}

TEST(Crowd, AFollowerStaysWithinItsOffsetPlusArrivalRadiusOfAWalkingLeader) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  AgentParams leader_params;
  leader_params.max_speed = 1.0f;
  AgentParams follower_params;
  follower_params.max_speed = 1.6f;
  // Separation (DT_CROWD_SEPARATION) pushes agents within their collision query range (4.8 m)
  // apart, a follower at its offset included: a formation turns it off.
  leader_params.separation_weight = 0.0f;
  follower_params.separation_weight = 0.0f;
  const int leader = crowd.add_agent({3.0f, 0.0f, 4.0f}, leader_params);
  const glm::vec3 offset(-1.5f, 0.0f, 1.0f); // behind the leader and to its left
  const int follower = crowd.add_agent({3.0f, 0.0f, 8.0f}, follower_params);
  crowd.request_move_target(leader, {44.0f, 0.0f, 4.0f});
  crowd.request_follow(follower, leader, offset);
  const float allowed = glm::length(offset) + follower_params.arrival_radius;
  float worst = 0.0f;
  for (int step = 0; step < 500; ++step) {
    crowd.update(0.1f);
    if (step >= 50) // after 5 s, the follower has caught up
      worst = std::max(worst, ground_distance(crowd.position(follower), crowd.position(leader)));
  }
  EXPECT_GT(crowd.position(leader).x, 40.0f); // the leader walked its 41 m
  EXPECT_LE(worst, allowed);
  // Where the leader stopped, the follower stands at its offset.
  EXPECT_LT(ground_distance(crowd.position(follower), crowd.position(leader) + offset),
            follower_params.arrival_radius);
  EXPECT_EQ(crowd.target_state(follower), CrowdTargetState::Valid);
}

TEST(Crowd, AMovingTargetIsFollowedWithAPathSearchAtMostOncePerReplanDelay) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({3.0f, 0.0f, 4.0f});
  const std::size_t before = crowd.path_searches();
  // The target slides 1.2 m/s along the bottom of the world for 20 s, asked for every step.
  glm::vec3 target(6.0f, 0.0f, 4.0f);
  for (int step = 0; step < 200; ++step) {
    target.x += 0.12f;
    crowd.request_move_target(id, target);
    crowd.update(0.1f);
  }
  EXPECT_LE(crowd.path_searches() - before, 21u); // the first, then at most one a second
  for (int step = 0; step < 50; ++step)
    crowd.update(0.1f);
  EXPECT_LT(ground_distance(crowd.position(id), target), 0.5f);
}

TEST(Crowd, AVelocityRequestMovesTheAgentAtThatVelocityAndTheNavmeshStopsIt) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({4.0f, 0.0f, 6.0f});
  crowd.request_move_velocity(id, {1.2f, 0.0f, 0.0f});
  for (int step = 0; step < 20; ++step)
    crowd.update(0.1f);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Velocity);
  EXPECT_EQ(crowd.desired_velocity(id), glm::vec2(1.2f, 0.0f)); // alone: nothing to bend it
  EXPECT_TRUE(crowd.corners(id).empty());
  EXPECT_NEAR(crowd.velocity(id).x, 1.2f, 0.05f);
  EXPECT_NEAR(crowd.velocity(id).y, 0.0f, 0.05f);
  EXPECT_NEAR(crowd.position(id).z, 6.0f, 0.05f);
  EXPECT_GT(crowd.position(id).x, 4.0f + 1.2f * 1.7f);
  // Toward the world's edge 6 m away, for 10 s at 1.5 m/s: it stops at the navmesh's edge.
  crowd.request_move_velocity(id, {0.0f, 0.0f, -1.5f});
  for (int step = 0; step < 100; ++step)
    crowd.update(0.1f);
  const glm::vec3 at = crowd.position(id);
  EXPECT_GT(at.z, 0.0f);
  EXPECT_LT(at.z, 1.0f);
  const auto on_navmesh = crowd.navmesh().nearest_point(at, {0.1f, 1.0f, 0.1f});
  ASSERT_TRUE(on_navmesh.has_value());
  EXPECT_LT(ground_distance(*on_navmesh, at), 1e-3f);
  EXPECT_LT(std::abs(crowd.velocity(id).y), 0.1f);
}

TEST(Crowd, AVelocityRequestEndsWithATargetOrAReset) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({4.0f, 0.0f, 6.0f});
  crowd.request_move_target(id, {4.0f, 0.0f, 20.0f});
  crowd.update(0.1f);
  crowd.request_move_velocity(id, {1.0f, 0.0f, 0.0f});
  crowd.update(0.1f);
  // A new target at once, within the replan delay of the first: searched all the same.
  const glm::vec3 goal(8.0f, 0.0f, 3.0f);
  crowd.request_move_target(id, goal);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::Valid);
  for (int step = 0; step < 100; ++step)
    crowd.update(0.1f);
  EXPECT_LT(ground_distance(crowd.position(id), goal), 0.5f);
  crowd.request_move_velocity(id, {0.0f, 0.0f, 1.0f});
  crowd.update(0.1f);
  crowd.reset_move_target(id);
  for (int step = 0; step < 10; ++step)
    crowd.update(0.1f);
  EXPECT_EQ(crowd.target_state(id), CrowdTargetState::None);
  EXPECT_EQ(crowd.velocity(id), glm::vec2(0.0f));
}

TEST(Crowd, CornersAndDesiredVelocityShowWhereTheAgentSteers) {
  // Behind the first pillar (x 10-11, z 11-13): the path turns round one of its corners.
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int id = crowd.add_agent({5.0f, 0.0f, 12.0f});
  const glm::vec3 goal(16.0f, 0.0f, 12.0f);
  crowd.request_move_target(id, goal);
  crowd.update(0.1f);
  crowd.update(0.1f);
  const std::vector<CrowdCorner> corners = crowd.corners(id);
  ASSERT_FALSE(corners.empty());
  EXPECT_FALSE(corners.front().is_target);
  EXPECT_NEAR(corners.front().position.x, 10.0f, 0.8f);
  EXPECT_NEAR(std::abs(corners.front().position.z - 12.0f), 1.0f, 0.8f);
  EXPECT_FALSE(corners.front().enters_link);
  const glm::vec2 wants = crowd.desired_velocity(id);
  const glm::vec3 to_corner = corners.front().position - crowd.position(id);
  EXPECT_NEAR(glm::length(wants), crowd.agent_parameters(id).max_speed, 1e-3f);
  EXPECT_GT(glm::dot(glm::normalize(wants), glm::normalize(glm::vec2(to_corner.x, to_corner.z))),
            0.9f);
  // Past the pillar the target is in sight: the last corner, and the only one.
  for (int step = 0; step < 60; ++step)
    crowd.update(0.1f);
  const std::vector<CrowdCorner> last = crowd.corners(id);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_TRUE(last.front().is_target);
  EXPECT_LT(ground_distance(last.front().position, crowd.target(id)), 1e-4f);
}

/// A file in the temporary directory, removed when it goes.
struct TempFile {
  explicit TempFile(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("crowd_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  std::filesystem::path path;
};

/// Walkers across the world past each other, a follower, an agent moving by velocity, one with
/// other parameters and a removed one, after `steps` updates.
Crowd busy_crowd(int steps) {
  Crowd crowd(callers_navmesh().detour(), cpu());
  const int a = crowd.add_agent({2.0f, 0.0f, 12.0f});
  const int b = crowd.add_agent({46.0f, 0.0f, 12.5f});
  const int follower = crowd.add_agent({2.0f, 0.0f, 10.0f});
  const int mover = crowd.add_agent({30.0f, 0.0f, 3.0f});
  AgentParams fast;
  fast.max_speed = 2.0f;
  fast.avoidance = avoidance_defaults(kAvoidanceTtc);
  const int c = crowd.add_agent({5.0f, 0.0f, 20.0f}, fast);
  const int gone = crowd.add_agent({8.0f, 0.0f, 20.0f});
  crowd.request_move_target(a, {46.0f, 0.0f, 12.0f});
  crowd.request_move_target(b, {2.0f, 0.0f, 12.0f});
  crowd.request_follow(follower, a, {-1.0f, 0.0f, -1.5f});
  crowd.request_move_velocity(mover, {-1.0f, 0.0f, 0.3f});
  crowd.request_move_target(c, {40.0f, 0.0f, 20.0f});
  crowd.remove_agent(gone);
  for (int step = 0; step < steps; ++step)
    crowd.update(0.1f);
  return crowd;
}

void expect_same_crowds(const Crowd& x, const Crowd& y) {
  ASSERT_EQ(x.agent_count(), y.agent_count());
  for (int id = 0; id < x.agent_count(); ++id) {
    EXPECT_EQ(x.is_active(id), y.is_active(id)) << id;
    EXPECT_EQ(x.position(id), y.position(id)) << id;
    EXPECT_EQ(x.velocity(id), y.velocity(id)) << id;
    EXPECT_EQ(x.target(id), y.target(id)) << id;
    EXPECT_EQ(x.target_state(id), y.target_state(id)) << id;
    EXPECT_EQ(x.agent_parameters(id).max_speed, y.agent_parameters(id).max_speed) << id;
  }
  EXPECT_EQ(x.path_searches(), y.path_searches());
}

TEST(CrowdCheckpoint, ARestoredCrowdStepsOnExactlyAsTheSavedOne) {
  TempFile file("restored.ckp");
  Crowd original = busy_crowd(30);
  original.save(file.path);
  Crowd restored(callers_navmesh().detour(), cpu()); // empty, then the saved state
  restored.restore(file.path);
  expect_same_crowds(original, restored);
  const glm::vec3 follower_target = restored.target(2);
  for (int step = 0; step < 60; ++step) {
    original.update(0.1f);
    restored.update(0.1f);
  }
  expect_same_crowds(original, restored);
  EXPECT_EQ(restored.target_state(3), CrowdTargetState::Velocity);
  EXPECT_FALSE(restored.is_active(5));
  // The follower still follows its walking leader: its target moved on with it.
  EXPECT_EQ(restored.target_state(2), CrowdTargetState::Valid);
  EXPECT_GT(ground_distance(restored.target(2), follower_target), 3.0f);
}

TEST(CrowdCheckpoint, AFileItCannotUseIsRefusedAndTheCrowdIsUnchanged) {
  TempFile saved("saved.ckp");
  busy_crowd(10).save(saved.path);
  Crowd crowd = busy_crowd(20);
  const Crowd same = busy_crowd(20);
  const auto refused = [&](const std::filesystem::path& file, const std::string& part) {
    try {
      crowd.restore(file);
      ADD_FAILURE() << "restored " << file;
    } catch (const ApiError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(file.string()), std::string::npos) << message;
      EXPECT_NE(message.find(part), std::string::npos) << message;
    }
    expect_same_crowds(crowd, same);
  };
  refused(saved.path.string() + ".missing", "restore: ");
  // Damaged: one byte of the body flipped.
  TempFile damaged("damaged.ckp");
  std::filesystem::copy_file(saved.path, damaged.path);
  {
    std::fstream f(damaged.path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-20, std::ios::end);
    f.put('\x5a');
  }
  refused(damaged.path, "restore: ");
  // Saved on another navmesh: the same world in one tile.
  std::string one_tile = kWorld;
  one_tile.replace(one_tile.find(", \"tile_size\": 32"), 16, "");
  const NavMesh other = NavMesh::build(parse_scenario(one_tile, "one_tile.json"));
  Crowd elsewhere(other.detour(), cpu());
  elsewhere.add_agent({2.0f, 0.0f, 12.0f});
  TempFile foreign("foreign.ckp");
  elsewhere.save(foreign.path);
  refused(foreign.path, "another navmesh");
}

TEST(CrowdCheckpoint, AFileThatCannotBeWrittenIsAnApiError) {
  const Crowd crowd = busy_crowd(5);
  const std::filesystem::path nowhere =
      std::filesystem::temp_directory_path() / "crowd_test_no_such_directory" / "c.ckp";
  try {
    crowd.save(nowhere);
    ADD_FAILURE() << "saved into a directory that does not exist";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find(nowhere.string()), std::string::npos) << e.what();
  }
}

// Each refusal throws ApiError and leaves the crowd as it was.
class CrowdApiErrors : public ::testing::Test {
protected:
  CrowdApiErrors() : crowd(callers_navmesh().detour(), cpu()) {
    walker = crowd.add_agent({2.0f, 0.0f, 4.0f});
    gone = crowd.add_agent({2.0f, 0.0f, 8.0f});
    crowd.remove_agent(gone);
    crowd.request_move_target(walker, {20.0f, 0.0f, 4.0f});
    crowd.update(0.1f);
    before = crowd.position(walker);
    target = crowd.target(walker);
  }
  void expect_unchanged() const {
    EXPECT_EQ(crowd.agent_count(), 2);
    EXPECT_EQ(crowd.position(walker), before);
    EXPECT_EQ(crowd.target(walker), target);
    EXPECT_EQ(crowd.target_state(walker), CrowdTargetState::Valid);
    EXPECT_FALSE(crowd.is_active(gone));
  }
  Crowd crowd;
  int walker = -1, gone = -1;
  glm::vec3 before{0.0f}, target{0.0f};
};

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST_F(CrowdApiErrors, AnUnknownId) {
  EXPECT_THROW(crowd.request_move_target(7, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.request_move_velocity(2, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW((void)crowd.desired_velocity(-3), ApiError);
  EXPECT_THROW((void)crowd.corners(2), ApiError);
  EXPECT_THROW(crowd.remove_agent(-1), ApiError);
  EXPECT_THROW((void)crowd.position(2), ApiError);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, ARemovedAgent) {
  EXPECT_THROW(crowd.request_move_target(gone, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.reset_move_target(gone), ApiError);
  EXPECT_THROW(crowd.request_move_velocity(gone, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(crowd.remove_agent(gone), ApiError);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, ANonFinitePositionOrTarget) {
  EXPECT_THROW(crowd.add_agent({kNan, 0.0f, 1.0f}), ApiError);
  EXPECT_THROW(crowd.request_move_target(walker, {1.0f, kNan, 1.0f}), ApiError);
  EXPECT_THROW(crowd.request_move_velocity(walker, {kNan, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(
      crowd.request_move_velocity(walker, {std::numeric_limits<float>::infinity(), 0.0f, 0.0f}),
      ApiError);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, NoNavmeshNearThePositionOrTarget) {
  EXPECT_THROW(crowd.add_agent({200.0f, 0.0f, 4.0f}), ApiError);
  EXPECT_THROW(crowd.request_move_target(walker, {24.0f, 0.0f, 40.0f}), ApiError);
  EXPECT_THROW(crowd.request_move_target(walker, {20.0f, 6.0f, 4.0f}), ApiError); // above
  expect_unchanged();
}

TEST_F(CrowdApiErrors, APathMoveOrPlacementOfNoAgentOrToNoFinitePoint) {
  EXPECT_THROW(crowd.request_path(gone, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.request_path(9, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.request_path(walker, {kNan, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW((void)crowd.adjust_move_target(gone, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW((void)crowd.adjust_move_target(walker, {5.0f, kNan, 5.0f}), ApiError);
  EXPECT_THROW(crowd.move_agent(gone, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.move_agent(-1, {5.0f, 0.0f, 5.0f}), ApiError);
  EXPECT_THROW(crowd.move_agent(walker, {5.0f, 0.0f, kNan}), ApiError);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, AScenarioAgentOffTheNavmeshNonFiniteOrOutOfRange) {
  AgentSetup setup;
  setup.json_path = "agents[3]";
  setup.position = {200.0f, 0.0f, 4.0f};
  setup.goal = {5.0f, 0.0f, 5.0f};
  try {
    crowd.add_agent(setup);
    ADD_FAILURE() << "an agent off the navmesh was added";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("agents[3]"), std::string::npos) << e.what();
  }
  setup.position = {5.0f, 0.0f, 5.0f};
  setup.goal = {kNan, 0.0f, 5.0f};
  EXPECT_THROW(crowd.add_agent(setup), ApiError);
  setup.goal = {6.0f, 0.0f, 5.0f};
  setup.params.max_speed = -1.0f;
  EXPECT_THROW(crowd.add_agent(setup), ApiError);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, AFollowOfItselfOrOfNoAgent) {
  EXPECT_THROW(crowd.request_follow(walker, walker, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(crowd.request_follow(walker, gone, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(crowd.request_follow(walker, 9, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(crowd.request_follow(gone, walker, {1.0f, 0.0f, 0.0f}), ApiError);
  EXPECT_THROW(crowd.request_follow(walker, gone, {kNan, 0.0f, 0.0f}), ApiError);
  expect_unchanged();
}

TEST(Crowd, OptionsOutOfRangeAreRefused) {
  CrowdOptions options = cpu();
  options.target_replan_distance = 0.0f;
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
  options = cpu();
  options.target_replan_delay = -1.0f;
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
  options = cpu();
  options.solver.max_corners = 0; // the solver's own options are checked as well
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
  options = cpu();
  options.max_agents = 0;
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
  options = cpu();
  options.max_agent_radius = -0.5f;
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
}

TEST_F(CrowdApiErrors, ParametersOutOfRange) {
  AgentParams params;
  params.radius = -1.0f;
  EXPECT_THROW(crowd.add_agent({5.0f, 0.0f, 5.0f}, params), ApiError);
  EXPECT_THROW(crowd.update_agent_parameters(walker, params), ApiError);
  EXPECT_THROW(crowd.update_agent_parameters(gone, AgentParams{}), ApiError);
  EXPECT_EQ(crowd.agent_parameters(walker).radius, AgentParams{}.radius);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, AQueryFilterOutOfRange) {
  dtQueryFilter filter;
  filter.setExcludeFlags(2);
  EXPECT_THROW(crowd.set_query_filter(16, filter), ApiError);
  EXPECT_THROW(crowd.set_query_filter(-1, filter), ApiError);
  EXPECT_THROW((void)crowd.query_filter(16), ApiError);
  filter.setAreaCost(5, -1.0f);
  EXPECT_THROW(crowd.set_query_filter(1, filter), ApiError);
  filter.setAreaCost(5, kNan);
  EXPECT_THROW(crowd.set_query_filter(1, filter), ApiError);
  EXPECT_EQ(crowd.query_filter(1).getExcludeFlags(), 0); // unchanged
  AgentParams params;
  params.query_filter_type = 16;
  EXPECT_THROW(crowd.add_agent({5.0f, 0.0f, 5.0f}, params), ApiError);
  EXPECT_THROW(crowd.update_agent_parameters(walker, params), ApiError);
  EXPECT_EQ(crowd.agent_parameters(walker).query_filter_type, 0);
  expect_unchanged();
}

TEST_F(CrowdApiErrors, AStepOutOfRange) {
  EXPECT_THROW(crowd.update(0.0f), ApiError);
  EXPECT_THROW(crowd.update(kNan), ApiError);
  EXPECT_THROW(crowd.update(2.0f), ApiError);
  expect_unchanged();
}

TEST(CudaCrowd, VelocityRequestsAndWhatTheAgentsSteerByAreTheCpuExecutors) {
  // The same calls on both executors: the same moves, and the desired velocities and corners
  // the CUDA executor keeps on its device come down equal to the CPU's.
  if (!cuda_device_available())
    GTEST_SKIP() << "no CUDA device: the CUDA executor cannot run here (bash .ci/gpu-sim runs "
                    "this test under GPGPU-Sim)";
  CrowdOptions on_device;
  on_device.backend = BackendKind::Cuda;
  Crowd gpu(callers_navmesh().detour(), on_device);
  Crowd cpu_crowd(callers_navmesh().detour(), cpu());
  for (Crowd* crowd : {&gpu, &cpu_crowd}) {
    const int walker = crowd->add_agent({5.0f, 0.0f, 12.0f});
    const int mover = crowd->add_agent({14.0f, 0.0f, 4.0f});
    crowd->request_move_target(walker, {16.0f, 0.0f, 12.0f});
    crowd->request_move_velocity(mover, {-1.0f, 0.0f, 0.5f});
  }
  for (int step = 0; step < 12; ++step) {
    gpu.update(0.1f);
    cpu_crowd.update(0.1f);
    for (int id = 0; id < 2; ++id) {
      EXPECT_EQ(gpu.position(id), cpu_crowd.position(id)) << "step " << step;
      EXPECT_EQ(gpu.desired_velocity(id), cpu_crowd.desired_velocity(id)) << "step " << step;
      const std::vector<CrowdCorner> a = gpu.corners(id), b = cpu_crowd.corners(id);
      ASSERT_EQ(a.size(), b.size()) << "step " << step;
      for (std::size_t c = 0; c < a.size(); ++c)
        EXPECT_EQ(a[c].position, b[c].position) << "step " << step << " corner " << c;
    }
  }
  EXPECT_FALSE(gpu.corners(0).empty());
  EXPECT_NE(gpu.desired_velocity(1), glm::vec2(0.0f));
}

TEST(CudaCrowd, ACheckpointOfTheCpuExecutorStepsOnAlikeOnTheDevice) {
  if (!cuda_device_available())
    GTEST_SKIP() << "no CUDA device: the CUDA executor cannot run here (bash .ci/gpu-sim runs "
                    "this test under GPGPU-Sim)";
  TempFile file("to_device.ckp");
  Crowd on_cpu = busy_crowd(10);
  on_cpu.save(file.path);
  CrowdOptions on_device;
  on_device.backend = BackendKind::Cuda;
  Crowd gpu(callers_navmesh().detour(), on_device);
  gpu.restore(file.path);
  EXPECT_EQ(gpu.executor_name(), "cuda");
  for (int step = 0; step < 8; ++step) {
    on_cpu.update(0.1f);
    gpu.update(0.1f);
  }
  expect_same_crowds(on_cpu, gpu);
}

TEST(Crowd, TheCudaExecutorIsRefusedWhereThereIsNone) {
  if (cuda_device_available())
    GTEST_SKIP() << "a CUDA device is present: the CUDA executor is not refused";
  CrowdOptions options;
  options.backend = BackendKind::Cuda;
  EXPECT_THROW(Crowd crowd(callers_navmesh().detour(), options), ApiError);
  options.backend = BackendKind::Auto; // the CPU executor, then
  EXPECT_EQ(Crowd(callers_navmesh().detour(), options).executor_name(), "cpu");
}

TEST(Crowd, ANavmeshWithLargerPolygonsThanTheKernelsTakeIsRefused) {
  // A copy of one tile of the caller's navmesh whose first polygon claims 7 vertices.
  const dtNavMesh& source = callers_navmesh().detour();
  const dtMeshTile* tile = source.getTile(0);
  ASSERT_NE(tile, nullptr);
  ASSERT_NE(tile->header, nullptr);
  auto* data = static_cast<unsigned char*>(dtAlloc(tile->dataSize, DT_ALLOC_PERM));
  std::memcpy(data, tile->data, static_cast<std::size_t>(tile->dataSize));
  const auto polys_at = [](int verts) {
    const auto align4 = [](int x) { return (x + 3) & ~3; };
    return align4(static_cast<int>(sizeof(dtMeshHeader))) +
           align4(static_cast<int>(sizeof(float)) * 3 * verts);
  };
  auto* first = reinterpret_cast<dtPoly*>(data + polys_at(tile->header->vertCount));
  ASSERT_EQ(first->vertCount, tile->polys[0].vertCount); // the copy's layout is the tile's
  first->vertCount = 7;
  dtNavMesh* bad = dtAllocNavMesh();
  ASSERT_TRUE(dtStatusSucceed(bad->init(source.getParams())));
  ASSERT_TRUE(dtStatusSucceed(bad->addTile(data, tile->dataSize, DT_TILE_FREE_DATA, 0, nullptr)));
  try {
    Crowd crowd(*bad, cpu());
    ADD_FAILURE() << "a polygon of 7 vertices was taken";
  } catch (const ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("has 7 vertices; the crowd's kernels take 3 to 6"),
              std::string::npos)
        << e.what();
  }
  dtFreeNavMesh(bad);
}

TEST(Crowd, AgentsCrossTheOffMeshLinksOfTheCallersNavmesh) {
  // The split room with a link over its wall: the walk round is 37 m, over the link 20.
  const NavMesh linked = NavMesh::build(
      parse_scenario(test::split_room(R"([{"start": [12, 3], "end": [18, 3]}])"), "links.json"));
  Crowd crowd(linked.detour(), cpu());
  const int id = crowd.add_agent({5.0f, 0.0f, 3.0f});
  crowd.request_move_target(id, {25.0f, 0.0f, 3.0f});
  int on_link = 0, updates = 0;
  for (; updates < 300 && ground_distance(crowd.position(id), crowd.target(id)) > 0.5f; ++updates) {
    crowd.update(0.1f);
    on_link += crowd.is_on_link(id) ? 1 : 0;
  }
  EXPECT_GT(on_link, 15);  // about 2.1 s over the link
  EXPECT_LT(updates, 200); // under 20 s: not round the wall
  EXPECT_FALSE(crowd.is_on_link(id));
}

TEST(Crowd, ANavmeshWithoutPolygonsIsRefused) {
  dtNavMesh* empty = dtAllocNavMesh();
  dtNavMeshParams params{};
  params.tileWidth = 10.0f;
  params.tileHeight = 10.0f;
  params.maxTiles = 4;
  params.maxPolys = 64;
  ASSERT_FALSE(dtStatusFailed(empty->init(&params)));
  EXPECT_THROW(Crowd crowd(*empty, cpu()), ApiError);
  dtFreeNavMesh(empty);
}

} // namespace
} // namespace crowd

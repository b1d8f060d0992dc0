// cuda/kernels/fault_guard.h and the kernels that use it: a stage that computes a non-finite
// value for one agent stores nothing non-finite, leaves the agent where it was at rest, and
// names itself in the agent's status; the other agents never read the bad value.
#include "cuda/kernels/collision.h"
#include "cuda/kernels/fault_guard.h"
#include "cuda/kernels/integration.h"
#include "cuda/kernels/proximity.h"
#include "cuda/kernels/separation.h"
#include "tests/support/crowd_test_support.h"

#include <gtest/gtest.h>
#include <limits>

namespace crowd {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

/// Two moving agents 1 m apart, each the other's only neighbour.
AgentArrays two_agents() {
  AgentArrays a = test::make_agent_arrays(6, 8);
  for (int i = 0; i < 2; ++i) {
    a.append({static_cast<float>(i), 0.0f, 0.0f}, 0.4f, 2.0f, 8.0f, 4.8f, 2.0f, 0);
    a.mode[at(i)] = kAgentMoving;
    a.desired_speed[at(i)] = 1.4f;
    a.neighbor_index[at(i) * 6] = 1 - i;
    a.neighbor_distance_sq[at(i) * 6] = 1.0f;
    a.neighbor_count[at(i)] = 1;
  }
  return a;
}

TEST(FaultGuard, IsFiniteTellsNaNAndInfinityFromNumbers) {
  EXPECT_TRUE(is_finite(0.0f));
  EXPECT_TRUE(is_finite(-3.0e38f));
  EXPECT_TRUE(is_finite(std::numeric_limits<float>::denorm_min()));
  EXPECT_FALSE(is_finite(kNaN));
  EXPECT_FALSE(is_finite(kInf));
  EXPECT_FALSE(is_finite(-kInf));
  EXPECT_FALSE(is_finite(glm::vec2(1.0f, kNaN)));
  EXPECT_FALSE(is_finite(glm::vec3(kInf, 0.0f, 0.0f)));
  EXPECT_TRUE(is_finite(glm::vec3(1.0f, 2.0f, 3.0f)));
}

TEST(FaultGuard, SteeringWithANonFinitePreferredVelocityStoresZeroAndMarksTheAgent) {
  AgentArrays a = two_agents();
  a.preferred_velocity[0] = {kNaN, 1.0f};
  a.preferred_velocity[1] = {-1.0f, 0.0f};
  const AgentView v = a.view();
  steer_with_separation(0, v, StandoffParams{}, 0.1f);
  steer_with_separation(1, v, StandoffParams{}, 0.1f);
  EXPECT_EQ(a.desired_velocity[0], glm::vec2(0.0f));
  EXPECT_EQ(a.status[0] & kFaultBits, kFaultSteering);
  EXPECT_TRUE(is_finite(a.desired_velocity[1]));
  EXPECT_EQ(a.status[1] & kFaultBits, 0);
}

TEST(FaultGuard, IntegrationWithANonFiniteVelocityLeavesTheAgentWhereItWasAtRest) {
  AgentArrays a = two_agents();
  a.velocity[0] = {0.5f, 0.0f};
  a.new_velocity[0] = {kInf, 0.0f};
  const glm::vec3 before = a.position[0];
  integrate_agent(0, a.view(), 0.1f);
  EXPECT_EQ(a.position[0], before);
  EXPECT_EQ(a.velocity[0], glm::vec2(0.0f));
  EXPECT_EQ(a.new_velocity[0], glm::vec2(0.0f));
  EXPECT_EQ(a.status[0] & kFaultBits, kFaultIntegration);
}

TEST(FaultGuard, AFiniteStepIsUnchangedByTheGuard) {
  AgentArrays a = two_agents();
  a.new_velocity[0] = {1.0f, 0.0f};
  integrate_agent(0, a.view(), 0.1f);
  EXPECT_FLOAT_EQ(a.position[0].x, 0.08f); // 8 m/s^2 x 0.1 s = 0.8 m/s, for 0.1 s
  EXPECT_EQ(a.status[0] & kFaultBits, 0);
}

TEST(FaultGuard, ANonFiniteDisplacementIsNotAppliedSoNeighboursReadAFinitePosition) {
  AgentArrays a = two_agents();
  a.displacement[0] = {kNaN, 0.0f};
  a.displacement[1] = {0.1f, 0.0f};
  const AgentView v = a.view();
  apply_displacement(0, v);
  apply_displacement(1, v);
  EXPECT_EQ(a.position[0], glm::vec3(0.0f));
  EXPECT_EQ(a.status[0] & kFaultBits, kFaultCollision);
  // The next pass: agent 1 reads agent 0's position, which stayed finite.
  collision_displacement(1, v, CollisionParams{});
  EXPECT_TRUE(is_finite(a.displacement[1]));
  EXPECT_EQ(a.status[1] & kFaultBits, 0);
}

TEST(FaultGuard, FaultBitsSurviveTheProximityStage) {
  AgentArrays a = two_agents();
  a.status[0] = kFaultIntegration;
  const AgentView view = a.view();
  const test::HostAgentGrid grid(make_grid_spec({-5.0f, -5.0f}, {5.0f, 5.0f}, 5.0f), view);
  find_neighbors(0, view, grid.view);
  EXPECT_EQ(a.neighbor_count[0], 1);
  EXPECT_EQ(a.status[0] & kFaultBits, kFaultIntegration);
}

} // namespace
} // namespace crowd

// host/sim/contact_arrival.h: who arrives by touching an agent that arrived at its goal first.
#include "host/sim/contact_arrival.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

/// Agents of radius 0.4 at the given ground points, all heading for `goal`.
struct Scene {
  std::vector<AgentSetup> setups;
  std::vector<AgentPhase> phases;
  std::vector<glm::vec3> positions;
  std::vector<std::uint8_t> candidate;

  int add(glm::vec2 at, glm::vec2 goal, AgentPhase phase) {
    AgentSetup s;
    s.position = {at.x, 0.0f, at.y};
    s.goal = {goal.x, 0.0f, goal.y};
    setups.push_back(s);
    phases.push_back(phase);
    positions.push_back(s.position);
    candidate.push_back(phase == AgentPhase::Walking ? 1 : 0);
    return static_cast<int>(setups.size()) - 1;
  }
  std::vector<int> find() {
    ContactArrival arrival(2.0f);
    return arrival.find(AgentSetupTable(setups), phases, positions, candidate);
  }
};

constexpr glm::vec2 kGoal{0.0f, 0.0f};

TEST(ContactArrival, AWalkerTouchingAnAgentArrivedAtTheSameGoalArrives) {
  Scene scene;
  scene.add({0.1f, 0.0f}, kGoal, AgentPhase::Arrived);
  const int walker = scene.add({0.95f, 0.0f}, kGoal, AgentPhase::Walking); // 0.85 m apart
  EXPECT_EQ(scene.find(), std::vector<int>{walker});
}

TEST(ContactArrival, AGapWiderThanTheSlackIsNoContact) {
  Scene scene;
  scene.add({0.0f, 0.0f}, kGoal, AgentPhase::Arrived);
  // Contact reaches (0.4 + 0.4) x (1 + kContactSlack) = 0.92 m.
  scene.add({0.95f, 0.0f}, kGoal, AgentPhase::Walking);
  EXPECT_TRUE(scene.find().empty());
}

TEST(ContactArrival, AnArrivedAgentFartherFromTheGoalDoesNotBlockTheWay) {
  Scene scene;
  scene.add({1.2f, 0.0f}, kGoal, AgentPhase::Arrived);
  scene.add({0.6f, 0.0f}, kGoal, AgentPhase::Walking); // between it and the goal
  EXPECT_TRUE(scene.find().empty());
}

TEST(ContactArrival, AnAgentArrivedElsewhereOnlyCountsWhenItStandsOnTheWalkersGoal) {
  Scene scene;
  // Arrived at (3, 0), standing 0.5 m from the walker's goal: the walker cannot stand there.
  scene.add({0.5f, 0.0f}, {3.0f, 0.0f}, AgentPhase::Arrived);
  const int blocked = scene.add({1.3f, 0.0f}, kGoal, AgentPhase::Walking);
  // Arrived at (3, 5), standing 1 m from this walker's goal at (5, 5): room is left there.
  scene.add({4.0f, 5.0f}, {3.0f, 5.0f}, AgentPhase::Arrived);
  scene.add({3.2f, 5.0f}, {5.0f, 5.0f}, AgentPhase::Walking);
  EXPECT_EQ(scene.find(), std::vector<int>{blocked});
}

TEST(ContactArrival, ArrivalSpreadsOneRingOfContactsPerCall) {
  Scene scene;
  scene.add({0.0f, 0.0f}, kGoal, AgentPhase::Arrived);
  const int first = scene.add({0.85f, 0.0f}, kGoal, AgentPhase::Walking);
  const int second = scene.add({1.7f, 0.0f}, kGoal, AgentPhase::Walking);
  EXPECT_EQ(scene.find(), std::vector<int>{first}) << "the second touches a walker only";
  scene.phases[static_cast<std::size_t>(first)] = AgentPhase::Arrived;
  scene.candidate[static_cast<std::size_t>(first)] = 0;
  EXPECT_EQ(scene.find(), std::vector<int>{second});
}

TEST(ContactArrival, OnlyCandidatesArriveAndOtherFloorsDoNotTouch) {
  Scene scene;
  scene.add({0.0f, 0.0f}, kGoal, AgentPhase::Arrived);
  const int not_candidate = scene.add({0.85f, 0.0f}, kGoal, AgentPhase::Walking);
  scene.candidate[static_cast<std::size_t>(not_candidate)] = 0; // e.g. arrival rule Radius
  const int upstairs = scene.add({-0.85f, 0.0f}, kGoal, AgentPhase::Walking);
  scene.positions[static_cast<std::size_t>(upstairs)].y = 3.0f;
  EXPECT_TRUE(scene.find().empty());
}

} // namespace
} // namespace crowd

// How an agent's colour is chosen (host/render/agent_style.cpp), without drawing: the state a
// frame shows, waiting at a waypoint apart from stuck, and the type palette's order.
#include "host/render/agent_style.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

AgentSetup standing_agent(glm::vec3 position, glm::vec3 goal) {
  AgentSetup s;
  s.position = position;
  s.goal = goal;
  s.params.max_speed = 1.5f;
  s.params.arrival_radius = 0.5f;
  return s;
}

AgentState state_of(const AgentSetup& s, glm::vec3 at, glm::vec2 velocity) {
  const std::vector<glm::vec3> positions = {at};
  const std::vector<glm::vec2> velocities = {velocity};
  return static_cast<AgentState>(agent_states({s}, positions, velocities)[0]);
}

TEST(AgentStyle, StandingAtAWaypointItWaitsAtIsWaitingNotSlowed) {
  AgentSetup s = standing_agent({0, 0, 0}, {10, 0, 0});
  s.waypoints = {{{4, 0, 0}, 3.0f}, {{6, 0, 0}, 0.0f}};
  EXPECT_EQ(state_of(s, {4.3f, 0, 0}, {0, 0}), AgentState::Waiting) << "within arrival radius";
  EXPECT_EQ(state_of(s, {4.0f, 0, 0.02f}, {0.1f, 0}), AgentState::Waiting) << "nudged, still";
  EXPECT_EQ(state_of(s, {4.0f, 0, 0}, {1.2f, 0}), AgentState::Walking) << "walking through";
  EXPECT_EQ(state_of(s, {6.0f, 0, 0}, {0, 0}), AgentState::Slowed) << "no wait at that one";
  EXPECT_EQ(state_of(s, {4.6f, 0, 0}, {0, 0}), AgentState::Slowed) << "short of the waypoint";
  EXPECT_EQ(state_of(s, {10.0f, 0, 0}, {0, 0}), AgentState::AtGoal);
}

TEST(AgentStyle, WaitingHasItsOwnStateColour) {
  const glm::vec3 waiting = palette::kStateColours[static_cast<int>(AgentState::Waiting)];
  for (const AgentState other : {AgentState::Walking, AgentState::Slowed, AgentState::AtGoal}) {
    const glm::vec3 d = waiting - palette::kStateColours[static_cast<int>(other)];
    EXPECT_GT(glm::length(d), 0.3f) << "state " << static_cast<int>(other);
  }
}

TEST(AgentStyle, TtcRatiosGoFromRedToGreenAndLeavingTheNavmeshHasItsOwnColour) {
  EXPECT_EQ(ttc_ratio_colour(0.0f), glm::vec4(palette::kSpeedStops[0], 1.0f));
  EXPECT_EQ(ttc_ratio_colour(1.0f), glm::vec4(palette::kSpeedStops[2], 1.0f));
  EXPECT_EQ(ttc_ratio_colour(-1.0f), palette::kTtcLeaves);
  for (const float ratio : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f})
    EXPECT_GT(glm::length(ttc_ratio_colour(ratio) - palette::kTtcLeaves), 0.3f) << ratio;
  EXPECT_GT(glm::length(palette::kTtcStopped - palette::kTtcForced), 0.3f);
}

TEST(AgentStyle, TypeColoursFollowTheLabelsInOrderOfFirstAppearance) {
  std::vector<AgentSetup> setups(11, standing_agent({0, 0, 0}, {1, 0, 0}));
  const char* labels[] = {"zebra", "ant", "zebra", "moth", "t4", "t5",
                          "t6",    "t7",  "t8",    "t9",   "ant"};
  for (std::size_t i = 0; i < setups.size(); ++i)
    setups[i].params.type = labels[i];
  // zebra 0, ant 1, moth 2, t4..t8 3..7, t9 the ninth label: the palette starts over.
  EXPECT_EQ(agent_type_colours(setups), (std::vector<float>{0, 1, 0, 2, 3, 4, 5, 6, 7, 0, 1}));
}

} // namespace
} // namespace crowd

// host/output/lane_order.h: the lane-order index of counter-flows.
#include "host/output/lane_order.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

/// Agents of radius 0.3, walking; those at x < 0 of `east` head +x, the others -x.
struct Flow {
  std::vector<glm::vec3> at, targets;
  void add(float x, float z, bool east) {
    at.push_back({x, 0.0f, z});
    targets.push_back({east ? 50.0f : -50.0f, 0.0f, z});
  }
  std::optional<double> index() const {
    LaneOrder lanes(2.0f);
    for (std::size_t i = 0; i < at.size(); ++i)
      lanes.add_agent(0.3f);
    lanes.observe(at, std::vector<AgentPhase>(at.size(), AgentPhase::Walking), targets);
    return lanes.index();
  }
};

TEST(LaneOrder, TwoCleanLanesScoreOne) {
  Flow flow;
  for (int k = 0; k < 5; ++k) {
    flow.add(static_cast<float>(k), 0.0f, true);  // lane z = 0 heads east
    flow.add(static_cast<float>(k), 1.0f, false); // lane z = 1 heads west
  }
  ASSERT_TRUE(flow.index().has_value());
  EXPECT_DOUBLE_EQ(*flow.index(), 1.0);
}

TEST(LaneOrder, AlternatingWalkersInOneLaneScoreLow) {
  Flow flow;
  for (int k = 0; k < 6; ++k)
    flow.add(static_cast<float>(k), 0.0f, k % 2 == 0);
  ASSERT_TRUE(flow.index().has_value());
  EXPECT_LT(*flow.index(), 0.2);
}

TEST(LaneOrder, NoCounterFlowNoIndex) {
  Flow flow;
  for (int k = 0; k < 5; ++k)
    flow.add(static_cast<float>(k), 0.0f, true);
  EXPECT_FALSE(flow.index().has_value());
  // Opposing walkers beyond kRange do not count either.
  flow.add(20.0f, 0.0f, false);
  EXPECT_FALSE(flow.index().has_value());
}

TEST(LaneOrder, AgentsNotWalkingAreLeftOut) {
  LaneOrder lanes(2.0f);
  lanes.add_agent(0.3f);
  lanes.add_agent(0.3f);
  const std::vector<glm::vec3> at{{0, 0, 0}, {1, 0, 0}};
  const std::vector<glm::vec3> targets{{50, 0, 0}, {-50, 0, 0}};
  lanes.observe(at, std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Arrived}, targets);
  EXPECT_EQ(lanes.samples(), 0);
  lanes.observe(at, std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Walking}, targets);
  EXPECT_EQ(lanes.samples(), 2);
  EXPECT_DOUBLE_EQ(*lanes.index(), 0.0) << "head on in one lane, nobody else: phi = 0";
}

} // namespace
} // namespace crowd

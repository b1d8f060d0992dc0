// host/output/deadlock_monitor.h: which stuck agents count as deadlocked.
#include "host/output/deadlock_monitor.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

/// Agents of radius 0.4 at `at` heading for `targets`, all stuck unless said otherwise.
DeadlockStats observe(const std::vector<glm::vec3>& at, const std::vector<glm::vec3>& targets,
                      std::vector<std::uint8_t> stuck = {}) {
  DeadlockMonitor monitor(2.0f);
  for (std::size_t i = 0; i < at.size(); ++i)
    monitor.add_agent(0.4f);
  if (stuck.empty())
    stuck.assign(at.size(), 1);
  monitor.observe(at, targets, stuck);
  return monitor.stats();
}

TEST(DeadlockMonitor, TwoStuckAgentsFaceToFaceAreDeadlocked) {
  const DeadlockStats s = observe({{0, 0, 0}, {1.5f, 0, 0}}, {{10, 0, 0}, {-10, 0, 0}});
  EXPECT_EQ(s.agents, 2);
  EXPECT_EQ(s.at_end, 2);
}

TEST(DeadlockMonitor, AQueueOfStuckAgentsWalkingOneWayIsNot) {
  const DeadlockStats s =
      observe({{0, 0, 0}, {0.9f, 0, 0}, {1.8f, 0, 0}}, {{10, 0, 0}, {10, 0, 0}, {10, 0.0f, 0.5f}});
  EXPECT_EQ(s.agents, 0);
}

TEST(DeadlockMonitor, FacingAgentsThatAreNotBothStuckOrFarApartAreNot) {
  EXPECT_EQ(observe({{0, 0, 0}, {1.5f, 0, 0}}, {{10, 0, 0}, {-10, 0, 0}}, {1, 0}).agents, 0);
  // Gap 3.2 m: beyond kGap.
  EXPECT_EQ(observe({{0, 0, 0}, {4.0f, 0, 0}}, {{10, 0, 0}, {-10, 0, 0}}).agents, 0);
  // Back to back: neither is in the other's way.
  EXPECT_EQ(observe({{0, 0, 0}, {1.5f, 0, 0}}, {{-10, 0, 0}, {10, 0, 0}}).agents, 0);
}

TEST(DeadlockMonitor, CrossingHeadingsCountAndEverDeadlockedAgentsStayCounted) {
  DeadlockMonitor monitor(2.0f);
  monitor.add_agent(0.4f);
  monitor.add_agent(0.4f);
  // Agent 0 heads +x with agent 1 in front of it, crossing at right angles.
  const std::vector<glm::vec3> at{{0, 0, 0}, {1.0f, 0, 0}};
  const std::vector<glm::vec3> targets{{10, 0, 0}, {1.0f, 0, 10}};
  monitor.observe(at, targets, std::vector<std::uint8_t>{1, 1});
  EXPECT_EQ(monitor.stats().agents, 1) << "agent 1 has agent 0 beside it, not in front";
  monitor.observe(at, targets, std::vector<std::uint8_t>{0, 0});
  EXPECT_EQ(monitor.stats().agents, 1);
  EXPECT_EQ(monitor.stats().at_end, 0);
}

} // namespace
} // namespace crowd

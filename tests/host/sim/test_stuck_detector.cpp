// host/sim/stuck_detector.h: an agent that stays within its diameter of one spot for the
// configured time is stuck, replanned once per interval, and its episode ends when it moves on.
#include "host/sim/stuck_detector.h"

#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

struct Track {
  StuckDetector detector{5.0};
  std::vector<glm::vec3> positions;
  std::vector<std::uint8_t> walking;
  double now = 0.0;

  explicit Track(int agents)
      : positions(static_cast<std::size_t>(agents), glm::vec3(0.0f)),
        walking(static_cast<std::size_t>(agents), 1) {
    for (int i = 0; i < agents; ++i)
      detector.add_agent(positions[static_cast<std::size_t>(i)], 0.5f, now);
  }
  /// Advances by dt and returns the agents to replan.
  std::vector<int> step(double dt = 0.5) {
    now += dt;
    return detector.observe(now, positions, walking);
  }
};

TEST(StuckDetector, AnAgentThatStaysPutIsStuckAfterTheIntervalAndReplannedOncePerInterval) {
  Track run(2);
  std::vector<int> replans;
  for (int k = 0; k < 30; ++k) { // 15 s
    run.positions[1].x += 0.15f; // agent 1 walks at 0.3 m/s: past its 1 m diameter in 3.5 s
    for (const int id : run.step())
      replans.push_back(id);
  }
  // Agent 0 at 5, 10 and 15 s; agent 1, slow but moving, never.
  EXPECT_EQ(replans, (std::vector<int>{0, 0, 0}));
  const StuckStats s = run.detector.stats(run.now);
  EXPECT_EQ(s.agents, 1);
  EXPECT_EQ(s.episodes, 1);
  EXPECT_EQ(s.replans, 3);
  EXPECT_EQ(s.stuck_now, 1);
  EXPECT_DOUBLE_EQ(s.longest_seconds, 15.0) << "the episode began when it last moved";
}

TEST(StuckDetector, MovingOnEndsTheEpisodeAndItsLengthIsKept) {
  Track run(1);
  for (int k = 0; k < 14; ++k) // 7 s: stuck at 5 s
    run.step();
  run.positions[0].x = 3.0f; // moves on
  run.step();                // at 7.5 s
  const StuckStats s = run.detector.stats(run.now);
  EXPECT_EQ(s.episodes, 1);
  EXPECT_EQ(s.stuck_now, 0);
  EXPECT_DOUBLE_EQ(s.total_seconds, 7.5);
  // It walks on without being stuck again.
  for (int k = 0; k < 20; ++k) {
    run.positions[0].x += 0.5f;
    EXPECT_TRUE(run.step().empty());
  }
}

TEST(StuckDetector, AgentsNotWalkingAreNeverStuckAndStoppingClosesAnEpisode) {
  Track run(2);
  run.walking[1] = 0; // arrived, standing
  for (int k = 0; k < 12; ++k)
    run.step();
  EXPECT_EQ(run.detector.stats(run.now).agents, 1);
  run.detector.stop(0, run.now); // arrives at 6 s
  const StuckStats s = run.detector.stats(run.now);
  EXPECT_EQ(s.stuck_now, 0);
  EXPECT_DOUBLE_EQ(s.longest_seconds, 6.0);
}

TEST(StuckDetector, ANewGoalRestartsTheClock) {
  Track run(1);
  for (int k = 0; k < 8; ++k) // 4 s
    run.step();
  run.detector.restart(0, run.positions[0], run.now);
  for (int k = 0; k < 8; ++k) // 4 more: 8 s in place, but only 4 since the new goal
    EXPECT_TRUE(run.step().empty());
}

TEST(StuckDetector, AnAgentThatStartsWalkingAfterStandingStartsItsClockThen) {
  Track run(1);
  run.walking[0] = 0; // not entered yet, or waiting at a waypoint
  for (int k = 0; k < 40; ++k)
    run.step();
  run.walking[0] = 1;
  for (int k = 0; k < 10; ++k) // walks from 20.5 s, in place until 25 s: not yet stuck
    EXPECT_TRUE(run.step().empty());
  EXPECT_EQ(run.step(), (std::vector<int>{0})) << "5 s after it started walking";
}

TEST(StuckDetector, ZeroSecondsTurnsDetectionOff) {
  StuckDetector off(0.0);
  off.add_agent(glm::vec3(0.0f), 0.5f, 0.0);
  const std::vector<glm::vec3> positions(1, glm::vec3(0.0f));
  const std::vector<std::uint8_t> walking(1, 1);
  for (int k = 1; k < 100; ++k)
    EXPECT_TRUE(off.observe(k, positions, walking).empty());
  EXPECT_EQ(off.stats(100.0).agents, 0);
}

} // namespace
} // namespace crowd

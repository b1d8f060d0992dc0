// cuda/kernels/standoff.h: when an agent counts as blocked, how long it waits, which way it
// sidesteps, how it keeps to its side when a walker comes at it, and that it passes its
// preferred velocity on untouched otherwise.
#include "cuda/kernels/standoff.h"
#include "tests/support/crowd_test_support.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

constexpr float kDt = 0.1f;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

/// Agent 0 at the origin walking +x; agent 1 at `other` walking `other_wish`; each the
/// other's only neighbour; both standing still (velocity 0).
AgentArrays face_to_face(glm::vec2 other = {0.85f, 0.0f}, glm::vec2 other_wish = {-1.4f, 0.0f},
                         std::uint8_t side = kStandoffRight) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  const glm::vec2 places[2] = {{0.0f, 0.0f}, other};
  const glm::vec2 wishes[2] = {{1.4f, 0.0f}, other_wish};
  for (int i = 0; i < 2; ++i) {
    a.append({places[i].x, 0.0f, places[i].y}, 0.4f, 2.0f, 8.0f, 4.8f, 2.0f, 0, side);
    a.mode[at(i)] = kAgentMoving;
    a.desired_speed[at(i)] = 1.4f;
    a.preferred_velocity[at(i)] = wishes[i];
    a.neighbor_index[at(i) * 6] = 1 - i;
    a.neighbor_count[at(i)] = 1;
  }
  return a;
}

/// Wait 1 s, manoeuvres of 0.5 s turning 90 degrees; no keeping to the side.
StandoffParams quarter_turn() {
  return {1.0f, 0.5f, 0.0f, 1.0f, 0.4f, 1.0f, 0.0f};
}

/// Runs the breaker for agent 0 `steps` times and returns its last preferred velocity.
glm::vec2 run(AgentArrays& a, int steps, const StandoffParams& params = quarter_turn()) {
  glm::vec2 pref{0.0f};
  for (int k = 0; k < steps; ++k)
    pref = standoff_preferred_velocity(0, a.view(), params, kDt);
  return pref;
}

TEST(Standoff, AnAgentBlockedFaceToFaceWaitsThenSidestepsToItsRight) {
  AgentArrays a = face_to_face();
  // 1 s of 0.1 s steps: the wait runs out on the tenth, which starts the sidestep.
  for (int k = 0; k < 9; ++k)
    EXPECT_EQ(run(a, 1), glm::vec2(1.4f, 0.0f)) << "step " << k;
  EXPECT_FALSE(in_standoff_manoeuvre(0, a.view()));
  // Walking +x, its right is +z (right-handed, y up: (x, z) -> (-z, x)).
  EXPECT_EQ(run(a, 1), glm::vec2(0.0f, 1.4f));
  EXPECT_EQ(a.standoff_clock[0].x, -0.5f);
  EXPECT_TRUE(in_standoff_manoeuvre(0, a.view()));
  // The sidestep lasts 0.5 s (5 steps), then the preferred velocity is passed on again.
  EXPECT_EQ(run(a, 4), glm::vec2(0.0f, 1.4f));
  EXPECT_EQ(run(a, 1), glm::vec2(1.4f, 0.0f));
  EXPECT_EQ(a.standoff_clock[0].x, 0.0f);
  EXPECT_FALSE(in_standoff_manoeuvre(0, a.view()));
  a.velocity[0] = {1.0f, 0.0f}; // walking again
  EXPECT_EQ(run(a, 1), glm::vec2(1.4f, 0.0f));
  EXPECT_EQ(a.standoff_clock[0].x, 0.0f);
}

TEST(Standoff, BehindAStandingAgentTheManoeuvreShortensTheHorizonButDoesNotTurn) {
  AgentArrays a = face_to_face({2.0f, 0.0f}); // 2 m ahead: within 0.8 m + 1.5 s x 1.4 m/s
  a.mode[1] = kAgentStanding;
  EXPECT_EQ(run(a, 10), glm::vec2(1.4f, 0.0f));
  EXPECT_TRUE(in_standoff_manoeuvre(0, a.view()));
}

TEST(Standoff, KeepLeftSidestepsTheOtherWayAndOffNeverActs) {
  AgentArrays left = face_to_face({0.85f, 0.0f}, {-1.4f, 0.0f}, kStandoffLeft);
  EXPECT_EQ(run(left, 10), glm::vec2(0.0f, -1.4f));
  AgentArrays off = face_to_face({0.85f, 0.0f}, {-1.4f, 0.0f}, kStandoffOff);
  for (int k = 0; k < 40; ++k)
    ASSERT_EQ(run(off, 1), glm::vec2(1.4f, 0.0f));
  EXPECT_EQ(off.standoff_clock[0].x, 0.0f);
}

TEST(Standoff, TheTurnIsTheGivenAngle) {
  AgentArrays a = face_to_face();
  const StandoffParams sixty{1.0f, 1.0f, 0.5f, 0.8660254f};
  const glm::vec2 pref = run(a, 10, sixty);
  EXPECT_FLOAT_EQ(pref.x, 0.7f);
  EXPECT_FLOAT_EQ(pref.y, 1.4f * 0.8660254f);
}

TEST(Standoff, NoStandoffWithoutAnAgentInFrontThatWantsToComeThisWay) {
  // Going the same way (a queue).
  AgentArrays queue = face_to_face({0.85f, 0.0f}, {1.4f, 0.0f});
  // Beside, outside the 60-degree cone.
  AgentArrays beside = face_to_face({0.3f, 0.8f});
  // In front but beyond its query range (4.8 m).
  AgentArrays far = face_to_face({5.5f, 0.0f});
  // Crossing in front at right angles, not toward agent 0.
  AgentArrays crossing = face_to_face({0.85f, 0.0f}, {0.0f, 1.4f});
  for (AgentArrays* a : {&queue, &beside, &far, &crossing}) {
    EXPECT_EQ(run(*a, 30), glm::vec2(1.4f, 0.0f));
    EXPECT_EQ(a->standoff_clock[0].x, 0.0f);
  }
}

TEST(Standoff, AnAgentStillWalkingIsNotInAStandoff) {
  AgentArrays walking = face_to_face();
  walking.velocity[0] = {0.4f, 0.0f}; // above a quarter of 1.4 m/s
  EXPECT_EQ(run(walking, 30), glm::vec2(1.4f, 0.0f));
  EXPECT_EQ(walking.standoff_clock[0].x, 0.0f);
}

TEST(Standoff, AWalkerComingAtTheAgentInItsLaneMakesItKeepToItsSideForAWhile) {
  StandoffParams keep = quarter_turn();
  keep.cos_keep = 0.8f; // a turn of about 37 degrees
  keep.sin_keep = 0.6f;
  AgentArrays a = face_to_face({3.0f, 0.3f}); // 3 m ahead, in its lane, coming at it
  a.velocity[0] = {1.4f, 0.0f};               // walking: no standoff
  EXPECT_EQ(run(a, 1, keep), glm::vec2(1.4f * 0.8f, 1.4f * 0.6f));
  EXPECT_EQ(a.standoff_partner[0], 1);
  // The same walker in front for longer than kStandoffMeetingLimit is no passing: the agent
  // walks straight again (two agents converging on one point would circle it for ever).
  const int limit_steps = static_cast<int>(kStandoffMeetingLimit / kDt);
  EXPECT_EQ(run(a, limit_steps - 2, keep), glm::vec2(1.4f * 0.8f, 1.4f * 0.6f));
  EXPECT_EQ(run(a, 3, keep), glm::vec2(1.4f, 0.0f));
  // Out of its lane, or going its way: no turn, and the meeting is over.
  AgentArrays beside = face_to_face({3.0f, 0.9f});
  AgentArrays ahead = face_to_face({3.0f, 0.0f}, {1.4f, 0.0f});
  for (AgentArrays* b : {&beside, &ahead}) {
    b->velocity[0] = {1.4f, 0.0f};
    EXPECT_EQ(run(*b, 1, keep), glm::vec2(1.4f, 0.0f));
    EXPECT_EQ(b->standoff_partner[0], -1);
    EXPECT_EQ(b->standoff_clock[0].y, 0.0f);
  }
}

TEST(Standoff, BeingFreedBeforeTheWaitResetsTheTimer) {
  AgentArrays a = face_to_face();
  run(a, 8);
  EXPECT_NEAR(a.standoff_clock[0].x, 0.8f, 1e-6f);
  a.preferred_velocity[1] = {1.4f, 0.0f}; // the other turns round
  run(a, 1);
  EXPECT_EQ(a.standoff_clock[0].x, 0.0f);
}

} // namespace
} // namespace crowd

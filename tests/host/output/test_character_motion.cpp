// How exported characters face and turn (host/output/character_motion.h): smoothed velocity,
// kept while standing, never turning faster than the turn-rate limit, starting toward the way
// they are about to walk.
#include "host/output/character_motion.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <optional>
#include <vector>

namespace crowd {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr double kFrame = 1.0 / 24.0;

float turn(float a, float b) {
  return std::remainder(a - b, 2.0f * kPi);
}

TEST(CharacterMotion, FacesTheDirectionOfSteadyMotion) {
  CharacterMotion motion(kFrame);
  const std::vector<AgentPhase> phases(4, AgentPhase::Walking);
  // +z, +x, -z, -x: headings 0, pi/2, pi, -pi/2 about +y.
  const std::vector<glm::vec2> velocities = {{0, 1.3f}, {1.3f, 0}, {0, -1.3f}, {-1.3f, 0}};
  motion.update(velocities, phases);
  const auto h = motion.headings();
  EXPECT_NEAR(h[0], 0.0f, 1e-6f);
  EXPECT_NEAR(h[1], kPi / 2, 1e-6f);
  EXPECT_NEAR(std::abs(h[2]), kPi, 1e-6f);
  EXPECT_NEAR(h[3], -kPi / 2, 1e-6f);
  for (const float rate : motion.turn_rates())
    EXPECT_EQ(rate, 0.0f) << "no turn on the first frame";
}

TEST(CharacterMotion, TurnsGraduallyAndKeepsTheLastHeadingWhenStanding) {
  CharacterMotion motion(kFrame);
  const std::vector<AgentPhase> phases(1, AgentPhase::Walking);
  for (int f = 0; f < 48; ++f)
    motion.update(std::vector<glm::vec2>{{1.0f, 0.0f}}, phases);
  EXPECT_NEAR(motion.headings()[0], kPi / 2, 1e-4f);
  // A sudden turn to +z is followed over a few tenths of a second, not in one frame.
  motion.update(std::vector<glm::vec2>{{0.0f, 1.0f}}, phases);
  const float after_one_frame = motion.headings()[0];
  EXPECT_LT(after_one_frame, kPi / 2);
  EXPECT_GT(after_one_frame, kPi / 2 - 0.2f);
  for (int f = 0; f < 48; ++f)
    motion.update(std::vector<glm::vec2>{{0.0f, 1.0f}}, phases);
  EXPECT_NEAR(motion.headings()[0], 0.0f, 0.01f);
  // Standing: velocity 0 for a long time; the heading stays.
  for (int f = 0; f < 240; ++f)
    motion.update(std::vector<glm::vec2>{{0.0f, 0.0f}}, phases);
  EXPECT_NEAR(motion.headings()[0], 0.0f, 0.01f);
}

TEST(CharacterMotion, NeverTurnsFasterThanTheLimitAndReportsTheTurnRate) {
  for (const double limit_degrees : {90.0, 180.0, 360.0}) {
    CharacterMotion motion(kFrame, limit_degrees);
    const float limit = static_cast<float>(limit_degrees * std::numbers::pi / 180.0);
    const std::vector<AgentPhase> phases(1, AgentPhase::Walking);
    motion.update(std::vector<glm::vec2>{{0.0f, 1.4f}}, phases); // facing +z
    // About turn: walking -z from the next frame on (an agent leaving a wait the way it came).
    float previous = motion.headings()[0];
    float largest = 0.0f;
    int frames_turning = 0;
    for (int f = 0; f < 96; ++f) {
      motion.update(std::vector<glm::vec2>{{0.0f, -1.4f}}, phases);
      const float step = turn(motion.headings()[0], previous);
      largest = std::max(largest, std::abs(step));
      EXPECT_NEAR(motion.turn_rates()[0], step / kFrame, 1e-3f) << "frame " << f;
      frames_turning += std::abs(step) > 1e-6f ? 1 : 0;
      previous = motion.headings()[0];
    }
    EXPECT_LE(largest, limit * kFrame * (1.0f + 1e-5f)) << limit_degrees;
    EXPECT_NEAR(std::abs(motion.headings()[0]), kPi, 1e-3f) << "the turn completes";
    // Half a turn at the limit takes pi / limit seconds, at least.
    EXPECT_GE(frames_turning, static_cast<int>(kPi / (limit * kFrame)) - 1) << limit_degrees;
  }
}

TEST(CharacterMotion, AStandingAgentShownFirstFacesTheWayItWillWalk) {
  CharacterMotion motion(kFrame);
  const std::vector<AgentPhase> phases(3, AgentPhase::Walking);
  const std::vector<glm::vec2> standing(3, glm::vec2(0.0f));
  std::vector<int> asked;
  const FacingHint hint = [&](int id) -> std::optional<glm::vec2> {
    asked.push_back(id);
    if (id == 2)
      return std::nullopt; // no way to go: faces +z
    return id == 0 ? glm::vec2(1.0f, 0.0f) : glm::vec2(0.0f, -1.0f);
  };
  motion.update(standing, phases, hint);
  EXPECT_NEAR(motion.headings()[0], kPi / 2, 1e-6f);
  EXPECT_NEAR(std::abs(motion.headings()[1]), kPi, 1e-6f);
  EXPECT_EQ(motion.headings()[2], 0.0f);
  EXPECT_EQ(asked, (std::vector<int>{0, 1, 2}));
  // Asked once, on the first frame shown, not while it keeps standing.
  motion.update(standing, phases, hint);
  EXPECT_EQ(asked.size(), 3u);
  // A moving agent shown first faces its velocity; the hint is not asked.
  CharacterMotion moving(kFrame);
  moving.update(std::vector<glm::vec2>{{-1.0f, 0.0f}}, std::vector<AgentPhase>{AgentPhase::Walking},
                hint);
  EXPECT_NEAR(moving.headings()[0], -kPi / 2, 1e-6f);
  EXPECT_EQ(asked.size(), 3u);
}

TEST(CharacterMotion, AnAgentShownAgainStartsFromItsCurrentVelocity) {
  CharacterMotion motion(kFrame);
  for (int f = 0; f < 10; ++f)
    motion.update(std::vector<glm::vec2>{{1.0f, 0.0f}},
                  std::vector<AgentPhase>{AgentPhase::Walking});
  motion.update(std::vector<glm::vec2>{{0.0f, 0.0f}}, std::vector<AgentPhase>{AgentPhase::Removed});
  motion.update(std::vector<glm::vec2>{{-1.0f, 0.0f}},
                std::vector<AgentPhase>{AgentPhase::Walking});
  EXPECT_NEAR(motion.headings()[0], -kPi / 2, 1e-6f);
  EXPECT_EQ(motion.turn_rates()[0], 0.0f);
}

} // namespace
} // namespace crowd

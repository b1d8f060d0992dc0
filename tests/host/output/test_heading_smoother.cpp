// Facing directions for film exports: smoothed velocity, kept while standing.
#include "host/output/heading_smoother.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <vector>

namespace crowd {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

TEST(HeadingSmoother, FacesTheDirectionOfSteadyMotion) {
  HeadingSmoother smoother(1.0 / 24.0);
  const std::vector<AgentPhase> phases(4, AgentPhase::Walking);
  // +z, +x, -z, -x: headings 0, pi/2, pi, -pi/2 about +y.
  const std::vector<glm::vec2> velocities = {{0, 1.3f}, {1.3f, 0}, {0, -1.3f}, {-1.3f, 0}};
  smoother.update(velocities, phases);
  const auto h = smoother.headings();
  EXPECT_NEAR(h[0], 0.0f, 1e-6f);
  EXPECT_NEAR(h[1], kPi / 2, 1e-6f);
  EXPECT_NEAR(std::abs(h[2]), kPi, 1e-6f);
  EXPECT_NEAR(h[3], -kPi / 2, 1e-6f);
}

TEST(HeadingSmoother, TurnsGraduallyAndKeepsTheLastHeadingWhenStanding) {
  HeadingSmoother smoother(1.0 / 24.0);
  const std::vector<AgentPhase> phases(1, AgentPhase::Walking);
  for (int f = 0; f < 48; ++f)
    smoother.update(std::vector<glm::vec2>{{1.0f, 0.0f}}, phases);
  EXPECT_NEAR(smoother.headings()[0], kPi / 2, 1e-4f);
  // A sudden turn to +z is followed over a few tenths of a second, not in one frame.
  smoother.update(std::vector<glm::vec2>{{0.0f, 1.0f}}, phases);
  const float after_one_frame = smoother.headings()[0];
  EXPECT_GT(after_one_frame, 0.3f);
  EXPECT_LT(after_one_frame, kPi / 2);
  for (int f = 0; f < 48; ++f)
    smoother.update(std::vector<glm::vec2>{{0.0f, 1.0f}}, phases);
  EXPECT_NEAR(smoother.headings()[0], 0.0f, 0.01f);
  // Standing: velocity 0 for a long time; the heading stays.
  for (int f = 0; f < 240; ++f)
    smoother.update(std::vector<glm::vec2>{{0.0f, 0.0f}}, phases);
  EXPECT_NEAR(smoother.headings()[0], 0.0f, 0.01f);
}

TEST(HeadingSmoother, AnAgentShownAgainStartsFromItsCurrentVelocity) {
  HeadingSmoother smoother(1.0 / 24.0);
  for (int f = 0; f < 10; ++f)
    smoother.update(std::vector<glm::vec2>{{1.0f, 0.0f}},
                    std::vector<AgentPhase>{AgentPhase::Walking});
  smoother.update(std::vector<glm::vec2>{{0.0f, 0.0f}},
                  std::vector<AgentPhase>{AgentPhase::Removed});
  smoother.update(std::vector<glm::vec2>{{-1.0f, 0.0f}},
                  std::vector<AgentPhase>{AgentPhase::Walking});
  EXPECT_NEAR(smoother.headings()[0], -kPi / 2, 1e-6f);
}

} // namespace
} // namespace crowd

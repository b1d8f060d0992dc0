// Gait, cycle phase and playback rate of exported characters (host/output/locomotion.h).
#include "host/output/locomotion.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

constexpr double kFrame = 1.0 / 24.0;

/// One agent moved along +x at `speed` for `frames` frames from `x`, returning where it ends.
float walk(Locomotion& locomotion, float x, float speed, int frames,
           AgentPhase phase = AgentPhase::Walking, float turn_rate = 0.0f) {
  for (int f = 0; f < frames; ++f) {
    x += speed * static_cast<float>(kFrame);
    locomotion.update(std::vector<glm::vec3>{{x, 0.0f, 0.0f}},
                      std::vector<glm::vec2>{{speed, 0.0f}}, std::vector<AgentPhase>{phase},
                      std::vector<float>{turn_rate}, {});
  }
  return x;
}

TEST(Locomotion, GaitFollowsSpeedWithABandAtEachBoundary) {
  Locomotion locomotion;
  walk(locomotion, 0.0f, 0.0f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Idle);
  walk(locomotion, 0.0f, 1.3f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Walk);
  walk(locomotion, 0.0f, 2.3f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Run);
  // Just below the walk-run boundary (2.2 m/s): still running, within the 10% band.
  walk(locomotion, 0.0f, 2.1f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Run);
  walk(locomotion, 0.0f, 1.9f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Walk);
  // Just below the idle boundary (0.15 m/s) while walking: still walking.
  walk(locomotion, 0.0f, 0.14f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Walk);
  walk(locomotion, 0.0f, 0.1f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Idle);
  // Standing but turning fast: turning in place.
  walk(locomotion, 0.0f, 0.0f, 1, AgentPhase::Walking, 1.5f);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Turn);
  // Waiting at a waypoint, whatever the rest.
  walk(locomotion, 0.0f, 0.0f, 1, AgentPhase::Waiting);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Wait);
}

TEST(Locomotion, CyclePhaseIsTheDistanceWalkedInCyclesAndRateTheSpeedOverTheClips) {
  Locomotion locomotion;
  const LocomotionClips clips;     // walk 1.4 m/s, 1.5 m a cycle
  walk(locomotion, 0.0f, 0.0f, 1); // shown, standing at 0
  // 1.2 m/s for 24 frames: 1.2 m, 0.8 of a cycle.
  const float x = walk(locomotion, 0.0f, 1.2f, 24);
  EXPECT_NEAR(x, 1.2f, 1e-5f);
  EXPECT_NEAR(locomotion.cycle_phases()[0], 1.2f / clips.walk_cycle, 1e-4f);
  EXPECT_NEAR(locomotion.playback_rates()[0], 1.2f / clips.walk_speed, 1e-6f);
  // Another 0.6 m: past a whole cycle, the phase wraps.
  walk(locomotion, x, 1.2f, 12);
  EXPECT_NEAR(locomotion.cycle_phases()[0], 1.8f / clips.walk_cycle - 1.0f, 1e-4f);
  // Standing: the phase holds (feet planted) and the idle clip plays as authored.
  const float held = locomotion.cycle_phases()[0];
  walk(locomotion, 1.8f, 0.0f, 10);
  EXPECT_EQ(locomotion.cycle_phases()[0], held);
  EXPECT_EQ(locomotion.playback_rates()[0], 1.0f);
  // Running: the run clip's cycle and speed.
  walk(locomotion, 1.8f, 3.0f, 1);
  EXPECT_EQ(locomotion.gaits()[0], Gait::Run);
  EXPECT_NEAR(locomotion.playback_rates()[0], 3.0f / clips.run_speed, 1e-6f);
}

TEST(Locomotion, EachAgentUsesItsOwnClipsAndStartsANewCycleWhenShownAgain) {
  Locomotion locomotion;
  LocomotionClips slow;
  slow.walk_speed = 1.0f;
  slow.walk_cycle = 1.0f;
  const LocomotionClips normal;
  const Locomotion::ClipsOf clips = [&](int id) -> const LocomotionClips& {
    return id == 0 ? slow : normal;
  };
  std::vector<glm::vec3> positions = {{0, 0, 0}, {0, 0, 5}};
  const std::vector<glm::vec2> velocities = {{1.2f, 0.0f}, {1.2f, 0.0f}};
  std::vector<AgentPhase> phases(2, AgentPhase::Walking);
  const std::vector<float> turns = {0.0f, 0.0f};
  locomotion.update(positions, velocities, phases, turns, clips);
  positions = {{0.5f, 0, 0}, {0.5f, 0, 5}};
  locomotion.update(positions, velocities, phases, turns, clips);
  EXPECT_NEAR(locomotion.cycle_phases()[0], 0.5f, 1e-6f);
  EXPECT_NEAR(locomotion.cycle_phases()[1], 0.5f / normal.walk_cycle, 1e-6f);
  EXPECT_NEAR(locomotion.playback_rates()[0], 1.2f, 1e-6f);
  // Hidden, then shown again somewhere else: no jump counted, a new cycle.
  phases[0] = AgentPhase::Removed;
  locomotion.update(positions, velocities, phases, turns, clips);
  phases[0] = AgentPhase::Walking;
  positions[0] = {20.0f, 0, 0};
  locomotion.update(positions, velocities, phases, turns, clips);
  EXPECT_EQ(locomotion.cycle_phases()[0], 0.0f);
}

} // namespace
} // namespace crowd

// The selected agent's debug view (host/sim/agent_debug_view.cpp): its samples (or an ORCA
// agent's half-planes) are the avoidance kernel's own, so its answer is the velocity the kernel
// chooses in the same state.
#include "cuda/kernels/avoidance.h"
#include "host/sim/agent_debug_view.h"
#include "host/sim/cpu_block.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"

#include <algorithm>
#include <cfloat>
#include <gtest/gtest.h>

namespace crowd {
namespace {

constexpr char kHeadOn[] = R"({
  "name": "head-on", "dt": 0.1, "steps": 40,
  "world": {"bounds": [[0, 0], [20, 6]], "obstacles": [[[9, 0], [11, 0], [11, 1.5], [9, 1.5]]]},
  "defaults": {"avoidance": "high"},
  "agents": [
    {"position": [3, 3], "goal": [17, 3]},
    {"position": [17, 3], "goal": [3, 3]}
  ]})";

/// The avoidance kernel's choice for the solver's agent 0, on a copy of the last step's state.
glm::vec2 kernel_choice(const Simulation& sim) {
  AgentArrays copy = sim.crowd_solver()->arrays();
  CpuBlock block;
  CpuAvoidanceScratch scratch(copy.max_neighbors, copy.max_segments);
  choose_velocity(block, 0, copy.view(), scratch.view(), sim.crowd_solver()->standoff_params(),
                  sim.scenario().dt);
  return copy.new_velocity[0];
}

TEST(AgentDebugView, SamplesAreTheKernelsAndItsAnswerIsTheKernelsChoice) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(kHeadOn, "head-on.json"), options);
  for (int s = 0; s < 40; ++s)
    sim.step();
  const auto view = inspect_agent(sim, 0);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->neighbours, std::vector<int>{1}) << "the oncoming agent is in range";
  EXPECT_FALSE(view->wall_segments.empty()) << "the pillar is within the query range";
  ASSERT_FALSE(view->corridor.empty());

  // high preset: 3 levels of 7 x 3 + 1 samples, less those faster than the agent may go.
  const AvoidanceParams high = avoidance_preset(AvoidancePreset::High);
  EXPECT_LE(view->samples.size(),
            static_cast<std::size_t>(high.adaptive_depth * high.samples_per_level()));
  EXPECT_GT(view->samples.size(), static_cast<std::size_t>(high.samples_per_level()));
  EXPECT_EQ(view->samples.back().level, high.adaptive_depth - 1);
  // The answer is the lowest penalty of the last level.
  float best = FLT_MAX;
  glm::vec2 best_velocity{0.0f};
  for (const VelocitySample& s : view->samples)
    if (s.level == high.adaptive_depth - 1 && s.penalty < best) {
      best = s.penalty;
      best_velocity = s.velocity;
    }
  EXPECT_EQ(view->chosen_velocity, best_velocity);

  // The kernel itself, on a copy of the same state, chooses the same velocity.
  EXPECT_EQ(kernel_choice(sim), view->chosen_velocity);
}

// Agent 0 enters last, so the solver numbers the agents 1, 2, 0: the view must still be agent
// 0's, with its neighbours named by agent id.
constexpr char kLateEntry[] = R"({
  "name": "late-entry", "dt": 0.1, "steps": 40,
  "world": {"bounds": [[0, 0], [30, 6]]},
  "agents": [
    {"position": [25, 3], "goal": [28, 3], "start_delay": 1.0},
    {"position": [3, 3], "goal": [17, 3]},
    {"position": [4.5, 3], "goal": [17, 3]}
  ]})";

TEST(AgentDebugView, ShowsTheAgentAskedForWhenAgentsEnterOutOfOrder) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(kLateEntry, "late-entry.json"), options);
  sim.step();
  ASSERT_EQ(sim.backend_index(0), -1) << "agent 0 has not entered yet";
  const auto waiting = inspect_agent(sim, 0);
  ASSERT_TRUE(waiting.has_value());
  EXPECT_EQ(waiting->agent, 0);
  EXPECT_TRUE(waiting->samples.empty() && waiting->neighbours.empty() && waiting->corridor.empty());

  for (int s = 0; s < 15; ++s)
    sim.step();
  ASSERT_EQ(sim.backend_index(0), 2);
  ASSERT_EQ(sim.backend_index(1), 0);
  ASSERT_EQ(sim.agent_of_backend_index(2), 0);

  // Agent 1 and agent 2 walk together, agent 0 stands 20 m away from both.
  const auto one = inspect_agent(sim, 1);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->agent, 1);
  EXPECT_EQ(one->neighbours, std::vector<int>{2}) << "neighbours are named by agent id";
  const auto zero = inspect_agent(sim, 0);
  ASSERT_TRUE(zero.has_value());
  EXPECT_TRUE(zero->neighbours.empty());
  EXPECT_FALSE(zero->samples.empty());
  // Its corridor starts on the polygon under agent 0, not under the solver's agent 0 (agent 1).
  ASSERT_FALSE(zero->corridor.empty());
  float min_x = FLT_MAX, max_x = -FLT_MAX;
  for (const glm::vec3& v : zero->corridor.front()) {
    min_x = std::min(min_x, v.x);
    max_x = std::max(max_x, v.x);
  }
  const float x = sim.position(0).x;
  EXPECT_TRUE(min_x <= x && x <= max_x) << x << " outside [" << min_x << ", " << max_x << "]";
  EXPECT_GT(x, 20.0f);
}

TEST(AgentDebugView, AnOrcaAgentShowsItsHalfPlanesAndTheKernelsChoice) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.avoidance_model = kAvoidanceOrca;
  Simulation sim(parse_scenario(kHeadOn, "head-on.json"), options);
  for (int s = 0; s < 40; ++s)
    sim.step();
  const auto view = inspect_agent(sim, 0);
  ASSERT_TRUE(view.has_value());
  EXPECT_TRUE(view->samples.empty()) << "ORCA samples nothing";
  ASSERT_EQ(view->neighbours, std::vector<int>{1});
  // One half-plane from the oncoming agent, after those of the walls facing the agent.
  ASSERT_FALSE(view->half_planes.empty());
  EXPECT_EQ(static_cast<int>(view->half_planes.size()) - view->wall_half_planes, 1);
  EXPECT_LE(static_cast<std::size_t>(view->wall_half_planes), view->wall_segments.size());
  // The answer is the kernel's, in every half-plane (the program is feasible here).
  for (const OrcaLine& line : view->half_planes)
    EXPECT_LE(orca_det(line.direction, line.point - view->chosen_velocity), 1e-4f);
  EXPECT_EQ(kernel_choice(sim), view->chosen_velocity);
}

TEST(AgentDebugView, AForceModelAgentShowsThePushesItsVelocityAdds) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.avoidance_model = kAvoidanceMass;
  options.standoff = StandoffRule::Off; // its keep-right turn would pass them without a push
  Simulation sim(parse_scenario(kHeadOn, "head-on.json"), options);
  // Step until the oncoming agent is in range and pushes (it must, before they pass).
  std::optional<AgentDebugView> view;
  for (int s = 0; s < 40 && !(view && view->neighbour_push != glm::vec2(0.0f)); ++s) {
    sim.step();
    view = inspect_agent(sim, 0);
    ASSERT_TRUE(view.has_value());
  }
  EXPECT_NE(view->neighbour_push, glm::vec2(0.0f)) << "the oncoming agent pushes";
  EXPECT_EQ(view->neighbours, std::vector<int>{1});
  EXPECT_TRUE(view->samples.empty() && view->half_planes.empty());
  // The answer is the desired velocity plus the two pushes, no faster than the desired speed.
  const AgentArrays& a = sim.crowd_solver()->arrays();
  glm::vec2 sum = a.desired_velocity[0] + view->neighbour_push + view->wall_push;
  if (glm::length(sum) > a.desired_speed[0])
    sum *= a.desired_speed[0] / glm::length(sum);
  EXPECT_NEAR(view->chosen_velocity.x, sum.x, 1e-5f);
  EXPECT_NEAR(view->chosen_velocity.y, sum.y, 1e-5f);
}

TEST(AgentDebugView, NothingForTheDetourBackend) {
  SimulationOptions options;
  options.backend = BackendKind::Detour;
  Simulation sim(parse_scenario(kHeadOn, "head-on.json"), options);
  sim.step();
  EXPECT_FALSE(inspect_agent(sim, 0).has_value());
  EXPECT_THROW(inspect_agent(sim, 7), ApiError);
}

} // namespace
} // namespace crowd

// The selected agent's debug view (host/sim/agent_debug_view.cpp): its samples (or an ORCA
// agent's half-planes, or a time-to-collision agent's fan) are the avoidance kernel's own, so its
// answer is the velocity the kernel chooses in the same state.
#include "cuda/kernels/avoidance.h"
#include "host/sim/agent_debug_view.h"
#include "host/sim/cpu_block.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"

#include <algorithm>
#include <cfloat>
#include <gtest/gtest.h>
#include <string>

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

/// ttc_smoothed_ratio as documented, recomputed from the fan's ratios: the mean of sample s's
/// ratio and its neighbours' in its speed ring (round the end of a full circle), a neighbour that
/// leaves the navmesh counting 0; the zero sample keeps its own, one that leaves stays -1.
float documented_smoothed(const TtcAvoidanceParams& p, const std::vector<TtcDebugSample>& fan,
                          int s) {
  const int n = std::clamp(p.sample_count, 1, kMaxTtcDirections);
  const int rings = p.enable_slowing_down ? kTtcSpeedRings : 1;
  const float own = fan[static_cast<std::size_t>(s)].ratio;
  if (s >= n * rings || own < 0.0f)
    return own;
  const int ring = s / n, k = s % n;
  const bool wrap = p.angle_span >= 360.0f && n > 2;
  float sum = own;
  int terms = 1;
  for (const int side : {k - 1, k + 1}) {
    int neighbour = side;
    if (wrap)
      neighbour = (side + n) % n;
    if (neighbour < 0 || neighbour >= n)
      continue;
    sum += std::max(fan[static_cast<std::size_t>(ring * n + neighbour)].ratio, 0.0f);
    ++terms;
  }
  return sum / static_cast<float>(terms);
}

/// What the kernel must have chosen from a view's fan: the first sample of highest score among
/// those that stay on the navmesh, or standing when that one collides sooner than
/// stop_collision_time (outside a forced passage).
glm::vec2 best_of_fan(const TtcAvoidanceParams& p, const AgentDebugView& view) {
  const TtcDebugSample* best = nullptr;
  for (const TtcDebugSample& s : view.ttc_samples)
    if (s.smoothed >= 0.0f && (best == nullptr || s.score > best->score))
      best = &s;
  if (best == nullptr)
    return glm::vec2(0.0f);
  const bool moving = best->velocity != glm::vec2(0.0f);
  if (!view.forced && p.enable_stop && moving &&
      best->ratio * p.time_horizon < p.stop_collision_time)
    return glm::vec2(0.0f);
  return best->velocity;
}

// Head-on under the time-to-collision model, neighbours looked for within 1.2 m only and no
// standoff breaker: the agents collect each other as colliders (within 4 m) long before they are
// neighbours, and walk at each other until agent 0 stops and waits, then sidesteps.
constexpr char kTtcHeadOn[] = R"({
  "name": "ttc-head-on", "dt": 0.1, "steps": 80,
  "world": {"bounds": [[0, 0], [20, 6]], "obstacles": [[[9, 0], [11, 0], [11, 1.5], [9, 1.5]]]},
  "defaults": {"collision_query_range": 1.2},
  "agents": [
    {"position": [3, 3], "goal": [17, 3]},
    {"position": [17, 3], "goal": [3, 3]}
  ]})";

TEST(AgentDebugView, ATtcAgentShowsItsFanItsCollidersAndTheKernelsChoice) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.avoidance_model = kAvoidanceTtc;
  options.standoff = StandoffRule::Off;
  Simulation sim(parse_scenario(kTtcHeadOn, "ttc-head-on.json"), options);
  const CrowdSolver& solver = *sim.crowd_solver();
  const float dt = sim.scenario().dt;
  int scored = 0, stopped = 0, colliders_only = 0, colliders_matter = 0;
  for (int step = 0; step < 80; ++step) {
    sim.step();
    const auto view = inspect_agent(sim, 0);
    ASSERT_TRUE(view.has_value());
    const AgentArrays& a = solver.arrays();
    const TtcAvoidanceParams& p =
        a.avoidance_params[static_cast<std::size_t>(a.avoidance_set[0])].ttc;
    ASSERT_EQ(sim.backend_index(0), 0);
    ASSERT_EQ(sim.agent_of_backend_index(1), 1);

    // The kernel itself on the whole crowd (the colliders anywhere in it) chooses the same.
    EXPECT_EQ(kernel_choice(sim), view->chosen_velocity) << "step " << step;
    // The colliders and clocks are the solver's, as the last step left them.
    EXPECT_EQ(view->ttc_state, a.ttc_state[0]) << "step " << step;
    const std::vector<int> colliders(a.collider_index.begin(),
                                     a.collider_index.begin() + a.ttc_state[0].collider_count);
    EXPECT_EQ(view->colliders, colliders) << "step " << step;
    for (const int j : view->colliders)
      colliders_only +=
          std::find(view->neighbours.begin(), view->neighbours.end(), j) == view->neighbours.end();
    // Without them the view would often choose otherwise.
    AgentArrays blind = a;
    blind.ttc_state[0].collider_count = 0;
    colliders_matter +=
        inspect_agent(blind, solver.navigator(), sim.navmesh(), solver.standoff_params(), dt, 0)
            .chosen_velocity != view->chosen_velocity;

    EXPECT_EQ(view->forced, ttc_clock_running(a.ttc_state[0].force_time, dt)) << "step " << step;
    EXPECT_EQ(view->stopped, !view->forced && ttc_clock_running(a.ttc_state[0].stop_time, dt))
        << "step " << step;
    if (view->stopped) {
      ++stopped;
      EXPECT_TRUE(view->ttc_samples.empty()) << "waiting, it scores nothing";
      EXPECT_EQ(view->chosen_velocity, glm::vec2(0.0f));
      continue;
    }
    ++scored;
    // One entry per sample of the fan, smoothed as documented; the answer is the best score's.
    ASSERT_EQ(view->ttc_samples.size(), static_cast<std::size_t>(ttc_sample_count(p)));
    std::size_t admissible = 0;
    for (std::size_t s = 0; s < view->ttc_samples.size(); ++s) {
      const TtcDebugSample& sample = view->ttc_samples[s];
      EXPECT_FLOAT_EQ(sample.smoothed,
                      documented_smoothed(p, view->ttc_samples, static_cast<int>(s)))
          << "step " << step << " sample " << s;
      EXPECT_TRUE(sample.ratio == kTtcLeaves || (sample.ratio >= 0.0f && sample.ratio <= 1.0f));
      admissible += sample.smoothed >= 0.0f;
    }
    EXPECT_EQ(view->samples.size(), admissible) << "the fan's admissible samples, as penalties";
    EXPECT_EQ(view->chosen_velocity, best_of_fan(p, *view)) << "step " << step;
  }
  EXPECT_GT(scored, 0);
  EXPECT_GT(stopped, 0) << "agent 0 stops and waits before the oncoming agent";
  EXPECT_GT(colliders_only, 0) << "the oncoming agent is collected before it is a neighbour";
  EXPECT_GT(colliders_matter, 0) << "the oncoming agent changes the choice";
}

TEST(AgentDebugView, ATtcAgentInCorridorModeShowsTheSidesOfItsCorridorSection) {
  // The head-on pair, agent 0 in corridor mode, agent 1 in shortcut mode: agent 0's view lists
  // the sides of its section as the kernel finds them on its corridor row, agent 1's none.
  std::string scene = kTtcHeadOn;
  scene.replace(scene.find(R"("goal": [17, 3]})"), 16,
                R"("goal": [17, 3], "avoidance": {"model": "ttc", "reference": "corridor"}})");
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(scene, "ttc-corridor.json"), options);
  const CrowdSolver& solver = *sim.crowd_solver();
  int with_sides = 0;
  for (int step = 0; step < 60; ++step) {
    sim.step();
    const auto view = inspect_agent(sim, 0);
    ASSERT_TRUE(view.has_value());
    std::vector<glm::vec4> sides;
    AgentArrays a = solver.arrays();
    for_each_corridor_side(
        a.corridor_rows(solver.navigator().tables()), 0,
        [&](int, glm::vec2 p, glm::vec2 q) { sides.emplace_back(p.x, p.y, q.x, q.y); });
    EXPECT_EQ(view->corridor_sides, sides) << "step " << step;
    with_sides += view->corridor_sides.empty() ? 0 : 1;
    EXPECT_TRUE(inspect_agent(sim, 1)->corridor_sides.empty()) << "step " << step;
  }
  EXPECT_GT(with_sides, 0) << "its corridor crosses polygons with sides off it";
}

TEST(AgentDebugView, ATtcAgentsViewSaysWhenItIsStoppedOrForcingItsWay) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.avoidance_model = kAvoidanceTtc;
  options.standoff = StandoffRule::Off;
  Simulation sim(parse_scenario(kTtcHeadOn, "ttc-head-on.json"), options);
  for (int step = 0; step < 42; ++step) // the oncoming agent collected, not stopped yet
    sim.step();
  const CrowdSolver& solver = *sim.crowd_solver();
  const float dt = sim.scenario().dt;
  AgentArrays arrays = solver.arrays();
  const TtcAvoidanceParams& p =
      arrays.avoidance_params[static_cast<std::size_t>(arrays.avoidance_set[0])].ttc;
  const auto inspect = [&](TtcState state) {
    arrays.ttc_state[0] = state;
    return inspect_agent(arrays, solver.navigator(), sim.navmesh(), solver.standoff_params(), dt,
                         0);
  };
  const auto ratios = [](const AgentDebugView& view) {
    std::vector<float> r;
    for (const TtcDebugSample& s : view.ttc_samples)
      r.push_back(s.ratio);
    return r;
  };
  TtcState state = solver.arrays().ttc_state[0];
  ASSERT_FALSE(ttc_clock_running(state.stop_time, dt) || ttc_clock_running(state.force_time, dt));
  ASSERT_EQ(state.collider_count, 1);
  const AgentDebugView walking = inspect(state);
  EXPECT_FALSE(walking.stopped || walking.forced);
  ASSERT_EQ(walking.ttc_samples.size(), static_cast<std::size_t>(ttc_sample_count(p)));

  // Waiting out its stop clock: it stands and scores nothing.
  state.stop_time = 0.35f;
  const AgentDebugView stopped = inspect(state);
  EXPECT_TRUE(stopped.stopped);
  EXPECT_FALSE(stopped.forced);
  EXPECT_EQ(stopped.ttc_state.stop_time, 0.35f) << "the clock before the step";
  EXPECT_TRUE(stopped.ttc_samples.empty());
  EXPECT_EQ(stopped.chosen_velocity, glm::vec2(0.0f));

  // A forced passage: the fan is scored as if it had no colliders (the walls still count), and
  // the best score is taken even where it collides soon.
  state.stop_time = 0.0f;
  state.force_time = p.force_passage_time_limit;
  const AgentDebugView forced = inspect(state);
  EXPECT_TRUE(forced.forced);
  EXPECT_FALSE(forced.stopped);
  EXPECT_EQ(forced.ttc_state.force_time, p.force_passage_time_limit);
  EXPECT_EQ(forced.colliders, walking.colliders);
  state.force_time = 0.0f;
  state.collider_count = 0;
  const AgentDebugView alone = inspect(state);
  EXPECT_EQ(ratios(forced), ratios(alone));
  EXPECT_NE(ratios(walking), ratios(alone)) << "outside the passage the collider counts";
  EXPECT_EQ(forced.chosen_velocity, best_of_fan(p, forced));
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

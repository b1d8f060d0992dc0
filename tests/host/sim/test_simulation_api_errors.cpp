// Every refusal of the library API (host/sim/simulation.h): a bad call throws crowd::ApiError
// with a message naming the call and the problem, and leaves the simulation as it was (it
// still steps, and the agents it had are untouched). Never undefined behaviour: this suite
// also runs under the sanitizers (CROWD_SANITIZE).
#include "host/sim/simulation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace crowd {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Scenario open_room() {
  Scenario scenario;
  scenario.name = "api-errors";
  scenario.file = "api-errors.json";
  scenario.world.bounds = WorldSpec::Bounds2D{{-10.0f, -10.0f}, {10.0f, 10.0f}};
  return scenario;
}

Simulation make_simulation(BackendKind backend = BackendKind::Cpu) {
  SimulationOptions options;
  options.backend = backend;
  return Simulation(open_room(), options);
}

/// The ApiError message of `call` (the test fails when there is none or another exception).
template <typename Call> std::string api_error(Call&& call) {
  try {
    call();
  } catch (const ApiError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ApiError";
  return "";
}

class SimulationApiErrors : public ::testing::TestWithParam<BackendKind> {
protected:
  SimulationApiErrors() : sim(make_simulation(GetParam())) {
    agent = sim.add_agent({-5.0f, 0.0f, 0.0f}, {5.0f, 0.0f, 0.0f});
  }
  /// The simulation still works after the refusal, and the agent it had is as it was.
  void expect_unharmed() {
    const glm::vec3 before = sim.position(agent);
    EXPECT_NO_THROW(sim.step());
    EXPECT_EQ(sim.agent_count(), 1);
    EXPECT_TRUE(std::isfinite(sim.position(agent).x));
    EXPECT_GT(sim.position(agent).x, before.x) << "the agent walks on toward its goal";
  }
  Simulation sim;
  int agent = -1;
};

TEST_P(SimulationApiErrors, UnknownAndNegativeIdsAreRefusedByEveryCall) {
  for (const int id : {1, 1000, -1, std::numeric_limits<int>::min()}) {
    const std::string expected = "unknown agent id " + std::to_string(id) + " (ids are 0..0)";
    EXPECT_EQ(api_error([&] { sim.position(id); }), expected);
    EXPECT_EQ(api_error([&] { sim.velocity(id); }), expected);
    EXPECT_EQ(api_error([&] { sim.phase(id); }), expected);
    EXPECT_EQ(api_error([&] { sim.set_goal(id, {0, 0, 0}); }), expected);
    EXPECT_EQ(api_error([&] { sim.remove_agent(id); }), expected);
  }
  expect_unharmed();
}

TEST_P(SimulationApiErrors, NonFiniteGoalIsRefused) {
  for (const glm::vec3 goal :
       {glm::vec3(kNaN, 0, 0), glm::vec3(0, kInf, 0), glm::vec3(0, 0, -kInf)})
    EXPECT_EQ(api_error([&] { sim.set_goal(agent, goal); }), "set_goal: goal must be finite");
  expect_unharmed();
}

TEST_P(SimulationApiErrors, NonFinitePositionOrGoalOfANewAgentIsRefused) {
  EXPECT_EQ(api_error([&] {
              sim.add_agent({kNaN, 0, 0}, {0, 0, 0});
            }),
            "add_agent: position and goal must be finite");
  EXPECT_EQ(api_error([&] {
              sim.add_agent({0, 0, 0}, {0, 0, kInf});
            }),
            "add_agent: position and goal must be finite");
  expect_unharmed();
}

TEST_P(SimulationApiErrors, PositionWithNoNavmeshNearIsRefused) {
  const std::string message = api_error([&] { sim.add_agent({500, 0, 500}, {0, 0, 0}); });
  EXPECT_EQ(message.rfind("add_agent: no navmesh near (500", 0), 0u) << message;
  // Finite but far beyond float precision of the world: refused the same way.
  EXPECT_NE(api_error([&] { sim.add_agent({3e38f, 0, -3e38f}, {0, 0, 0}); }), "");
  expect_unharmed();
}

TEST_P(SimulationApiErrors, ParametersOutOfRangeAreRefusedNamingTheParameter) {
  struct Case {
    void (*set)(AgentParams&);
    std::string message;
  };
  const Case cases[] = {
      {[](AgentParams& p) { p.radius = 0.0f; }, "radius must be a number > 0, got 0"},
      {[](AgentParams& p) { p.radius = -0.4f; }, "radius must be a number > 0, got -0.4"},
      {[](AgentParams& p) { p.radius = kNaN; }, "radius must be a number > 0, got NaN"},
      {[](AgentParams& p) { p.radius = kInf; }, "radius must be a number > 0, got infinity"},
      {[](AgentParams& p) { p.max_speed = 0.0f; }, "max_speed must be a number > 0, got 0"},
      {[](AgentParams& p) { p.max_accel = -1.0f; }, "max_accel must be a number > 0, got -1"},
      {[](AgentParams& p) { p.separation_weight = -1.0f; },
       "separation_weight must be a number >= 0, got -1"},
      {[](AgentParams& p) { p.collision_query_range = 0.0f; },
       "collision_query_range must be a number > 0, got 0"},
      {[](AgentParams& p) { p.arrival_radius = kNaN; },
       "arrival_radius must be a number > 0, got NaN"},
      {[](AgentParams& p) { p.avoidance.vel_bias = 2.0f; },
       "avoidance.vel_bias must be a number in [0, 1], got 2"},
      {[](AgentParams& p) { p.avoidance.horiz_time = 0.0f; },
       "avoidance.horiz_time must be a number > 0, got 0"},
      {[](AgentParams& p) { p.avoidance.adaptive_divs = 0; },
       "avoidance.adaptive_divs must be an integer in [1, 32], got 0"},
      {[](AgentParams& p) { p.avoidance.adaptive_rings = 5; },
       "avoidance.adaptive_rings must be an integer in [1, 4], got 5"},
      {[](AgentParams& p) { p.avoidance.adaptive_depth = 1000; },
       "avoidance.adaptive_depth must be an integer in [1, 16], got 1000"},
  };
  for (const Case& c : cases) {
    AgentParams params;
    c.set(params);
    EXPECT_EQ(api_error([&] {
                sim.add_agent({0, 0, 5}, {0, 0, -5}, params);
              }),
              "add_agent: " + c.message);
  }
  expect_unharmed();
}

TEST_P(SimulationApiErrors, RemovedAgentCannotGetAGoalAndRemovingAgainChangesNothing) {
  const int other = sim.add_agent({5.0f, 0.0f, 5.0f}, {-5.0f, 0.0f, 5.0f});
  sim.remove_agent(other);
  EXPECT_EQ(api_error([&] {
              sim.set_goal(other, {0, 0, 0});
            }),
            "set_goal: agent " + std::to_string(other) + " was removed");
  EXPECT_NO_THROW(sim.remove_agent(other));
  EXPECT_EQ(sim.phase(other), AgentPhase::Removed);
  const glm::vec3 before = sim.position(agent);
  sim.step();
  EXPECT_GT(sim.position(agent).x, before.x);
}

INSTANTIATE_TEST_SUITE_P(Backends, SimulationApiErrors,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const auto& test_param) {
                           return test_param.param == BackendKind::Cpu ? std::string("cpu")
                                                                       : std::string("detour");
                         });

} // namespace
} // namespace crowd

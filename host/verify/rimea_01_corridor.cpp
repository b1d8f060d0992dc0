// RiMEA test 1, maintaining the walking speed in a corridor (RiMEA 3.0, test 1): "a
// person in a 2 m wide and 40 m long corridor with a defined walking speed will cover the
// distance in the corresponding time period"; at 1.33 m/s (4.8 km/h) the time must lie
// between 26 and 34 s (the bounds JuPedSim's script checks, systemtest/rimea_tests/test_1).
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr float kSpeed = 1.33f;
constexpr double kMinTime = 26.0, kMaxTime = 34.0;

std::vector<VerifyScenario> scenarios(bool) {
  // The corridor is x in [0, 40], z in [0, 2]; it runs on 2 m at both ends so that the agent
  // crosses x = 0 already walking and x = 40 before it slows for its goal.
  Scenario s = rimea_scenario("rimea_01_corridor", {-2.0f, 0.0f}, {42.0f, 2.0f}, 50.0f);
  ExplicitAgentSpec agent;
  agent.position.position = {-1.0f, 0.0f, 1.0f};
  agent.goal.position = {41.5f, 0.0f, 1.0f};
  agent.params = s.defaults;
  agent.params.max_speed = kSpeed;
  s.agents.push_back(agent);
  return {{"rimea_01_corridor", s,
           "RiMEA 3.0 test 1: one person, 2 m x 40 m corridor, 1.33 m/s; 40 m in 26-34 s",
           "The 40 m are x = 0 to 40, timed between the agent's centre crossing the two lines; "
           "the floor runs on 2 m past both so that it is timed walking, not starting or "
           "stopping."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  LineCrossings start({0.0f, 0.0f}, {0.0f, 2.0f}), end({40.0f, 0.0f}, {40.0f, 2.0f});
  run_verify_scenario(scenes.front(), context,
                      {[&](const Simulation& s) { start.observe(s); },
                       [&](const Simulation& s) { end.observe(s); }});
  TestOutcome out;
  const auto t0 = start.first_time(0), t1 = end.first_time(0);
  if (!t0 || !t1) {
    out.figure = "the agent did not walk the 40 m";
    out.values["time_s"] = nullptr;
    return out;
  }
  const double t = *t1 - *t0;
  out.figure = "40 m in " + fixed(t, 2) + " s (" + fixed(40.0 / t, 3) + " m/s)";
  out.values["time_s"] = t;
  out.values["speed_m_s"] = 40.0 / t;
  out.passed = t >= kMinTime && t <= kMaxTime;
  return out;
}

} // namespace

VerifyTest rimea_test_01() {
  return {1,
          "Maintaining the walking speed in a corridor",
          "RiMEA 3.0 test 1; bounds as in JuPedSim systemtest/rimea_tests/test_1",
          fixed(kMinTime, 0) + " s <= t(40 m) <= " + fixed(kMaxTime, 0) + " s at " +
              fixed(kSpeed, 2) + " m/s",
          scenarios,
          run};
}

} // namespace crowd

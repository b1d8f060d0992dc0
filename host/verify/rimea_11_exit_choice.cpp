// RiMEA test 11, choice of escape route (RiMEA 3.0, test 11): persons in a room with
// two exits should mostly leave through the nearer one, but some should (spontaneously)
// take the second one, as it is documented (JuPedSim's transcription: "The pedestrians should
// prefer the nearest exit, but some should (spontaneously) choose the second exit",
// systemtest/rimea_tests/test_11, which counts the persons per exit; its newer text has 300
// persons). Here both exits lead to one goal outside, so the route through either is the
// model's own choice: Detour's shortest path, fixed once planned.
#include "host/verify/floor_plan.h"
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr float kW = 30.0f, kH = 20.0f, kWall = 0.2f, kOutside = 4.0f;
constexpr float kExit1 = 5.0f, kExit2 = 25.0f; ///< exits' centres on the wall z = 20

int persons(bool fast) {
  return fast ? 100 : 300;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  Scenario s = rimea_scenario("rimea_11_exit_choice", {0.0f, 0.0f}, {kW, kH + kOutside},
                              fast ? 300.0f : 600.0f);
  wall_along_x(s.world.obstacles, 0.0f, kW, kH, kH + kWall, {{kExit1, 1.0f}, {kExit2, 1.0f}});
  s.groups.push_back(
      rect_group(s, persons(fast), {0.3f, 0.3f}, {10.0f, kH - 0.3f}, {15.0f, kH + 2.5f}));
  return {{"rimea_11_exit_choice", s,
           "RiMEA 3.0 test 11: in a room with two exits most persons take the nearer exit, "
           "some the other",
           std::to_string(persons(fast)) +
               " agents at random in the left third of a 30 m x "
               "20 m room; 1 m exits at x = 5 (near) and x = 25 (far) in the wall z = 20, both "
               "onto a 4 m deep strip where everyone's goal is, at x = 15."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  LineCrossings near({kExit1 - 0.5f, kH}, {kExit1 + 0.5f, kH});
  LineCrossings far({kExit2 - 0.5f, kH}, {kExit2 + 0.5f, kH});
  const VerifyRun r = run_verify_scenario(scenes.front(), context,
                                          {[&](const Simulation& s) { near.observe(s); },
                                           [&](const Simulation& s) { far.observe(s); }});
  const int n1 = near.agents_crossed(), n2 = far.agents_crossed();
  const int total = r.metrics.agents;
  TestOutcome out;
  out.figure = std::to_string(n1) + " through the near exit, " + std::to_string(n2) +
               " through the far one, of " + std::to_string(total) + " (out in " +
               fixed(r.seconds, 1) + " s)";
  out.values["persons"] = total;
  out.values["near_exit"] = n1;
  out.values["far_exit"] = n2;
  out.values["time_s"] = r.seconds;
  out.passed = 2 * n1 > total && n2 >= 1;
  return out;
}

} // namespace

VerifyTest rimea_test_11() {
  return {11,
          "Choice of escape route (two exits)",
          "RiMEA 3.0 test 11; counted per exit as JuPedSim systemtest/rimea_tests/test_11",

          "most leave through the nearer exit (> 50%) and some through the other (>= 1)",
          scenarios,
          run};
}

} // namespace crowd

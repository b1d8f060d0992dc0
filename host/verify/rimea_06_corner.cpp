// RiMEA test 6, movement around a corner (RiMEA 3.0, test 6): "twenty persons moving
// towards a corner which turns to the left will successfully go around it without passing
// through walls" (wording of JuPedSim's transcription, Utest/rimea_tests/test_description/
// test_6.tex). The corridor is 2 m wide with legs of 12 m, the shape of Vadere's
// rimea_06_corner scenario (VadereModelTests/TestOSM/scenarios), which starts its 20 agents in
// a 6 m x 1.6 m area at the start of the first leg.
#include "host/verify/floor_plan.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr int kPersons = 20;
// The inner corner block: the corridor runs along z in [0, 2] for x in [0, 12], then along x
// in [10, 12] up to z = 12; the block [0, 10] x [2, 12] is wall.
constexpr float kBlockX = 10.0f, kBlockZ = 2.0f, kSide = 12.0f;

std::vector<VerifyScenario> scenarios(bool) {
  Scenario s = rimea_scenario("rimea_06_corner", {0.0f, 0.0f}, {kSide, kSide}, 60.0f);
  s.world.obstacles.push_back(box(0.0f, kBlockZ, kBlockX, kSide));
  GroupSpec g = rect_group(s, kPersons, {0.3f, 0.3f}, {6.3f, 1.7f}, {11.0f, 11.2f});
  s.groups.push_back(g);
  return {{"rimea_06_corner", s,
           "RiMEA 3.0 test 6: 20 persons go around a corner turning left without passing "
           "through walls",
           "L-shaped corridor 2 m wide, legs of 12 m (inner block [0, 10] x [2, 12]); 20 agents "
           "start at random in [0.3, 6.3] x [0.3, 1.7] and leave at the end of the second "
           "leg."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  long long inside = 0; // (agent, step) with the centre inside the wall block
  const auto observe_block = [&](const Simulation& sim) {
    const auto positions = sim.positions();
    const auto phases = sim.phases();
    for (std::size_t i = 0; i < positions.size(); ++i)
      if (is_present(phases[i]) && positions[i].x < kBlockX && positions[i].z > kBlockZ)
        ++inside;
  };
  const VerifyRun r = run_verify_scenario(scenes.front(), context, {observe_block});
  TestOutcome out;
  out.figure = std::to_string(r.metrics.arrived) + "/" + std::to_string(r.metrics.agents) +
               " around, " + std::to_string(inside) + " agent-steps inside the wall, " +
               std::to_string(r.metrics.wall_events) + " wall events (deepest " +
               fixed(r.metrics.max_wall_penetration, 3) + " m)";
  out.values["arrived"] = r.metrics.arrived;
  out.values["agents"] = r.metrics.agents;
  out.values["centre_inside_wall_agent_steps"] = inside;
  out.values["wall_events"] = r.metrics.wall_events;
  out.values["max_wall_penetration_m"] = r.metrics.max_wall_penetration;
  out.values["time_s"] = r.seconds;
  out.passed = r.metrics.arrived == kPersons && inside == 0 && r.metrics.wall_events == 0;
  return out;
}

} // namespace

VerifyTest rimea_test_06() {
  return {6,
          "Movement around a corner",
          "RiMEA 3.0 test 6; geometry after Vadere's rimea_06_corner",
          "all 20 go around; no centre inside a wall and no disc into one by more than "
          "5% of its radius (metrics wall_events = 0)",
          scenarios,
          run};
}

} // namespace crowd

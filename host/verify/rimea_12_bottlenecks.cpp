// RiMEA test 12, effect of bottlenecks (RiMEA 3.0, test 12): persons leave a room
// through a narrow corridor into a second room and out of its exit; a jam forms at the
// corridor's entrance and, since the corridor meters the flow, not at the last exit. The
// geometry is JuPedSim's (Utest/rimea_tests/test_12/geometry.xml: two 10 m x 10 m rooms, a
// corridor 1 m wide and 5 m long, a 1 m exit; 150 persons), and so is the check
// (systemtest/rimea_tests/test_12): the flow at the exit is not below the flow into the
// corridor by more than 0.05 persons/s. The peak occupancy in front of each opening is ours,
// to show where the queue is.
#include "host/verify/area_sampler.h"
#include "host/verify/floor_plan.h"
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr float kRoom = 10.0f, kCorridor = 5.0f, kWall = 0.2f, kOutside = 3.0f;
constexpr float kDoorLo = 4.5f, kDoorHi = 5.5f; ///< corridor and exit: z in [4.5, 5.5]
constexpr float kEntrance = kRoom, kExit = 2.0f * kRoom + kCorridor;
constexpr double kTolerance = 0.05; ///< persons/s

int persons(bool fast) {
  return fast ? 50 : 150;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  Scenario s = rimea_scenario("rimea_12_double_bottleneck", {0.0f, 0.0f}, {kExit + kOutside, kRoom},
                              fast ? 200.0f : 400.0f);
  auto& walls = s.world.obstacles;
  // The corridor between the rooms, then the exit wall.
  walls.push_back(box(kEntrance, 0.0f, kEntrance + kCorridor, kDoorLo));
  walls.push_back(box(kEntrance, kDoorHi, kEntrance + kCorridor, kRoom));
  wall_along_z(walls, 0.0f, kRoom, kExit, kExit + kWall, {{0.5f * (kDoorLo + kDoorHi), 1.0f}});
  s.groups.push_back(rect_group(s, persons(fast), {0.3f, 0.3f}, {kRoom - 0.3f, kRoom - 0.3f},
                                {kExit + 2.0f, 0.5f * (kDoorLo + kDoorHi)}));
  return {{"rimea_12_double_bottleneck", s,
           "RiMEA 3.0 test 12: a jam forms before the first bottleneck and none at the exit",
           std::to_string(persons(fast)) +
               " agents at random in room 1 (x 0-10); corridor "
               "x 10-15, z 4.5-5.5; room 2 x 15-25 with a 1 m exit at x = 25 onto open ground."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  LineCrossings entrance({kEntrance, kDoorLo}, {kEntrance, kDoorHi});
  LineCrossings exit({kExit, kDoorLo}, {kExit, kDoorHi});
  // 2 m x 3 m in front of each opening.
  AreaSampler before_entrance({kEntrance - 2.0f, 3.5f}, {kEntrance, 6.5f}, 0.0, {1.0f, 0.0f});
  AreaSampler before_exit({kExit - 2.0f, 3.5f}, {kExit, 6.5f}, 0.0, {1.0f, 0.0f});
  const VerifyRun r = run_verify_scenario(scenes.front(), context,
                                          {[&](const Simulation& s) { entrance.observe(s); },
                                           [&](const Simulation& s) { exit.observe(s); },
                                           [&](const Simulation& s) { before_entrance.observe(s); },
                                           [&](const Simulation& s) { before_exit.observe(s); }});
  TestOutcome out;
  const auto j_in = entrance.flow(), j_out = exit.flow();
  out.values["persons"] = r.metrics.agents;
  out.values["out"] = exit.agents_crossed();
  out.values["entrance_flow_per_s"] = j_in ? nlohmann::ordered_json(*j_in) : nullptr;
  out.values["exit_flow_per_s"] = j_out ? nlohmann::ordered_json(*j_out) : nullptr;
  // Not the criterion: the flows of the middle 80% (without the last stragglers).
  const auto value = [](const std::optional<double>& j) {
    return j ? nlohmann::ordered_json(*j) : nlohmann::ordered_json(nullptr);
  };
  out.values["entrance_central_flow_per_s"] = value(entrance.central_flow());
  out.values["exit_central_flow_per_s"] = value(exit.central_flow());
  out.values["peak_before_entrance"] = before_entrance.max_count();
  out.values["peak_before_exit"] = before_exit.max_count();
  out.values["time_s"] = r.seconds;
  if (!j_in || !j_out) {
    out.figure = "no flow measured (" + std::to_string(exit.agents_crossed()) + " out)";
    return out;
  }
  out.figure = std::to_string(exit.agents_crossed()) + "/" + std::to_string(r.metrics.agents) +
               " out; J in " + fixed(*j_in, 2) + " /s, J out " + fixed(*j_out, 2) + " /s; peak " +
               std::to_string(before_entrance.max_count()) + " before the corridor, " +
               std::to_string(before_exit.max_count()) + " before the exit (6 m2 each)";
  out.passed = *j_out >= *j_in - kTolerance && exit.agents_crossed() == r.metrics.agents;
  return out;
}

} // namespace

VerifyTest rimea_test_12() {
  return {12,
          "Effect of bottlenecks (double bottleneck)",
          "RiMEA 3.0 test 12; geometry and flow criterion as JuPedSim Utest/rimea_tests/test_12",

          "J(exit) >= J(corridor entrance) - " + fixed(kTolerance, 2) +
              " /s (no second jam), everyone out",
          scenarios,
          run};
}

} // namespace crowd

// RiMEA test 13, jam in front of stairs (RiMEA 3.0, test 13): persons leave a room
// into a corridor that ends in a stair up; walking slower on the stair, they jam at its foot,
// and "in case of jam, flow at the beginning of the stair should be smaller than the flow in
// the corridor" (JuPedSim systemtest/rimea_tests/test_13, which requires the two flows to
// differ by more than 0.05 persons/s). Geometry as JuPedSim's (Utest/rimea_tests/test_13/
// geometry.xml: a 5 m x 8 m room, a 2 m corridor 12 m long, a 3 m stair; 150 persons) but
// for the room, 8 m x 8 m here: 150 discs of 0.2 m do not fit 5 m x 8 m at random.
//
// The stair is here only a stretch of corridor: the scenario format has no stairs or speed
// zones, and neither DetourCrowd nor our solver slows agents on a slope, so nothing makes
// them slower there.
#include "host/verify/area_sampler.h"
#include "host/verify/floor_plan.h"
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr float kRoomW = 8.0f, kRoomH = 8.0f, kCorridorLo = 3.0f, kCorridorHi = 5.0f;
constexpr float kStairStart = kRoomW + 12.0f, kEnd = kStairStart + 3.0f + 4.0f;
constexpr double kTolerance = 0.05; ///< persons/s

int persons(bool fast) {
  return fast ? 50 : 150;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  Scenario s =
      rimea_scenario("rimea_13_stair_jam", {0.0f, 0.0f}, {kEnd, kRoomH}, fast ? 200.0f : 400.0f);
  s.world.obstacles.push_back(box(kRoomW, 0.0f, kEnd, kCorridorLo));
  s.world.obstacles.push_back(box(kRoomW, kCorridorHi, kEnd, kRoomH));
  s.groups.push_back(rect_group(s, persons(fast), {0.3f, 0.3f}, {kRoomW - 0.3f, kRoomH - 0.3f},
                                {kEnd - 1.0f, 0.5f * (kCorridorLo + kCorridorHi)}));
  return {{"rimea_13_stair_jam", s,
           "RiMEA 3.0 test 13: a jam forms at the foot of a stair at the end of a corridor",
           std::to_string(persons(fast)) +
               " agents at random in an 8 m x 8 m room; corridor "
               "z 3-5 from x = 8; the stair would be x 20-23 (here plain floor: no stair in the "
               "model); goal at x = 26."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  LineCrossings corridor({kRoomW, kCorridorLo}, {kRoomW, kCorridorHi});
  LineCrossings stair({kStairStart, kCorridorLo}, {kStairStart, kCorridorHi});
  // 2 m of corridor at its start and before the stair: a jam shows as a crowd before the stair.
  AreaSampler start({kRoomW, kCorridorLo}, {kRoomW + 2.0f, kCorridorHi}, 0.0, {1.0f, 0.0f});
  AreaSampler foot({kStairStart - 2.0f, kCorridorLo}, {kStairStart, kCorridorHi}, 0.0,
                   {1.0f, 0.0f});
  const VerifyRun r = run_verify_scenario(scenes.front(), context,
                                          {[&](const Simulation& s) { corridor.observe(s); },
                                           [&](const Simulation& s) { stair.observe(s); },
                                           [&](const Simulation& s) { start.observe(s); },
                                           [&](const Simulation& s) { foot.observe(s); }});
  TestOutcome out;
  const auto j_corridor = corridor.flow(), j_stair = stair.flow();
  out.values["persons"] = r.metrics.agents;
  out.values["corridor_flow_per_s"] = j_corridor ? nlohmann::ordered_json(*j_corridor) : nullptr;
  out.values["stair_flow_per_s"] = j_stair ? nlohmann::ordered_json(*j_stair) : nullptr;
  // Not the criterion: the flows of the middle 80% (without the first and last persons).
  const auto value = [](const std::optional<double>& j) {
    return j ? nlohmann::ordered_json(*j) : nlohmann::ordered_json(nullptr);
  };
  out.values["corridor_central_flow_per_s"] = value(corridor.central_flow());
  out.values["stair_central_flow_per_s"] = value(stair.central_flow());
  out.values["peak_at_corridor_start"] = start.max_count();
  out.values["peak_before_stair"] = foot.max_count();
  out.values["time_s"] = r.seconds;
  if (!j_corridor || !j_stair) {
    out.figure = "no flow measured";
    return out;
  }
  out.figure = "J corridor " + fixed(*j_corridor, 2) + " /s, J stair " + fixed(*j_stair, 2) +
               " /s; peak " + std::to_string(start.max_count()) +
               " in the corridor's first 4 m2, " + std::to_string(foot.max_count()) +
               " in the 4 m2 before the stair";
  out.passed = *j_stair < *j_corridor - kTolerance;
  return out;
}

} // namespace

VerifyTest rimea_test_13() {
  return {13,
          "Jam in front of a stair",
          "RiMEA 3.0 test 13; geometry and flow criterion as JuPedSim test_13",
          "J(stair) < J(corridor) - " + fixed(kTolerance, 2) + " /s (a jam at the stair)",
          scenarios,
          run};
}

} // namespace crowd

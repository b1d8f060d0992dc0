// Whole runs on the cpu backend under each avoidance model other than DetourCrowd's sampling
// (scenario `avoidance: {"model": ...}`): what a user relies on whichever model they pick. A
// head-on pair passes without overlap, an agent walks round a wall across its way without
// touching it, and two crowds crossing each other arrive without wall contact; under ORCA the
// antipodal circle (samples/scenarios/circle.json) has no overlap at all, as its guarantee
// promises where the linear program is feasible.
#include "host/scenario/scenario.h"
#include "host/sim/simulation.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace crowd {
namespace {

MetricsSummary run_on_cpu(const Scenario& scenario) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(scenario, options);
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  return sim.metrics();
}

class AvoidanceModelRuns : public ::testing::TestWithParam<std::string> {
protected:
  /// A 30 s scene of 0.4 m agents at 1.4 m/s, all on the model under test.
  MetricsSummary run(const std::string& body) const {
    const std::string json = R"({"name": "models", "seed": 3, "dt": 0.1, "duration": 30,
        "defaults": {"radius": 0.4, "max_speed": 1.4, "avoidance": {"model": ")" +
                             GetParam() + R"("}},)" + body + "}";
    return run_on_cpu(parse_scenario(json, GetParam() + ".json"));
  }
};

TEST_P(AvoidanceModelRuns, AHeadOnPairPassesWithoutOverlap) {
  const MetricsSummary m = run(R"(
      "world": {"bounds": [[-10, -5], [10, 5]]},
      "agents": [{"position": [-6, 0], "goal": [6, 0]}, {"position": [6, 0.1], "goal": [-6, 0.1]}])");
  EXPECT_EQ(m.arrived, 2);
  EXPECT_EQ(m.overlap_events, 0);
}

TEST_P(AvoidanceModelRuns, AnAgentDoesNotWalkIntoAWallAcrossItsWay) {
  // The wall stands across the straight line; the path goes round its end.
  const MetricsSummary m = run(R"(
      "world": {"bounds": [[-10, -10], [10, 10]], "obstacles": [[[-0.1, -6], [0.1, -6], [0.1, 3], [-0.1, 3]]]},
      "agents": [{"position": [-5, 0], "goal": [5, 0]}, {"position": [-5, -2], "goal": [5, -2]}])");
  EXPECT_EQ(m.arrived, 2);
  EXPECT_EQ(m.wall_events, 0);
}

TEST_P(AvoidanceModelRuns, TwoCrossingGroupsArriveWithoutWallEvents) {
  const MetricsSummary m = run(R"(
      "world": {"bounds": [[-12, -12], [12, 12]]},
      "groups": [
        {"count": 12, "spawn": {"rect": [[-11, -3], [-7, 3]]}, "goal": {"rect": [[7, -3], [11, 3]]}},
        {"count": 12, "spawn": {"rect": [[-3, -11], [3, -7]]}, "goal": {"rect": [[-3, 7], [3, 11]]}}])");
  EXPECT_EQ(m.arrived, 24);
  EXPECT_EQ(m.wall_events, 0);
}

INSTANTIATE_TEST_SUITE_P(Models, AvoidanceModelRuns, ::testing::Values("ttc", "mass", "orca"),
                         [](const ::testing::TestParamInfo<std::string>& model) {
                           return model.param;
                         });

TEST(OrcaRuns, TheAntipodalCircleHasNoOverlapAndEveryoneArrives) {
  std::ifstream in(std::string(CROWD_SOURCE_DIR) + "/samples/scenarios/circle.json");
  nlohmann::json json = nlohmann::json::parse(in);
  json["defaults"]["avoidance"] = {{"model", "orca"}};
  const MetricsSummary m = run_on_cpu(parse_scenario(json.dump(), "circle.json"));
  EXPECT_EQ(m.arrived, 100);
  EXPECT_EQ(m.overlap_events, 0);
  EXPECT_EQ(m.wall_events, 0);
}

} // namespace
} // namespace crowd

// Off-mesh links (scenario `world.links`) on every backend: an agent takes a link when the walk
// round is longer and not when it is shorter, is counted once per crossing, and is not measured
// against the wall it crosses; our solver crosses them as DetourCrowd does (within 2.25 radii of
// the link's start, to its start in the first 15% of half its length over its speed, then to its
// end), at rest to the others meanwhile; a checkpoint taken mid-crossing resumes bit for bit. An
// agent type whose query filter excludes the link's flag walks round (scenario query_filters).
#include "host/checkpoint/archive.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"
#include "tests/support/link_worlds.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace crowd {
namespace {

constexpr const char* kOverTheWall = R"([{"start": [12, 3], "end": [18, 3]}])";

class OffMeshLinks : public ::testing::TestWithParam<BackendKind> {
protected:
  /// The metrics of `scenario` once its agent arrived (or after 60 s).
  MetricsSummary run(const std::string& scenario) const {
    SimulationOptions options;
    options.backend = GetParam();
    Simulation sim(parse_scenario(scenario, "links.json"), options);
    while (sim.step_index() < 600 && sim.phase(0) != AgentPhase::Arrived)
      sim.step();
    return sim.metrics();
  }
};

TEST_P(OffMeshLinks, AnAgentTakesALinkWhenTheWalkRoundIsLonger) {
  // Round the wall: about 37 m; over it by the link: 7 + 6 + 7 m.
  const MetricsSummary m = run(test::split_room(kOverTheWall));
  EXPECT_EQ(m.arrived, 1);
  EXPECT_EQ(m.link_traversals, 1);
  // Over the wall by the link is no wall event: an agent on a link is off the navmesh by design.
  EXPECT_EQ(m.wall_events, 0);
  ASSERT_TRUE(m.mean_arrival_time.has_value());
  EXPECT_LT(*m.mean_arrival_time, 20.0);
  const MetricsSummary round = run(test::split_room("[]"));
  ASSERT_TRUE(round.mean_arrival_time.has_value());
  EXPECT_GT(*round.mean_arrival_time, 24.0); // walking round, about 27 s at 1.4 m/s
  EXPECT_EQ(round.link_traversals, 0);
}

TEST_P(OffMeshLinks, NotWhenTheWalkIsShorter) {
  // Straight through the wall's opening at z = 10: 20 m; by the link at z = 3, about 26 m.
  const MetricsSummary m = run(test::split_room(kOverTheWall, 10.0f, true));
  EXPECT_EQ(m.arrived, 1);
  EXPECT_EQ(m.link_traversals, 0);
}

TEST_P(OffMeshLinks, AnAgentTypeWhoseQueryFilterExcludesTheLinkWalksRound) {
  // Scenario extension query_filters: type "wheels" (filter 1) excludes the link's flag 2.
  nlohmann::json scenario = nlohmann::json::parse(
      test::split_room(R"([{"start": [12, 3], "end": [18, 3], "flags": 2}])"));
  scenario["query_filters"] = nlohmann::json::parse(R"([{}, {"exclude_flags": 2}])");
  scenario["types"] = nlohmann::json::parse(R"({"wheels": {"query_filter_type": 1}})");
  scenario["agents"].push_back(
      nlohmann::json::parse(R"({"position": [5, 7], "goal": [25, 8], "type": "wheels"})"));
  SimulationOptions options;
  options.backend = GetParam();
  Simulation sim(parse_scenario(scenario.dump(), "links.json"), options);
  int arrived_at[2] = {-1, -1};
  while (sim.step_index() < 600 && (arrived_at[0] < 0 || arrived_at[1] < 0)) {
    sim.step();
    for (int id = 0; id < 2; ++id)
      if (arrived_at[id] < 0 && sim.phase(id) == AgentPhase::Arrived)
        arrived_at[id] = sim.step_index();
  }
  EXPECT_EQ(sim.metrics().link_traversals, 1); // the walker's, not the wheels'
  EXPECT_GT(arrived_at[0], 0);
  EXPECT_LT(arrived_at[0], 200);
  EXPECT_GT(arrived_at[1], 180); // round the wall: about 28 m, 20 s at 1.4 m/s
}

INSTANTIATE_TEST_SUITE_P(Backends, OffMeshLinks,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& backend) {
                           return std::string(backend.param == BackendKind::Cpu ? "cpu" : "detour");
                         });

TEST(OffMeshLinksOnOurSolver, TheCrossingIsDetourCrowdsAndTheOthersSeeItAtRest) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(parse_scenario(test::split_room(kOverTheWall), "links.json"), options);
  const CrowdSolver& solver = *sim.crowd_solver();
  int crossing_steps = 0, first = -1;
  glm::vec3 took_at{0.0f};
  for (int step = 0; step < 300 && sim.phase(0) != AgentPhase::Arrived; ++step) {
    const glm::vec3 before = sim.position(0);
    sim.step();
    if (!solver.navigator().on_links()[0])
      continue;
    if (first < 0) {
      first = step;
      took_at = before;
    }
    ++crossing_steps;
    // At rest to the kernels: no velocity, no neighbours of its own, the mode the host set.
    EXPECT_EQ(sim.velocity(0), glm::vec2(0.0f)) << "step " << step;
    EXPECT_EQ(solver.arrays().mode[0], kAgentOnLink) << "step " << step;
  }
  ASSERT_GE(first, 0) << "the link was never taken";
  // Taken within 2.25 radii (0.4 m) of the link's start, at (12, 3) or where the navmesh puts it.
  EXPECT_LT(std::hypot(took_at.x - 12.0f, took_at.z - 3.0f), 2.25f * 0.4f + 0.05f);
  // Half of 6 m at 1.4 m/s: about 2.1 s, 21 or 22 steps of 0.1 s.
  EXPECT_GE(crossing_steps, 20);
  EXPECT_LE(crossing_steps, 23);
  EXPECT_GT(sim.position(0).x, 17.5f);
}

TEST(OffMeshLinksOnOurSolver, ACheckpointTakenMidCrossingResumesBitForBit) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  const Scenario scenario = parse_scenario(test::split_room(kOverTheWall), "links.json");
  Simulation original(scenario, options);
  while (!original.crowd_solver()->navigator().on_links()[0])
    original.step();
  original.step(); // well into the crossing
  ArchiveWriter out;
  original.save_checkpoint(out);
  Simulation resumed(scenario, options);
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "mid-crossing");
  resumed.restore_checkpoint(in);
  for (int step = 0; step < 80; ++step) {
    original.step();
    resumed.step();
    ASSERT_EQ(original.position(0), resumed.position(0)) << "step " << step;
  }
  EXPECT_EQ(original.metrics().link_traversals, 1);
  EXPECT_EQ(resumed.metrics().link_traversals, 1);
}

} // namespace
} // namespace crowd

// Agents' lives in a run (host/sim/agent_schedule.cpp), observed through crowd::Simulation
// on a real navmesh with our CPU backend and with DetourCrowd: start delays, waypoints with
// waits, emitters that let an agent in only where it has room, arrival times from the entry.
#include "host/sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace crowd {
namespace {

Simulation simulate(const std::string& json, BackendKind backend) {
  SimulationOptions options;
  options.backend = backend;
  options.solver.threads = 1;
  return Simulation(parse_scenario(json, "schedule.json"), options);
}

float horizontal(const glm::vec3& a, const glm::vec3& b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

class AgentLifecycle : public ::testing::TestWithParam<BackendKind> {};

TEST_P(AgentLifecycle, DelayedAgentIsAbsentUntilItsStartAndKeepsItsScenarioId) {
  Simulation sim = simulate(R"({"dt": 0.1, "world": {"bounds": [[0, 0], [20, 20]]},
    "agents": [{"position": [2, 2], "goal": [18, 2], "start_delay": 1.0},
               {"position": [2, 10], "goal": [18, 10]}]})",
                            GetParam());
  ASSERT_EQ(sim.agent_count(), 2);
  EXPECT_EQ(sim.phase(0), AgentPhase::Pending);
  EXPECT_EQ(sim.phase(1), AgentPhase::Walking);
  const glm::vec3 spawn = sim.position(0);
  EXPECT_NEAR(spawn.x, 2.0f, 1e-3f);
  for (int s = 1; s < 10; ++s) {
    sim.step();
    EXPECT_EQ(sim.phase(0), AgentPhase::Pending) << "step " << s;
    EXPECT_EQ(sim.position(0), spawn);
    EXPECT_EQ(sim.velocity(0), glm::vec2(0.0f));
  }
  // Agent 1 walks meanwhile, under its own id.
  EXPECT_GT(sim.position(1).x, 2.5f);
  sim.step(); // ends at t = 1.0: the agent enters where it was placed.
  EXPECT_EQ(sim.phase(0), AgentPhase::Walking);
  EXPECT_NEAR(horizontal(sim.position(0), spawn), 0.0f, 1e-4f);
  for (int s = 0; s < 10; ++s) {
    sim.step();
  }
  EXPECT_GT(sim.position(0).x, 2.5f) << "the agent walks once it has entered";
  EXPECT_NEAR(sim.position(0).z, 2.0f, 0.3f);
}

TEST_P(AgentLifecycle, AgentStandsAtAWaypointForItsWaitThenWalksToItsGoal) {
  Simulation sim = simulate(R"({"dt": 0.1, "duration": 30, "world": {"bounds": [[0, 0], [20, 20]]},
    "agents": [{"position": [2, 5], "goal": [10, 15],
                "waypoints": [{"point": [10, 5], "wait": 2}]}]})",
                            GetParam());
  int first_waiting = -1, last_waiting = -1;
  glm::vec3 where_waiting{0.0f};
  while (sim.step_index() < 300 && sim.phase(0) != AgentPhase::Arrived) {
    sim.step();
    if (sim.phase(0) == AgentPhase::Waiting) {
      if (first_waiting < 0) {
        first_waiting = sim.step_index();
        where_waiting = sim.position(0);
        EXPECT_LE(horizontal(where_waiting, {10, 0, 5}), 0.5f);
      }
      last_waiting = sim.step_index();
      EXPECT_LT(horizontal(sim.position(0), where_waiting), 0.3f) << "a waiting agent stands";
    }
  }
  ASSERT_GE(first_waiting, 0) << "never stood at the waypoint";
  // Waits 2 s: released at the end of the 20th step after the one it arrived in.
  EXPECT_EQ(last_waiting - first_waiting, 19);
  ASSERT_EQ(sim.phase(0), AgentPhase::Arrived);
  EXPECT_LE(horizontal(sim.position(0), {10, 0, 15}), 0.5f);
  const MetricsSummary m = sim.metrics();
  EXPECT_EQ(m.arrived, 1);
  // 8 m + 10 m at 1.4 m/s, less the arrival radius (0.5 m) at the waypoint and at the goal,
  // plus the 2 s wait.
  EXPECT_GT(*m.mean_arrival_time, 17.0 / 1.4 + 2.0);
  EXPECT_LT(*m.mean_arrival_time, 18.0 / 1.4 + 2.0 + 4.0);
  // The shortest path runs through the waypoint, so walking it is a ratio near 1.
  ASSERT_TRUE(m.mean_path_ratio.has_value());
  EXPECT_GT(*m.mean_path_ratio, 0.95);
  EXPECT_LT(*m.mean_path_ratio, 1.1);
}

TEST_P(AgentLifecycle, ArrivalTimeIsMeasuredFromTheAgentsEntry) {
  const std::string world = R"("dt": 0.1, "world": {"bounds": [[0, 0], [20, 20]]})";
  Simulation now =
      simulate("{" + world + R"(, "agents": [{"position": [2, 2], "goal": [12, 2]}]})", GetParam());
  Simulation later = simulate(
      "{" + world + R"(, "agents": [{"position": [2, 2], "goal": [12, 2], "start_delay": 5}]})",
      GetParam());
  for (int s = 0; s < 200; ++s) {
    now.step();
    later.step();
  }
  ASSERT_EQ(now.metrics().arrived, 1);
  ASSERT_EQ(later.metrics().arrived, 1);
  EXPECT_NEAR(*later.metrics().mean_arrival_time, *now.metrics().mean_arrival_time, 0.15);
}

TEST_P(AgentLifecycle, AgentThatNeverEntersIsNotCountedInTheMetrics) {
  Simulation sim = simulate(R"({"dt": 0.1, "world": {"bounds": [[0, 0], [20, 20]]},
    "agents": [{"position": [2, 2], "goal": [12, 2], "start_delay": 50},
               {"position": [2, 8], "goal": [12, 8]}]})",
                            GetParam());
  for (int s = 0; s < 20; ++s) {
    sim.step();
  }
  EXPECT_EQ(sim.metrics().agents, 1);
}

TEST_P(AgentLifecycle, EmitterLetsAnAgentInOnlyWhereItHasRoom) {
  // Ten agents per second through a 0.2 m door: faster than they can clear it, so each
  // waits until its place is free (each its own place: one held back holds nobody else).
  Simulation sim = simulate(R"({"dt": 0.1, "world": {"bounds": [[0, 0], [30, 10]]},
    "emitters": [{"spawn": {"rect": [[2, 4.9], [2.2, 5.1]]}, "goal": {"rect": [[25, 1], [29, 9]]},
                  "rate": 10, "end": 1, "on_arrival": "remove"}]})",
                            GetParam());
  ASSERT_EQ(sim.agent_count(), 10);
  std::vector<int> entered_at(10, -1);
  EXPECT_NE(sim.phase(0), AgentPhase::Pending) << "the first is due at time 0";
  entered_at[0] = 0;
  for (int s = 1; s <= 600; ++s) {
    sim.step();
    for (int i = 0; i < 10; ++i) {
      if (entered_at[static_cast<std::size_t>(i)] < 0 && sim.phase(i) != AgentPhase::Pending) {
        entered_at[static_cast<std::size_t>(i)] = s;
        // Its disc is clear of every agent present.
        for (int j = 0; j < 10; ++j) {
          if (j != i && is_present(sim.phase(j))) {
            EXPECT_GE(horizontal(sim.position(i), sim.position(j)), 0.8f - 1e-4f)
                << i << " entered on " << j;
          }
        }
      }
    }
  }
  for (int i = 0; i < 10; ++i) {
    ASSERT_GE(entered_at[static_cast<std::size_t>(i)], 0) << "agent " << i << " never entered";
    // Not before it is due (agent i at step i).
    EXPECT_GE(entered_at[static_cast<std::size_t>(i)], i);
  }
  // Held back: the ten due within a second take far longer to get in.
  EXPECT_GT(*std::max_element(entered_at.begin(), entered_at.end()), 20);
  const MetricsSummary m = sim.metrics();
  EXPECT_EQ(m.agents, 10);
  EXPECT_EQ(m.arrived, 10);
  EXPECT_EQ(m.overlap_events, 0);
}

TEST_P(AgentLifecycle, RemovingOrRedirectingAnAgentBeforeItEntersIsHonoured) {
  Simulation sim = simulate(R"({"dt": 0.1, "world": {"bounds": [[0, 0], [20, 20]]},
    "agents": [{"position": [2, 2], "goal": [18, 2], "start_delay": 0.5,
                "waypoints": [{"point": [10, 10], "wait": 5}]},
               {"position": [2, 8], "goal": [18, 8], "start_delay": 0.5}]})",
                            GetParam());
  sim.remove_agent(1);
  sim.set_goal(0, {4, 0, 2}); // replaces the route, waypoint included
  for (int s = 0; s < 60; ++s) {
    sim.step();
  }
  EXPECT_EQ(sim.phase(1), AgentPhase::Removed);
  EXPECT_EQ(sim.phase(0), AgentPhase::Arrived);
  EXPECT_LE(horizontal(sim.position(0), {4, 0, 2}), 0.5f);
}

/// 40 agents spread over a 16 m square, all sent to the point (0, 0) to stop there.
std::string one_point(const std::string& arrival) {
  return R"({"dt": 0.1, "duration": 60, "seed": 3, "world": {"bounds": [[-10, -10], [10, 10]]},
    "defaults": {"radius": 0.35, "on_arrival": "stop", "arrival": ")" +
         arrival + R"("},
    "groups": [{"count": 40, "spawn": {"rect": [[-8, -8], [8, 8]]}, "goal": {"point": [0, 0]}}]})";
}

TEST_P(AgentLifecycle, ACrowdSentToOnePointArrivesByContact) {
  Simulation sim = simulate(one_point("contact"), GetParam());
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  const MetricsSummary m = sim.metrics();
  // Arrival spreads through the cluster on both backends. DetourCrowd leaves a few agents
  // standing short of it, out of contact (its separation from the cluster balances the pull
  // of the goal); our solver's standoff manoeuvre presses them on into contact.
  EXPECT_GE(m.arrived, 30);
  EXPECT_GT(m.arrived_by_contact, 25) << "only a few fit within arrival_radius of the point";
  int arrived = 0;
  for (int id = 0; id < 40; ++id) {
    arrived += sim.phase(id) == AgentPhase::Arrived ? 1 : 0;
    if (sim.phase(id) == AgentPhase::Arrived) { // The cluster around the point.
      EXPECT_LT(horizontal(sim.position(id), {0, 0, 0}), 4.0f) << id;
    }
  }
  EXPECT_EQ(arrived, m.arrived);
  if (GetParam() == BackendKind::Cpu) {
    EXPECT_EQ(m.arrived, 40);
    EXPECT_EQ(m.stuck.stuck_now, 0) << "arrived agents are not stuck";
  }
}

TEST_P(AgentLifecycle, UnderTheRadiusRuleAlonePointGoalsJam) {
  Simulation sim = simulate(one_point("radius"), GetParam());
  while (sim.step_index() < sim.scenario().step_count())
    sim.step();
  const MetricsSummary m = sim.metrics();
  EXPECT_LT(m.arrived, 15);
  EXPECT_EQ(m.arrived_by_contact, 0);
  EXPECT_GT(m.stuck.stuck_now, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, AgentLifecycle,
                         ::testing::Values(BackendKind::Cpu, BackendKind::Detour),
                         [](const ::testing::TestParamInfo<BackendKind>& test_param) {
                           return std::string(test_param.param == BackendKind::Cpu ? "Cpu"
                                                                                   : "Detour");
                         });

} // namespace
} // namespace crowd

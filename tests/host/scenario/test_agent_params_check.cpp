// The parameter ranges applied to agents that do not come through the reader: the same as
// the scenario format's (shared/spec/scenario.md), checked against what the reader accepts.
// Every limit of every model: test_param_table.cpp.
#include "host/scenario/agent_params_check.h"
#include "host/scenario/scenario.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace crowd {
namespace {

TEST(AgentParamsCheck, DefaultsAndEveryPresetPass) {
  EXPECT_EQ(agent_params_problem(AgentParams{}), std::nullopt);
  for (const AvoidancePreset preset : {AvoidancePreset::Low, AvoidancePreset::Medium,
                                       AvoidancePreset::Good, AvoidancePreset::High}) {
    AgentParams params;
    params.avoidance = avoidance_preset(preset);
    EXPECT_EQ(agent_params_problem(params), std::nullopt);
  }
}

TEST(AgentParamsCheck, ValuesTheReaderAcceptsPassAndTheOnesItRefusesDoNot) {
  // Reader-parsed agents sit at the edges of each range.
  const Scenario s = parse_scenario(
      R"({"world": {"bounds": [[0, 0], [9, 9]]}, "agents": [{"position": [1, 1], "goal": [2, 2],
          "radius": 1e-6, "separation_weight": 0, "collision_query_range": 1e-6,
          "avoidance": {"vel_bias": 1, "weight_des_vel": 0, "weight_cur_vel": 0, "weight_side": 0,
                        "weight_toi": 0, "adaptive_divs": 32, "adaptive_rings": 4,
                        "adaptive_depth": 16}}]})",
      "edges.json");
  EXPECT_EQ(agent_params_problem(s.agents[0].params), std::nullopt);

  AgentParams params;
  params.separation_weight = -std::numeric_limits<float>::min();
  EXPECT_EQ(agent_params_problem(params),
            "separation_weight must be a number >= 0, got -1.1754944e-38");
  params = {};
  params.avoidance.weight_toi = std::numeric_limits<float>::infinity();
  EXPECT_EQ(agent_params_problem(params),
            "avoidance.weight_toi must be a number >= 0, got infinity");
  params = {};
  params.max_accel = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(agent_params_problem(params), "max_accel must be a number > 0, got NaN");
}

TEST(AgentParamsCheck, NamesTheFirstProblemInTheSpecsOrder) {
  AgentParams params;
  params.arrival_radius = 0.0f;
  params.radius = -1.0f;
  EXPECT_EQ(agent_params_problem(params), "radius must be a number > 0, got -1");
}

} // namespace
} // namespace crowd

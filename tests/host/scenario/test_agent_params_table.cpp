// The Crowd's record of every agent's parameters (host/scenario/agent_params_table.h): an agent's
// parameters read back as given, whatever the others', with what agents share held once.
#include "host/scenario/agent_params_table.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

/// Parameters with every field away from its default, varied by `k`.
AgentParams unusual(int k) {
  AgentParams p;
  p.radius = 0.25f + 0.01f * static_cast<float>(k);
  p.max_speed = 2.0f + 0.1f * static_cast<float>(k);
  p.max_accel = 5.5f;
  p.avoidance = avoidance_defaults(k % 2 ? kAvoidanceOrca : kAvoidanceTtc);
  p.avoidance.ttc.time_horizon = 3.0f + static_cast<float>(k % 3);
  p.avoidance_name = "custom";
  p.separation_weight = 0.5f;
  if (k % 4 != 0)
    p.collision_query_range = 3.0f + static_cast<float>(k);
  p.arrival_radius = 0.9f;
  p.on_arrival = OnArrival::Remove;
  p.arrival = ArrivalRule::Radius;
  p.standoff = StandoffRule::KeepLeft;
  p.type = k % 2 ? "child" : "adult";
  p.query_filter_type = 1 + k % 15;
  return p;
}

TEST(AgentParamsTable, ReadsEveryAgentsParametersBackAsGivenWithTheSharedPartOnce) {
  AgentParamsTable table;
  table.push_back(AgentParams{});
  for (int k = 0; k < 60; ++k)
    table.push_back(unusual(k));
  ASSERT_EQ(table.size(), 61u);
  EXPECT_EQ(table[0], AgentParams{});
  for (int k = 0; k < 60; ++k) {
    const std::size_t id = static_cast<std::size_t>(k) + 1;
    EXPECT_EQ(table[id], unusual(k)) << k;
    EXPECT_EQ(table.radius(id), unusual(k).radius);
    EXPECT_EQ(table.max_speed(id), unusual(k).max_speed);
    EXPECT_EQ(table.query_filter_type(id), unusual(k).query_filter_type);
  }
  // The defaults, and the six (model and type, horizon) pairs the 60 agents share.
  EXPECT_EQ(table.shared_count(), 1u + 6u);

  table.set(3, AgentParams{});
  EXPECT_EQ(table[3], AgentParams{});
  EXPECT_EQ(table[4], unusual(3));
  EXPECT_EQ(table.shared_count(), 7u);
}

TEST(AgentParamsTable, DropsASharedPartNoAgentHasAnyMore) {
  AgentParamsTable table;
  table.push_back(AgentParams{});
  table.push_back(AgentParams{});
  // A game that eases one agent's avoidance every frame: every frame's parameters are new.
  for (int frame = 0; frame < 10000; ++frame) {
    AgentParams eased;
    eased.avoidance.weight_toi = 2.5f + 0.0001f * static_cast<float>(frame);
    table.set(1, eased);
    ASSERT_EQ(table[1], eased) << frame;
    ASSERT_EQ(table[0], AgentParams{}) << frame;
  }
  EXPECT_EQ(table.shared_count(), 2u);
  const std::size_t bytes = table.memory_bytes();
  table.set(1, AgentParams{});
  EXPECT_EQ(table.shared_count(), 1u);
  EXPECT_LE(table.memory_bytes(), bytes);
  table.set(0, unusual(5));
  table.set(1, unusual(5));
  EXPECT_EQ(table.shared_count(), 1u);
  EXPECT_EQ(table[0], unusual(5));
  EXPECT_EQ(table[1], unusual(5));
}

TEST(AgentParamsTable, TellsApartSharedPartsThatDifferInAnyField) {
  AgentParamsTable table;
  AgentParams a, b = a;
  b.avoidance.weight_toi += 0.5f; // a field the hash leaves out
  AgentParams c = a;
  c.avoidance.mass.wall_stiffness = 0.7f;
  table.push_back(a);
  table.push_back(b);
  table.push_back(c);
  EXPECT_EQ(table.shared_count(), 3u);
  EXPECT_EQ(table[0], a);
  EXPECT_EQ(table[1], b);
  EXPECT_EQ(table[2], c);
}

} // namespace
} // namespace crowd

// The kernel stages' per-agent arrays (cuda/core/agent_arrays.h): room reserved for a run's
// agents is all that adding them takes, in every column and corridor row; rows reordered carry
// every column with them, and the fields that name rows follow their agents, the corridor rows
// and the rows asked about among them.
#include "cuda/core/agent_arrays.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <span>
#include <stdexcept>
#include <vector>

namespace crowd {
namespace {

TEST(AgentArrays, AddingTheAgentsReservedForGrowsNoColumn) {
  AgentArrays arrays;
  arrays.corridors.capacity = 32;
  arrays.corridors.corner_capacity = 4;
  const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
  constexpr int kAgents = 777; // no power of two: a column grown by doubling holds more
  arrays.reserve(kAgents);
  const std::size_t reserved = arrays.memory_bytes();
  for (int i = 0; i < kAgents; ++i) {
    const glm::vec3 at{static_cast<float>(i), 0.0f, 0.0f};
    arrays.append(at, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, set);
    arrays.corridors.append(at);
  }
  ASSERT_EQ(arrays.count(), kAgents);
  ASSERT_EQ(arrays.corridors.count(), kAgents);
  EXPECT_EQ(arrays.memory_bytes(), reserved);

  // One more than reserved grows them, as before.
  arrays.append({0.0f, 0.0f, 1.0f}, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, set);
  EXPECT_GT(arrays.memory_bytes(), reserved);
}

/// Three agents at x = 0, 1, 2, each with its own radius, agent 0's neighbours 2 then 1.
AgentArrays three_agents() {
  AgentArrays arrays;
  arrays.max_neighbors = 2;
  const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
  for (int i = 0; i < 3; ++i)
    arrays.append({static_cast<float>(i), 0.0f, 0.0f}, 0.3f + 0.1f * static_cast<float>(i), 2.0f,
                  8.0f, 3.6f, 2.0f, set);
  arrays.neighbor_index[0] = 2;
  arrays.neighbor_index[1] = 1;
  arrays.neighbor_count[0] = 2;
  arrays.collider_index[2 * 2] = 0; // agent 2's collider: agent 0
  arrays.standoff_partner[1] = 2;   // agent 1 met agent 2
  return arrays;
}

TEST(AgentArrays, ReorderedRowsCarryEveryColumnAndTheRowsTheyName) {
  AgentArrays arrays = three_agents();
  const std::uint64_t layout = arrays.layout_version;
  arrays.reorder_rows({2, 0, 1}); // rows now hold agents 2, 0, 1
  EXPECT_EQ(arrays.agent_id, (std::vector<std::int32_t>{2, 0, 1}));
  // And where each agent is: agent 0 in row 1, agent 1 in row 2, agent 2 in row 0.
  EXPECT_EQ(arrays.agent_row, (std::vector<std::int32_t>{1, 2, 0}));
  EXPECT_EQ(arrays.rows_of(std::vector<std::int32_t>{2, 1}), (std::vector<std::int32_t>{0, 2}));
  std::vector<std::int32_t> scratch;
  const std::vector<std::int32_t> ids{2, 1};
  const std::span<const std::int32_t> rows = arrays.rows_of(ids, scratch);
  EXPECT_EQ(std::vector<std::int32_t>(rows.begin(), rows.end()), (std::vector<std::int32_t>{0, 2}));
  std::vector<std::int32_t> id_scratch;
  const std::span<const std::int32_t> back = arrays.ids_of(rows, id_scratch);
  EXPECT_EQ(std::vector<std::int32_t>(back.begin(), back.end()), ids);
  EXPECT_GT(arrays.layout_version, layout);
  EXPECT_EQ(arrays.position[0].x, 2.0f);
  EXPECT_EQ(arrays.radius[1], 0.3f);
  EXPECT_EQ(arrays.neighbor_count[1], 2);
  // Agent 0 (row 1) names agent 2 (row 0), then agent 1 (row 2).
  EXPECT_EQ(arrays.neighbor_index[1 * 2 + 0], 0);
  EXPECT_EQ(arrays.neighbor_index[1 * 2 + 1], 2);
  EXPECT_EQ(arrays.collider_index[0 * 2], 1); // agent 2's collider, agent 0, is row 1
  EXPECT_EQ(arrays.standoff_partner[2], 0);   // agent 1 met agent 2, row 0
  EXPECT_EQ(arrays.standoff_partner[1], -1);

  // Again: the ids follow the rows, and the rows named follow too.
  arrays.reorder_rows({1, 2, 0}); // agents 0, 1, 2 back in their own rows
  EXPECT_TRUE(arrays.agent_id.empty()) << "rows that are the ids again need no map";
  EXPECT_TRUE(arrays.agent_row.empty());
  EXPECT_EQ(arrays.rows_of(ids, scratch).data(), ids.data()) << "the ids are the rows: no copy";
  EXPECT_EQ(arrays.ids_of(ids, id_scratch).data(), ids.data());
  const AgentArrays original = three_agents();
  EXPECT_EQ(arrays.neighbor_index, original.neighbor_index);
  EXPECT_EQ(arrays.collider_index, original.collider_index);
  EXPECT_EQ(arrays.standoff_partner, original.standoff_partner);
  EXPECT_EQ(arrays.position, original.position);

  // An agent added after gets the next id.
  arrays.reorder_rows({2, 1, 0});
  EXPECT_EQ(arrays.append({5.0f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, 0), 3);
  EXPECT_EQ(arrays.agent_id, (std::vector<std::int32_t>{2, 1, 0, 3}));
  EXPECT_EQ(arrays.agent_row, (std::vector<std::int32_t>{2, 1, 0, 3}));
  for (int row = 0; row < arrays.count(); ++row)
    EXPECT_EQ(arrays.row_of(arrays.id_of(row)), row);
}

TEST(AgentArrays, ReorderingRefusesWhatIsNoPermutationOfTheRows) {
  AgentArrays arrays = three_agents();
  const AgentArrays before = arrays;
  for (const std::vector<std::int32_t>& order :
       {std::vector<std::int32_t>{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}}) {
    EXPECT_THROW(arrays.reorder_rows(order), std::invalid_argument);
    EXPECT_EQ(arrays.position, before.position);
    EXPECT_TRUE(arrays.agent_id.empty());
    EXPECT_TRUE(arrays.agent_row.empty());
    EXPECT_EQ(arrays.row_of(2), 2);
  }
  // Corridor rows move with the agents' only as one per agent.
  arrays.corridors.capacity = 4;
  for (int i = 0; i < 2; ++i)
    arrays.corridors.append(arrays.position[static_cast<std::size_t>(i)]);
  EXPECT_THROW(arrays.reorder_rows({2, 1, 0}), std::invalid_argument);
  EXPECT_TRUE(arrays.agent_id.empty());
}

/// three_agents with a corridor row each: agent i's corridor of i + 1 polygons (10 i, 10 i + 1,
/// ...) and i corners, its goal polygon 100 + i; agents 0 and 2 asked about.
AgentArrays three_agents_with_corridors() {
  AgentArrays arrays = three_agents();
  CorridorArrays& rows = arrays.corridors;
  rows.capacity = 4;
  rows.corner_capacity = 2;
  for (int i = 0; i < 3; ++i) {
    rows.append(arrays.position[static_cast<std::size_t>(i)]);
    for (int k = 0; k <= i; ++k)
      rows.row(i)[k] = 10 * i + k;
    rows.size[static_cast<std::size_t>(i)] = i + 1;
    rows.corner_count[static_cast<std::size_t>(i)] = std::min(i, 2);
    rows.corner_polys[static_cast<std::size_t>(2 * i)] = 10 * i;
    rows.set_goal(i, 100 + i);
  }
  rows.asked = {0, 2};
  std::fill(rows.dirty.begin(), rows.dirty.end(), 0); // an executor took them
  return arrays;
}

TEST(AgentArrays, CorridorRowsMoveWithTheirAgentsAndTheRowsAskedAboutFollow) {
  AgentArrays arrays = three_agents_with_corridors();
  const std::uint64_t goals = arrays.corridors.goal_version;
  arrays.reorder_rows({2, 0, 1}); // rows now hold agents 2, 0, 1
  const CorridorArrays& rows = arrays.corridors;
  EXPECT_EQ(rows.size, (std::vector<std::int32_t>{3, 1, 2}));
  EXPECT_EQ(rows.first_polygon(0), 20);
  EXPECT_EQ(rows.row(2)[1], 11);
  EXPECT_EQ(rows.goal, (std::vector<std::int32_t>{102, 100, 101}));
  EXPECT_EQ(rows.corner_count, (std::vector<std::int32_t>{2, 0, 1}));
  EXPECT_EQ(rows.corner_polys[2 * 2], 10);
  EXPECT_EQ(rows.position[0].x, 2.0f);
  EXPECT_EQ(rows.asked, (std::vector<std::int32_t>{0, 1})) << "agents 2 and 0, ascending";
  // The rows moved on the host: an executor that keeps them takes every one, and the goals.
  EXPECT_EQ(rows.dirty, (std::vector<std::uint8_t>{1, 1, 1}));
  EXPECT_GT(rows.goal_version, goals);
}

TEST(AgentArrays, CorridorRowsAnExecutorHoldsAreNotMovedUnfetched) {
  AgentArrays arrays = three_agents_with_corridors();
  arrays.corridors.held[1] = 0; // the device's copy of agent 1's row is the current one
  const AgentArrays before = arrays;
  EXPECT_THROW(arrays.reorder_rows({2, 1, 0}), std::logic_error);
  EXPECT_TRUE(arrays.agent_id.empty());
  EXPECT_EQ(arrays.position, before.position);
  EXPECT_EQ(arrays.corridors.size, before.corridors.size);
}

} // namespace
} // namespace crowd

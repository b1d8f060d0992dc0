// A run's agents' setups (host/scenario/agent_setup_table.h): every agent of a scenario read back
// as populate placed it (placement and parameters), with the parameters' shared part once per
// group, and the changes a run makes (a new goal, an agent the API refused).
#include "host/navmesh/navmesh.h"
#include "host/scenario/agent_setup_table.h"
#include "host/scenario/scenario.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace crowd {
namespace {

const std::filesystem::path kScenarios =
    std::filesystem::path(CROWD_SOURCE_DIR) / "samples" / "scenarios";

void expect_same_placement(const AgentPlacement& a, const AgentPlacement& b, std::size_t id) {
  EXPECT_EQ(a.position, b.position) << id;
  EXPECT_EQ(a.goal, b.goal) << id;
  EXPECT_EQ(a.json_path, b.json_path) << id;
  EXPECT_EQ(a.start_time, b.start_time) << id;
  ASSERT_EQ(a.waypoints.size(), b.waypoints.size()) << id;
  for (std::size_t w = 0; w < a.waypoints.size(); ++w) {
    EXPECT_EQ(a.waypoints[w].position, b.waypoints[w].position) << id;
    EXPECT_EQ(a.waypoints[w].wait, b.waypoints[w].wait) << id;
  }
  EXPECT_EQ(a.leader, b.leader) << id;
  EXPECT_EQ(a.follow_offset, b.follow_offset) << id;
}

// The film shot has explicit agents, groups with drawn parameters and waypoints, and an
// emitter with a schedule: every field of every agent comes back.
TEST(AgentSetupTable, ReadsEveryAgentOfAScenarioBackAsPopulated) {
  for (const char* name : {"film_shot.json", "escort.json"}) {
    const Scenario scenario = load_scenario(kScenarios / name);
    const NavMesh navmesh = NavMesh::build(scenario);
    const std::vector<AgentSetup> setups = populate(scenario, navmesh);
    ASSERT_GT(setups.size(), 10u) << name;
    const AgentSetupTable table(setups);
    ASSERT_EQ(table.size(), setups.size()) << name;
    std::set<std::string> types;
    bool any_waypoint = false, any_leader = false, any_later = false;
    for (std::size_t id = 0; id < setups.size(); ++id) {
      expect_same_placement(table[id], setups[id], id);
      EXPECT_EQ(table.params()[id], setups[id].params) << name << " agent " << id;
      const AgentSetup whole = table.setup(id);
      expect_same_placement(whole, setups[id], id);
      EXPECT_EQ(whole.params, setups[id].params) << name << " agent " << id;
      EXPECT_EQ(table.params().arrival_radius(id), setups[id].params.arrival_radius);
      EXPECT_EQ(table.params().on_arrival(id), setups[id].params.on_arrival);
      EXPECT_EQ(table.params().arrival(id), setups[id].params.arrival);
      EXPECT_EQ(table.params().type(id), setups[id].params.type);
      types.insert(setups[id].params.type);
      any_waypoint = any_waypoint || !setups[id].waypoints.empty();
      any_leader = any_leader || setups[id].leader >= 0;
      any_later = any_later || setups[id].start_time > 0.0;
    }
    EXPECT_TRUE(any_waypoint) << name << ": the scene should exercise waypoints";
    EXPECT_LE(table.params().shared_count(), 2 * types.size() + 2) << name;
    if (std::string(name) == "escort.json")
      EXPECT_TRUE(any_leader);
    else
      EXPECT_TRUE(any_later) << "the film shot's emitter";
  }
}

TEST(AgentSetupTable, KeepsANewGoalAndDropsTheLastAgent) {
  AgentSetup first;
  first.position = {1, 0, 2};
  first.goal = {5, 0, 2};
  first.json_path = "agents[0]";
  first.waypoints = {{{3, 0, 3}, 1.5f}};
  AgentSetup second = first;
  second.json_path = "api";
  second.params.radius = 0.4f;
  second.params.type = "child";

  AgentSetupTable table;
  table.push_back(first);
  table.push_back(second);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.params().shared_count(), 2u);

  table.placement(0).goal = {9, 0, 9};
  table.placement(0).waypoints.clear();
  EXPECT_EQ(table[0].goal, glm::vec3(9, 0, 9));
  EXPECT_TRUE(table.setup(0).waypoints.empty());
  EXPECT_EQ(table.setup(0).params, first.params);
  EXPECT_EQ(table.setup(1).params, second.params);

  table.pop_back(); // the API's agent, refused by the crowd
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table.params().size(), 1u);
  EXPECT_EQ(table.params().shared_count(), 1u) << "the child's shared part went with it";
  EXPECT_EQ(table.setup(0).params, first.params);
}

} // namespace
} // namespace crowd

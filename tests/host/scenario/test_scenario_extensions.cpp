// Scenario extensions (docs/scenario-extensions.md), as read and as placed: agent types as a
// layer between `defaults` and an agent's own keys, waypoints with waits, start delays and
// emitters; their errors; and the random streams that keep every other agent's draws as
// they were.
#include "host/navmesh/navmesh.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace crowd {
namespace {

ScenarioError error_for(const std::string& text) {
  try {
    parse_scenario(text, "film.json");
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return ScenarioError("", "(none)", "(none)");
}

/// A 30 x 30 m 2D world with `extra` top-level members.
std::string scene(const std::string& extra) {
  return R"({"world": {"bounds": [[0, 0], [30, 30]]}, )" + extra + "}";
}

std::vector<AgentSetup> place(const std::string& json) {
  const Scenario scenario = parse_scenario(json, "film.json");
  const NavMesh navmesh = NavMesh::build(scenario);
  return populate(scenario, navmesh);
}

constexpr const char* kTypes = R"("types": {
    "walker": {"max_speed": {"uniform": [1.2, 1.5]}, "radius": 0.35, "avoidance": "medium"},
    "elderly": {"max_speed": 0.7, "radius": 0.4, "max_accel": 3}})";

// ---- types ------------------------------------------------------------------------------

TEST(ScenarioTypes, TypeLayerSitsBetweenDefaultsAndTheAgentsOwnKeys) {
  const Scenario s = parse_scenario(scene(std::string(kTypes) + R"(,
    "defaults": {"max_accel": 6, "radius": 0.5},
    "agents": [{"position": [1, 1], "goal": [9, 9], "type": "elderly", "max_speed": 0.9},
               {"position": [2, 1], "goal": [9, 9]}],
    "groups": [{"count": 2, "spawn": {"rect": [[1, 5], [9, 9]]}, "goal": {"point": [20, 20]},
                "type": "walker", "max_speed": 1.0}])"),
                                    "film.json");
  const AgentParams& elderly = s.agents[0].params;
  EXPECT_EQ(elderly.type, "elderly");
  EXPECT_FLOAT_EQ(elderly.max_speed, 0.9f); // own key over the type
  EXPECT_FLOAT_EQ(elderly.max_accel, 3.0f); // type over defaults
  EXPECT_FLOAT_EQ(elderly.radius, 0.4f);
  EXPECT_EQ(s.agents[1].params.type, "agent"); // no type: the default label
  EXPECT_FLOAT_EQ(s.agents[1].params.max_accel, 6.0f);

  const GroupSpec& walkers = s.groups[0];
  EXPECT_EQ(walkers.base.type, "walker");
  EXPECT_EQ(walkers.base.avoidance_name, "medium");
  EXPECT_FLOAT_EQ(walkers.base.radius, 0.35f);
  EXPECT_FLOAT_EQ(walkers.base.max_accel, 6.0f);
  // The group's constant replaces the type's distribution.
  EXPECT_FALSE(walkers.max_speed.has_value());
  EXPECT_FLOAT_EQ(walkers.base.max_speed, 1.0f);
}

TEST(ScenarioTypes, TypeDistributionsAreDrawnPerAgentAndLabelEveryAgent) {
  const auto agents = place(scene(std::string(kTypes) + R"(,
    "agents": [{"position": [1, 1], "goal": [9, 9], "type": "walker"}],
    "groups": [{"count": 40, "spawn": {"rect": [[1, 5], [29, 29]]}, "goal": {"point": [2, 2]},
                "type": "walker"}])"));
  ASSERT_EQ(agents.size(), 41u);
  float lo = 10.0f, hi = 0.0f;
  for (const AgentSetup& a : agents) {
    EXPECT_EQ(a.params.type, "walker");
    EXPECT_GE(a.params.max_speed, 1.2f);
    EXPECT_LE(a.params.max_speed, 1.5f);
    lo = std::min(lo, a.params.max_speed);
    hi = std::max(hi, a.params.max_speed);
  }
  EXPECT_GT(hi - lo, 0.1f) << "speeds were not drawn per agent";
}

TEST(ScenarioTypes, MaxAgentRadiusCoversTypeDistributionsOfExplicitAgents) {
  const Scenario s = parse_scenario(scene(R"("types": {"big": {"radius": {"uniform": [0.3, 0.9]}}},
               "agents": [{"position": [1, 1], "goal": [9, 9], "type": "big"}])"),
                                    "film.json");
  EXPECT_FLOAT_EQ(s.max_agent_radius(), 0.9f);
}

// ---- waypoints, start delays, emitters --------------------------------------------------

TEST(ScenarioRoutes, WaypointsAndStartDelaysAreReadWithConstantsOrDistributions) {
  const Scenario s = parse_scenario(scene(R"(
    "agents": [{"position": [1, 1], "goal": [9, 9], "start_delay": 2.5,
                "waypoints": [{"point": [5, 1]}, {"point": [5, 0, 5], "wait": {"uniform": [1, 3]}}]}],
    "groups": [{"count": 2, "spawn": {"rect": [[1, 5], [9, 9]]}, "goal": {"point": [20, 20]},
                "start_delay": {"uniform": [0, 4]}}])"),
                                    "film.json");
  const ExplicitAgentSpec& a = s.agents[0];
  EXPECT_FLOAT_EQ(a.start_delay.lo, 2.5f);
  EXPECT_TRUE(a.start_delay.is_constant());
  ASSERT_EQ(a.waypoints.size(), 2u);
  EXPECT_FALSE(a.waypoints[0].point.has_height);
  EXPECT_EQ(a.waypoints[0].wait.hi, 0.0f);
  EXPECT_TRUE(a.waypoints[1].point.has_height);
  EXPECT_EQ(a.waypoints[1].wait.lo, 1.0f);
  EXPECT_EQ(a.waypoints[1].wait.hi, 3.0f);
  EXPECT_EQ(s.groups[0].start_delay.hi, 4.0f);
}

TEST(ScenarioRoutes, EmitterCountFollowsRateAndWindow) {
  const Scenario s = parse_scenario(scene(R"("emitters": [
    {"spawn": {"rect": [[1, 1], [3, 3]]}, "goal": {"point": [25, 25]}, "rate": 2, "start": 1, "end": 6},
    {"spawn": {"rect": [[1, 1], [3, 3]]}, "goal": {"rect": [[20, 20], [28, 28]]}, "rate": 0.3, "end": 10}])"),
                                    "film.json");
  ASSERT_EQ(s.emitters.size(), 2u);
  // 1, 1.5, ..., 5.5: the agent due at `end` itself does not enter.
  EXPECT_EQ(s.emitters[0].count, 10);
  EXPECT_DOUBLE_EQ(s.emitters[0].emission->time_of(9), 5.5);
  // 0, 3.33, 6.67: 10 * 0.3 = 3 exactly, the fourth would be at 10.
  EXPECT_EQ(s.emitters[1].count, 3);
  EXPECT_EQ(s.agent_count(), 13u);
}

TEST(ScenarioRoutes, PlacementGivesStartTimesWaitsAndEmitterAgentsAfterTheGroups) {
  const auto agents = place(scene(R"(
    "agents": [{"position": [1, 1], "goal": [9, 9], "start_delay": 2.5,
                "waypoints": [{"point": [5, 1], "wait": 1.5}]}],
    "groups": [{"count": 3, "spawn": {"rect": [[1, 5], [9, 9]]}, "goal": {"point": [20, 20]},
                "start_delay": {"uniform": [1, 4]}}],
    "emitters": [{"spawn": {"rect": [[20, 1], [22, 3]]}, "goal": {"point": [25, 25]},
                  "rate": 2, "start": 1, "end": 3, "type": "jogger",
                  "waypoints": [{"point": [25, 10], "wait": {"uniform": [0, 2]}}]}],
    "types": {"jogger": {"max_speed": 2.5}})"));
  ASSERT_EQ(agents.size(), 1u + 3u + 4u);
  EXPECT_DOUBLE_EQ(agents[0].start_time, 2.5);
  ASSERT_EQ(agents[0].waypoints.size(), 1u);
  EXPECT_FLOAT_EQ(agents[0].waypoints[0].wait, 1.5f);
  EXPECT_FLOAT_EQ(agents[0].waypoints[0].position.x, 5.0f);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_GE(agents[i].start_time, 1.0);
    EXPECT_LE(agents[i].start_time, 4.0);
    EXPECT_EQ(agents[i].json_path, "groups[0]");
  }
  EXPECT_NE(agents[1].start_time, agents[2].start_time) << "delays are drawn per agent";
  for (int k = 0; k < 4; ++k) {
    const AgentSetup& a = agents[4 + static_cast<std::size_t>(k)];
    EXPECT_EQ(a.json_path, "emitters[0]");
    EXPECT_EQ(a.params.type, "jogger");
    EXPECT_DOUBLE_EQ(a.start_time, 1.0 + 0.5 * k);
    EXPECT_GE(a.position.x, 20.0f);
    EXPECT_LE(a.position.x, 22.0f);
    ASSERT_EQ(a.waypoints.size(), 1u);
    EXPECT_GE(a.waypoints[0].wait, 0.0f);
    EXPECT_LE(a.waypoints[0].wait, 2.0f);
  }
}

TEST(ScenarioStreams, ExtensionsLeaveEveryOtherAgentsDrawsAsTheyWere) {
  const std::string group =
      R"({"count": 20, "spawn": {"rect": [[1, 1], [15, 15]]}, "goal": {"rect": [[20, 20], [29, 29]]},
          "max_speed": {"uniform": [1, 2]}})";
  const std::string delayed_group =
      R"({"count": 20, "spawn": {"rect": [[1, 1], [15, 15]]}, "goal": {"rect": [[20, 20], [29, 29]]},
          "max_speed": {"uniform": [1, 2]}, "start_delay": {"uniform": [0, 5]},
          "waypoints": [{"point": [18, 2], "wait": {"uniform": [1, 2]}}]})";
  const std::string emitter =
      R"({"spawn": {"rect": [[20, 1], [28, 8]]}, "goal": {"rect": [[1, 20], [9, 29]]}, "rate": 3,
          "end": 5, "max_speed": {"uniform": [1, 2]}})";
  const auto plain = place(scene(R"("seed": 7, "groups": [)" + group + "," + group + "]"));
  // A start delay and a waypoint on the first group, and an emitter, change nothing of the
  // groups' positions, goals and parameters.
  const auto extended = place(scene(R"("seed": 7, "groups": [)" + delayed_group + "," + group +
                                    R"(], "emitters": [)" + emitter + "]"));
  ASSERT_EQ(extended.size(), plain.size() + 15u);
  for (std::size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(extended[i].position, plain[i].position) << i;
    EXPECT_EQ(extended[i].goal, plain[i].goal) << i;
    EXPECT_EQ(extended[i].params.max_speed, plain[i].params.max_speed) << i;
  }
  // A second emitter leaves the first emitter's agents as they were.
  const auto two = place(scene(R"("seed": 7, "groups": [)" + delayed_group + "," + group +
                               R"(], "emitters": [)" + emitter + "," + emitter + "]"));
  ASSERT_EQ(two.size(), extended.size() + 15u);
  for (std::size_t i = 0; i < extended.size(); ++i) {
    EXPECT_EQ(two[i].position, extended[i].position) << i;
    EXPECT_EQ(two[i].goal, extended[i].goal) << i;
    EXPECT_EQ(two[i].start_time, extended[i].start_time) << i;
  }
  // Each emitter draws from its own stream: the second, identical one is not a copy.
  EXPECT_NE(two[extended.size()].position, two[plain.size()].position);
}

TEST(ScenarioStreams, EmitterAgentsArePlacedClearOfWallsButNotOfOtherAgents) {
  // emitters[0] enters beside an obstacle; emitters[1] through a 0.2 m door that holds one
  // agent at a time: its agents all start there (they enter one after another), where a
  // group of 8 would be refused.
  const auto agents = place(R"({"world": {"bounds": [[0, 0], [30, 30]],
    "obstacles": [[[5.5, 3], [7, 3], [7, 5.5], [5.5, 5.5]]]},
    "emitters": [{"spawn": {"rect": [[4, 4], [6, 7]]}, "goal": {"point": [25, 25]},
                  "rate": 1, "end": 20},
                 {"spawn": {"rect": [[10, 10], [10.2, 10.2]]}, "goal": {"point": [25, 25]},
                  "rate": 1, "end": 8}]})");
  ASSERT_EQ(agents.size(), 28u);
  for (std::size_t i = 0; i < 20; ++i) {
    const glm::vec3& p = agents[i].position;
    EXPECT_GE(p.x, 4.0f);
    EXPECT_LE(p.x, 6.0f);
    // At least a radius (0.4) from the obstacle [5.5, 7] x [3, 5.5].
    const float dx = std::max({5.5f - p.x, 0.0f, p.x - 7.0f});
    const float dz = std::max({3.0f - p.z, 0.0f, p.z - 5.5f});
    EXPECT_GE(std::hypot(dx, dz), 0.4f - 1e-3f) << p.x << ", " << p.z;
  }
  for (std::size_t i = 20; i < 28; ++i) {
    EXPECT_LE(std::hypot(agents[i].position.x - 10.1f, agents[i].position.z - 10.1f), 0.2f);
  }
}

// ---- arrival and standoff -------------------------------------------------------------------

TEST(ScenarioFlow, ArrivalAndStandoffDefaultToContactAndKeepRightAndLayerLikeOtherParameters) {
  const Scenario s = parse_scenario(scene(R"(
    "types": {"soldier": {"standoff": "keep_left", "arrival": "radius"}},
    "defaults": {"standoff": "off"},
    "agents": [{"position": [1, 1], "goal": [9, 9]},
               {"position": [2, 1], "goal": [9, 9], "type": "soldier"},
               {"position": [3, 1], "goal": [9, 9], "type": "soldier", "standoff": "keep_right"}],
    "groups": [{"count": 1, "spawn": {"rect": [[1, 5], [9, 9]]}, "goal": {"point": [20, 20]},
                "arrival": "radius"}])"),
                                    "film.json");
  EXPECT_EQ(AgentParams{}.arrival, ArrivalRule::Contact);
  EXPECT_EQ(AgentParams{}.standoff, StandoffRule::KeepRight);
  EXPECT_EQ(s.agents[0].params.standoff, StandoffRule::Off); // defaults
  EXPECT_EQ(s.agents[0].params.arrival, ArrivalRule::Contact);
  EXPECT_EQ(s.agents[1].params.standoff, StandoffRule::KeepLeft); // the type over defaults
  EXPECT_EQ(s.agents[1].params.arrival, ArrivalRule::Radius);
  EXPECT_EQ(s.agents[2].params.standoff, StandoffRule::KeepRight); // own key over the type
  EXPECT_EQ(s.groups[0].base.arrival, ArrivalRule::Radius);
  EXPECT_EQ(s.groups[0].base.standoff, StandoffRule::Off);
}

// ---- characters -------------------------------------------------------------------------

TEST(ScenarioQueryFilters, FiltersAreReadByTypeAndAgentsNameThemThroughEveryLayer) {
  const std::string kAgent = R"("position": [1, 1], "goal": [9, 9])";
  const Scenario s = parse_scenario(
      scene(R"("query_filters": [{}, {"exclude_flags": 2, "area_costs": {"5": 10, "0": 1.5}},
                                 {"include_flags": 3}],
              "defaults": {"query_filter_type": 2},
              "types": {"walker": {"query_filter_type": 1}},
              "agents": [{)" +
            kAgent + R"(}, {)" + kAgent + R"(, "type": "walker"},
                         {)" +
            kAgent + R"(, "type": "walker", "query_filter_type": 0}])"),
      "film.json");
  ASSERT_EQ(s.query_filters.size(), 3u);
  EXPECT_EQ(s.query_filters[0].include_flags, 0xffff);
  EXPECT_EQ(s.query_filters[0].exclude_flags, 0);
  EXPECT_EQ(s.query_filters[1].exclude_flags, 2);
  EXPECT_EQ(s.query_filters[1].area_costs[5], 10.0f);
  EXPECT_EQ(s.query_filters[1].area_costs[0], 1.5f);
  EXPECT_EQ(s.query_filters[1].area_costs[6], 1.0f);
  EXPECT_EQ(s.query_filters[2].include_flags, 3);
  ASSERT_EQ(s.agents.size(), 3u);
  EXPECT_EQ(s.agents[0].params.query_filter_type, 2); // defaults
  EXPECT_EQ(s.agents[1].params.query_filter_type, 1); // its type
  EXPECT_EQ(s.agents[2].params.query_filter_type, 0); // its own key
}

TEST(ScenarioFollow, FollowersGetTheirLeaderAndAnOffsetGivenOrAsTheySpawned) {
  const std::string json = scene(R"("agents": [
      {"position": [5, 5], "goal": [25, 5]},
      {"position": [3, 6], "follow": {"agent": 0}},
      {"position": [3, 4], "follow": {"agent": 1, "offset": [-1, -2]}}],
    "groups": [{"count": 2, "spawn": {"rect": [[10, 20], [20, 25]]}, "goal": {"point": [2, 2]}}])");
  const Scenario s = parse_scenario(json, "film.json");
  ASSERT_TRUE(s.agents[1].follow.has_value());
  EXPECT_EQ(s.agents[1].follow->agent, 0);
  EXPECT_FALSE(s.agents[1].follow->offset.has_value());
  EXPECT_EQ(s.agents[2].follow->offset, glm::vec2(-1.0f, -2.0f));
  const std::vector<AgentSetup> agents = place(json);
  EXPECT_EQ(agents[0].leader, -1);
  EXPECT_EQ(agents[1].leader, 0);
  // As they spawned: (3, 6) from (5, 5); its first goal is its own spawn point.
  EXPECT_EQ(agents[1].follow_offset, glm::vec3(-2.0f, 0.0f, 1.0f));
  EXPECT_NEAR(agents[1].goal.x, 3.0f, 1e-4f);
  EXPECT_NEAR(agents[1].goal.z, 6.0f, 1e-4f);
  EXPECT_EQ(agents[2].leader, 1);
  EXPECT_EQ(agents[2].follow_offset, glm::vec3(-1.0f, 0.0f, -2.0f));
  EXPECT_NEAR(agents[2].goal.x, 2.0f, 1e-4f); // agent 1's spawn plus the offset
  EXPECT_NEAR(agents[2].goal.z, 4.0f, 1e-4f);
  EXPECT_EQ(agents[3].leader, -1);
}

TEST(ScenarioEvents, ObstacleEventsAreReadWithTheirShapesAndDefaultsAndCountedWhenStanding) {
  const Scenario s = parse_scenario(scene(R"("events": [
      {"time": 2, "add_obstacle": {"name": "crate", "position": [5, 5], "size": [2, 1],
                                   "yaw": 30, "height": 1.5}},
      {"time": 1, "add_obstacle": {"name": "cart", "position": [8, 1, 8], "radius": 0.6}},
      {"time": 3, "move_obstacle": {"name": "crate", "position": [6, 6]}},
      {"time": 4, "remove_obstacle": {"name": "cart"}}])"),
                                    "film.json");
  ASSERT_EQ(s.events.size(), 4u);
  const ObstacleEvent& crate = s.events[0];
  EXPECT_EQ(crate.action, ObstacleEvent::Action::Add);
  EXPECT_EQ(crate.shape, ObstacleEvent::Shape::Box);
  EXPECT_EQ(crate.size, glm::vec2(2.0f, 1.0f));
  EXPECT_EQ(crate.yaw, 30.0f);
  EXPECT_EQ(crate.height, 1.5f);
  const ObstacleEvent& cart = s.events[1];
  EXPECT_EQ(cart.shape, ObstacleEvent::Shape::Cylinder);
  EXPECT_TRUE(cart.position.has_height);
  EXPECT_EQ(cart.height, 2.0f);
  EXPECT_FALSE(cart.yaw);
  EXPECT_FALSE(s.events[2].yaw) << "a move without a yaw keeps the turn";
  EXPECT_EQ(event_order(s.events), (std::vector<std::size_t>{1, 0, 2, 3}));
  EXPECT_EQ(s.peak_obstacles(), 2);
}

TEST(ScenarioCharacters, ClipsAreReadPerTypeAndUnsetOnesKeepTheirDefaults) {
  const Scenario s = parse_scenario(scene(std::string(kTypes) + R"(,
    "characters": {"elderly": {"walk_speed": 0.8, "walk_cycle": 1.0, "run_from": 5},
                   "agent": {"turn_from": 90}})"),
                                    "film.json");
  ASSERT_EQ(s.characters.size(), 2u);
  const LocomotionClips defaults;
  const LocomotionClips& elderly = s.characters.at("elderly").clips;
  EXPECT_FLOAT_EQ(elderly.walk_speed, 0.8f);
  EXPECT_FLOAT_EQ(elderly.walk_cycle, 1.0f);
  EXPECT_FLOAT_EQ(elderly.run_from, 5.0f);
  EXPECT_FLOAT_EQ(elderly.run_speed, defaults.run_speed);
  EXPECT_FLOAT_EQ(s.characters.at("agent").clips.turn_from, 90.0f);
  EXPECT_FLOAT_EQ(s.characters.at("agent").clips.walk_speed, defaults.walk_speed);
  EXPECT_FALSE(s.characters.contains("walker")); // not given: the defaults at export
}

TEST(ScenarioCharacters, PrototypesVariationsColoursAndModelRadiusAreRead) {
  const Scenario s = parse_scenario(scene(std::string(kTypes) + R"(,
    "characters": {"walker": {"prototypes": [{"name": "woman_a", "weight": 2}, {"name": "man_b"}],
                              "variations": 2, "variation_colors": [[1, 0, 0], [0, 0, 1]],
                              "color": [0.5, 0.5, 0.5], "model_radius": 0.35}})"),
                                    "film.json");
  const CharacterSpec& walker = s.characters.at("walker");
  ASSERT_EQ(walker.prototypes.size(), 2u);
  EXPECT_EQ(walker.prototypes[0].name, "woman_a");
  EXPECT_FLOAT_EQ(walker.prototypes[0].weight, 2.0f);
  EXPECT_FLOAT_EQ(walker.prototypes[1].weight, 1.0f);
  EXPECT_EQ(walker.variations, 2);
  EXPECT_EQ(walker.variation_colors.size(), 2u);
  EXPECT_EQ(walker.color, glm::vec3(0.5f));
  EXPECT_FLOAT_EQ(walker.model_radius, 0.35f);
}

// ---- errors -----------------------------------------------------------------------------

struct ExtensionError {
  std::string name, json, path, problem_part;
};

std::ostream& operator<<(std::ostream& out, const ExtensionError& c) {
  return out << c.name;
}

class ScenarioExtensionErrors : public ::testing::TestWithParam<ExtensionError> {};

TEST_P(ScenarioExtensionErrors, NameTheFileThePathAndTheProblem) {
  const ExtensionError& c = GetParam();
  const ScenarioError e = error_for(c.json);
  EXPECT_EQ(e.json_path(), c.path) << e.what();
  EXPECT_NE(e.problem().find(c.problem_part), std::string::npos)
      << "problem: " << e.problem() << "\nexpected to contain: " << c.problem_part;
  EXPECT_EQ(std::string(e.what()), "film.json: " + c.path + ": " + e.problem());
}

const std::string kAgent = R"("position": [1, 1], "goal": [9, 9])";
const std::string kEmitter = R"("spawn": {"rect": [[1, 1], [3, 3]]}, "goal": {"point": [9, 9]})";

INSTANTIATE_TEST_SUITE_P(
    Cases, ScenarioExtensionErrors,
    ::testing::Values(
        ExtensionError{"types_not_object", scene(R"("types": [1])"), "types", "must be an object"},
        ExtensionError{"standoff_unknown_side",
                       scene(R"("agents": [{)" + kAgent + R"(, "standoff": "keep_centre"}])"),
                       "agents[0].standoff",
                       "must be \"keep_right\", \"keep_left\" or \"off\", got \"keep_centre\""},
        ExtensionError{"standoff_not_string", scene(R"("defaults": {"standoff": false})"),
                       "defaults.standoff", "must be \"keep_right\", \"keep_left\" or \"off\""},
        ExtensionError{"arrival_unknown_rule",
                       scene(R"("types": {"walker": {"arrival": "touch"}})"),
                       "types.walker.arrival", "must be \"contact\" or \"radius\", got \"touch\""},
        ExtensionError{"arrival_in_group_not_string",
                       scene(R"("groups": [{"count": 1, "spawn": {"rect": [[1, 1], [3, 3]]},
                                            "goal": {"point": [9, 9]}, "arrival": 0.5}])"),
                       "groups[0].arrival", "must be \"contact\" or \"radius\", got 0.5"},
        ExtensionError{"characters_not_object", scene(R"("characters": [1])"), "characters",
                       "must be an object"},
        ExtensionError{"follow_with_goal",
                       scene(R"("agents": [{)" + kAgent + R"(}, {"position": [2, 2],
                                "goal": [5, 5], "follow": {"agent": 0}}])"),
                       "agents[1].goal", "is not allowed with \"follow\""},
        ExtensionError{"follow_with_waypoints",
                       scene(R"("agents": [{)" + kAgent + R"(}, {"position": [2, 2],
                                "follow": {"agent": 0}, "waypoints": [{"point": [3, 3]}]}])"),
                       "agents[1].waypoints", "are not allowed with \"follow\""},
        ExtensionError{
            "follow_of_no_agent", scene(R"("agents": [{)" + kAgent + R"(}, {"position": [2, 2],
                                "follow": {"agent": 2}}])"),
            "agents[1].follow.agent", "names agent 2, but the scenario has 2 (ids 0 to 1"},
        ExtensionError{"follow_of_itself",
                       scene(R"("agents": [{"position": [2, 2], "follow": {"agent": 0}}])"),
                       "agents[0].follow.agent", "names the agent itself"},
        ExtensionError{"follow_cycle",
                       scene(R"("agents": [{"position": [2, 2], "follow": {"agent": 1}},
                                           {"position": [4, 4], "follow": {"agent": 0}}])"),
                       "agents[0].follow.agent", "leads back to this agent through its leaders"},
        ExtensionError{"follow_unknown_key",
                       scene(R"("agents": [{)" + kAgent + R"(}, {"position": [2, 2],
                                "follow": {"agent": 0, "distance": 2}}])"),
                       "agents[1].follow.distance", "unknown key"},
        ExtensionError{"event_without_action", scene(R"("events": [{"time": 1}])"), "events[0]",
                       "must have exactly one of \"add_obstacle\""},
        ExtensionError{"event_negative_time",
                       scene(R"("events": [{"time": -1, "remove_obstacle": {"name": "a"}}])"),
                       "events[0].time", "must be a number >= 0"},
        ExtensionError{
            "event_shape_missing", scene(R"("events": [{"time": 1, "add_obstacle": {"name": "a",
                                "position": [5, 5]}}])"),
            "events[0].add_obstacle", "exactly one of \"radius\" (a cylinder) and \"size\""},
        ExtensionError{"event_box_size_not_positive",
                       scene(R"("events": [{"time": 1, "add_obstacle": {"name": "a",
                                "position": [5, 5], "size": [2, 0]}}])"),
                       "events[0].add_obstacle.size", "both > 0"},
        ExtensionError{"event_cylinder_yaw",
                       scene(R"("events": [{"time": 1, "add_obstacle": {"name": "a",
                                "position": [5, 5], "radius": 1, "yaw": 30}}])"),
                       "events[0].add_obstacle.yaw", "a cylinder has no yaw"},
        ExtensionError{"event_move_before_add", scene(R"("events": [
                                {"time": 5, "add_obstacle": {"name": "a", "position": [5, 5],
                                                             "radius": 1}},
                                {"time": 2, "move_obstacle": {"name": "a", "position": [6, 6]}}])"),
                       "events[1].move_obstacle.name", "names no obstacle standing at time 2"},
        ExtensionError{"event_added_twice", scene(R"("events": [
                                {"time": 1, "add_obstacle": {"name": "a", "position": [5, 5],
                                                             "radius": 1}},
                                {"time": 3, "add_obstacle": {"name": "a", "position": [9, 9],
                                                             "radius": 1}}])"),
                       "events[1].add_obstacle.name", "\"a\" stands already at time 3"},
        ExtensionError{"event_removed_twice", scene(R"("events": [
                                {"time": 1, "add_obstacle": {"name": "a", "position": [5, 5],
                                                             "radius": 1}},
                                {"time": 2, "remove_obstacle": {"name": "a"}},
                                {"time": 3, "remove_obstacle": {"name": "a"}}])"),
                       "events[2].remove_obstacle.name", "names no obstacle standing at time 3"},
        ExtensionError{"event_move_turns_cylinder", scene(R"("events": [
                                {"time": 1, "add_obstacle": {"name": "a", "position": [5, 5],
                                                             "radius": 1}},
                                {"time": 2, "move_obstacle": {"name": "a", "position": [6, 6],
                                                              "yaw": 10}}])"),
                       "events[1].move_obstacle.yaw", "\"a\" is a cylinder"},
        ExtensionError{"event_remove_unknown_key",
                       scene(R"("events": [{"time": 1, "remove_obstacle": {"name": "a",
                                "position": [1, 1]}}])"),
                       "events[0].remove_obstacle.position", "unknown key"},
        ExtensionError{"query_filter_type_without_filters",
                       scene(R"("agents": [{)" + kAgent + R"(, "query_filter_type": 1}])"),
                       "agents[0].query_filter_type",
                       "names query filter 1, but query_filters is not given"},
        ExtensionError{"query_filter_type_beyond_filters",
                       scene(R"("query_filters": [{}, {"exclude_flags": 2}],
                                "types": {"walker": {"query_filter_type": 2}})"),
                       "types.walker.query_filter_type",
                       "names query filter 2, but query_filters has 2 (0 to 1)"},
        ExtensionError{"query_filter_type_out_of_range",
                       scene(R"("defaults": {"query_filter_type": 16})"),
                       "defaults.query_filter_type", "must be an integer in [0, 15], got 16"},
        ExtensionError{"query_filters_too_many",
                       scene(R"("query_filters": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                                                  {}, {}, {}, {}, {}, {}])"),
                       "query_filters", "has 17 filters, more than DetourCrowd's 16"},
        ExtensionError{"query_filter_unknown_key", scene(R"("query_filters": [{"exclude": 2}])"),
                       "query_filters[0].exclude", "unknown key \"exclude\""},
        ExtensionError{"query_filter_flags_out_of_range",
                       scene(R"("query_filters": [{"include_flags": 70000}])"),
                       "query_filters[0].include_flags",
                       "must be an integer in [0, 65535], got 70000"},
        ExtensionError{
            "query_filter_area_not_an_id", scene(R"("query_filters": [{"area_costs": {"64": 2}}])"),
            R"(query_filters[0].area_costs["64"])", "is not an area id: area ids are 0 to 63"},
        ExtensionError{"query_filter_cost_negative",
                       scene(R"("query_filters": [{"area_costs": {"5": -1}}])"),
                       R"(query_filters[0].area_costs["5"])", "must be a number >= 0, got -1"},
        ExtensionError{"character_of_no_type",
                       scene(std::string(kTypes) + R"(, "characters": {"runner": {}})"),
                       "characters.runner",
                       "names no agent type; the names are \"agent\", \"elderly\", \"walker\""},
        ExtensionError{"character_unknown_key",
                       scene(R"("characters": {"agent": {"walk_sped": 1}})"),
                       "characters.agent.walk_sped", "did you mean \"walk_speed\"?"},
        ExtensionError{"character_not_positive",
                       scene(R"("characters": {"agent": {"walk_cycle": 0}})"),
                       "characters.agent.walk_cycle", "must be a number > 0, got 0"},
        ExtensionError{"character_prototypes_empty",
                       scene(R"("characters": {"agent": {"prototypes": []}})"),
                       "characters.agent.prototypes", "must be a non-empty array"},
        ExtensionError{
            "character_prototype_weight",
            scene(R"("characters": {"agent": {"prototypes": [{"name": "a", "weight": 0}]}})"),
            "characters.agent.prototypes[0].weight", "must be a number > 0, got 0"},
        ExtensionError{
            "character_prototype_repeated",
            scene(R"("characters": {"agent": {"prototypes": [{"name": "a"}, {"name": "a"}]}})"),
            "characters.agent.prototypes[1].name", "repeats \"a\""},
        ExtensionError{"character_colour_out_of_range",
                       scene(R"("characters": {"agent": {"color": [0.2, 1.5, 0]}})"),
                       "characters.agent.color[1]", "got 1.5"},
        ExtensionError{
            "character_variation_colours_count",
            scene(R"("characters": {"agent": {"variations": 3, "variation_colors": [[1, 0, 0]]}})"),
            "characters.agent.variation_colors", "must be an array of 3 colours"},
        ExtensionError{"character_variations_zero",
                       scene(R"("characters": {"agent": {"variations": 0}})"),
                       "characters.agent.variations", "got 0"},
        ExtensionError{"character_runs_before_walking",
                       scene(R"("characters": {"agent": {"run_from": 0.1}})"),
                       "characters.agent.run_from", "must be above idle_below (0.15), got 0.1"},
        ExtensionError{"type_not_object", scene(R"("types": {"walker": 3})"), "types.walker",
                       "must be an object"},
        ExtensionError{"type_unknown_key", scene(R"("types": {"walker": {"max_sped": 2}})"),
                       "types.walker.max_sped", "did you mean \"max_speed\"?"},
        ExtensionError{"type_bad_value", scene(R"("types": {"walker": {"radius": -1}})"),
                       "types.walker.radius", "must be a number > 0, got -1"},
        ExtensionError{"type_infinite_bound",
                       scene(R"("types": {"walker": {"radius": {"uniform": [0.2, 1e999]}}})"),
                       "types.walker.radius.uniform[1]", "overflows to infinity"},
        ExtensionError{
            "unknown_type",
            scene(std::string(kTypes) + R"(, "agents": [{)" + kAgent + R"(, "type": "jogger"}])"),
            "agents[0].type",
            "unknown type \"jogger\"; the scenario's types are \"elderly\", \"walker\""},
        ExtensionError{"type_without_types",
                       scene(R"("groups": [{"count": 1, "spawn": {"rect": [[1, 1], [3, 3]]},
                                            "goal": {"point": [9, 9]}, "type": "walker"}])"),
                       "groups[0].type", "the scenario has no \"types\""},
        ExtensionError{
            "type_not_string",
            scene(std::string(kTypes) + R"(, "agents": [{)" + kAgent + R"(, "type": 1}])"),
            "agents[0].type", "must be the name of an entry of \"types\""},
        ExtensionError{"type_in_defaults", scene(R"("defaults": {"type": "walker"})"),
                       "defaults.type", "unknown key \"type\""},
        ExtensionError{
            "uniform_on_agent_itself",
            scene(R"("agents": [{)" + kAgent + R"(, "radius": {"uniform": [0.3, 0.5]}}])"),
            "agents[0].radius", "only allowed in groups, emitters and types"},
        ExtensionError{"waypoints_not_array",
                       scene(R"("agents": [{)" + kAgent + R"(, "waypoints": {"point": [1, 1]}}])"),
                       "agents[0].waypoints", "must be an array"},
        ExtensionError{"waypoint_unknown_key",
                       scene(R"("agents": [{)" + kAgent +
                             R"(, "waypoints": [{"point": [1, 1], "pause": 2}]}])"),
                       "agents[0].waypoints[0].pause", "allowed keys: point, rect, wait"},
        ExtensionError{"waypoint_without_point",
                       scene(R"("agents": [{)" + kAgent + R"(, "waypoints": [{"wait": 2}]}])"),
                       "agents[0].waypoints[0]", "must have exactly one of \"point\""},
        ExtensionError{"waypoint_point_and_rect",
                       scene(R"("agents": [{)" + kAgent +
                             R"(, "waypoints": [{"point": [1, 1], "rect": [[1, 1], [2, 2]]}]}])"),
                       "agents[0].waypoints[0]", "exactly one of \"point\""},
        ExtensionError{
            "waypoint_rect_reversed",
            scene(R"("agents": [{)" + kAgent + R"(, "waypoints": [{"rect": [[3, 1], [2, 2]]}]}])"),
            "agents[0].waypoints[0].rect", "first corner below the second"},
        ExtensionError{
            "waypoint_point_infinite",
            scene(R"("agents": [{)" + kAgent + R"(, "waypoints": [{"point": [1, 1e999]}]}])"),
            "agents[0].waypoints[0].point[1]", "overflows to infinity"},
        ExtensionError{"negative_wait",
                       scene(R"("groups": [{"count": 1, "spawn": {"rect": [[1, 1], [3, 3]]},
                                            "goal": {"point": [9, 9]},
                                            "waypoints": [{"point": [5, 5], "wait": -1}]}])"),
                       "groups[0].waypoints[0].wait", "must be a number >= 0, got -1"},
        ExtensionError{
            "wait_bounds_reversed",
            scene(R"("agents": [{)" + kAgent +
                  R"(, "waypoints": [{"point": [5, 5], "wait": {"uniform": [3, 1]}}]}])"),
            "agents[0].waypoints[0].wait.uniform", "a <= b"},
        ExtensionError{"start_delay_string",
                       scene(R"("agents": [{)" + kAgent + R"(, "start_delay": "2 s"}])"),
                       "agents[0].start_delay", "must be a number >= 0, got \"2 s\" (a string)"},
        ExtensionError{"start_delay_other_distribution",
                       scene(R"("groups": [{"count": 1, "spawn": {"rect": [[1, 1], [3, 3]]},
                                            "goal": {"point": [9, 9]},
                                            "start_delay": {"normal": [1, 2]}}])"),
                       "groups[0].start_delay.normal", "allowed keys: uniform"},
        ExtensionError{"emitters_not_array", scene(R"("emitters": {})"), "emitters",
                       "must be an array"},
        ExtensionError{"emitter_without_rate",
                       scene(R"("emitters": [{)" + kEmitter + R"(, "end": 5}])"), "emitters[0]",
                       "missing required key \"rate\""},
        ExtensionError{"emitter_without_end",
                       scene(R"("emitters": [{)" + kEmitter + R"(, "rate": 1}])"), "emitters[0]",
                       "missing required key \"end\""},
        ExtensionError{"emitter_zero_rate",
                       scene(R"("emitters": [{)" + kEmitter + R"(, "rate": 0, "end": 5}])"),
                       "emitters[0].rate", "must be a number > 0, got 0"},
        ExtensionError{
            "emitter_end_before_start",
            scene(R"("emitters": [{)" + kEmitter + R"(, "rate": 1, "start": 5, "end": 5}])"),
            "emitters[0].end", "must be a number > 5, got 5"},
        ExtensionError{"emitter_circle_spawn",
                       scene(R"("emitters": [{"spawn": {"circle": {"center": [5, 5], "radius": 2}},
                                              "goal": {"point": [9, 9]}, "rate": 1, "end": 5}])"),
                       "emitters[0].spawn.circle", "allowed keys: rect"},
        ExtensionError{"emitter_antipodal",
                       scene(R"("emitters": [{"spawn": {"rect": [[1, 1], [3, 3]]},
                                              "goal": "antipodal", "rate": 1, "end": 5}])"),
                       "emitters[0].goal", "needs a circle spawn"},
        ExtensionError{
            "emitter_start_delay",
            scene(R"("emitters": [{)" + kEmitter + R"(, "rate": 1, "end": 5, "start_delay": 1}])"),
            "emitters[0].start_delay", "unknown key \"start_delay\""},
        ExtensionError{"emitter_too_many",
                       scene(R"("emitters": [{)" + kEmitter + R"(, "rate": 1000, "end": 20000}])"),
                       "emitters[0].rate", "past the limit of 10000000 agents"}),
    [](const ::testing::TestParamInfo<ExtensionError>& test_param) {
      return test_param.param.name;
    });

} // namespace
} // namespace crowd

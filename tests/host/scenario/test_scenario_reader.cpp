// The scenario reader: what a valid file means (defaults, precedence, presets, steps) and
// what a user sees for an invalid one (file, JSON path and problem in one line).
#include "host/scenario/scenario.h"
#include "tests/support/temp_dir.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace crowd {
namespace {

namespace fs = std::filesystem;

/// The error parse_scenario throws for `text` (the test fails when there is none).
ScenarioError error_for(const std::string& text, const fs::path& file = "test.json") {
  try {
    parse_scenario(text, file);
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return ScenarioError("", "(none)", "(none)");
}

/// A scenario with a 10 x 10 m 2D world and `extra` top-level members ("" for none).
std::string with_world(const std::string& extra) {
  return R"({"world": {"bounds": [[0, 0], [10, 10]]})" + (extra.empty() ? "" : ", " + extra) + "}";
}

/// A scenario whose only explicit agent has the given extra members.
std::string with_agent(const std::string& members) {
  return with_world(R"("agents": [{"position": [1, 1], "goal": [9, 9])" +
                    (members.empty() ? "" : ", " + members) + "}]");
}

/// A scenario whose only group has the given members over a valid group (4 agents, rect
/// spawn, point goal): a member given here replaces the valid one.
std::string with_group(const std::string& members) {
  nlohmann::json group = nlohmann::json::parse(
      R"({"count": 4, "spawn": {"rect": [[1, 1], [4, 4]]}, "goal": {"point": [9, 9]}})");
  group.update(nlohmann::json::parse("{" + members + "}"));
  return with_world(R"("groups": [)" + group.dump() + "]");
}

/// A scenario with a 10 x 10 m 2D world whose `world.navmesh` has the given members.
std::string with_navmesh(const std::string& members) {
  return R"({"world": {"bounds": [[0, 0], [10, 10]], "navmesh": {)" + members + "}}}";
}

using test::TempDir;

// ---- valid files ------------------------------------------------------------------------

TEST(ScenarioReader, MinimalFileGetsTheSpecDefaults) {
  const Scenario s = parse_scenario(with_world(""), "scenarios/crossing.json");
  EXPECT_EQ(s.name, "crossing"); // file name stem
  EXPECT_EQ(s.file, fs::path("scenarios/crossing.json"));
  EXPECT_EQ(s.seed, 0u);
  EXPECT_FLOAT_EQ(s.dt, 0.1f);
  EXPECT_FLOAT_EQ(s.duration, 60.0f);
  EXPECT_FALSE(s.steps.has_value());
  EXPECT_EQ(s.step_count(), 600);
  ASSERT_TRUE(s.world.bounds.has_value());
  EXPECT_EQ(s.world.bounds->min, glm::vec2(0, 0));
  EXPECT_EQ(s.world.bounds->max, glm::vec2(10, 10));
  EXPECT_FALSE(s.world.is_mesh());
  EXPECT_FALSE(s.world.navmesh.cell_size.has_value()); // chosen at build from the agent radius
  EXPECT_FLOAT_EQ(s.world.navmesh.cell_height, 0.2f);
  EXPECT_FALSE(s.world.navmesh.agent_radius.has_value());
  EXPECT_FLOAT_EQ(s.world.navmesh.agent_height, 2.0f);
  EXPECT_FLOAT_EQ(s.world.navmesh.max_climb, 0.9f);
  EXPECT_FLOAT_EQ(s.world.navmesh.max_slope, 45.0f);
  EXPECT_FLOAT_EQ(s.defaults.radius, 0.4f);
  EXPECT_FLOAT_EQ(s.defaults.max_speed, 1.4f);
  EXPECT_FLOAT_EQ(s.defaults.max_accel, 8.0f);
  EXPECT_FLOAT_EQ(s.defaults.separation_weight, 2.0f);
  EXPECT_FLOAT_EQ(s.defaults.query_range(), 4.8f); // 12 x radius
  EXPECT_FLOAT_EQ(s.defaults.arrival_radius, 0.5f);
  EXPECT_EQ(s.defaults.on_arrival, OnArrival::Stop);
  EXPECT_EQ(s.defaults.avoidance_name, "good");
  EXPECT_TRUE(s.agents.empty());
  EXPECT_TRUE(s.groups.empty());
  EXPECT_EQ(s.agent_count(), 0u);
}

TEST(ScenarioReader, TopLevelValuesAreRead) {
  const Scenario s =
      parse_scenario(with_world(R"("name": "rush hour", "seed": 18446744073709551615, "dt": 0.05,
                    "duration": 12.5, "steps": 40)"),
                     "x.json");
  EXPECT_EQ(s.name, "rush hour");
  EXPECT_EQ(s.seed, UINT64_MAX);
  EXPECT_FLOAT_EQ(s.dt, 0.05f);
  EXPECT_FLOAT_EQ(s.duration, 12.5f);
  EXPECT_EQ(s.steps, 40);
}

TEST(ScenarioReader, AnnotationsAreAcceptedAndIgnored) {
  // Annotations are free-form: any type, any keys, even keys that repeat.
  const Scenario s = parse_scenario(with_world(R"("source": "paper", "notes": ["a", 1, {"x": null}],
                    "expect": {"arrived": 1, "arrived": 2, "whatever": {"deep": true}},
                    "notes": "said twice")"),
                                    "a.json");
  EXPECT_EQ(s.name, "a");
}

TEST(ScenarioReader, StepsOverrideDuration) {
  EXPECT_EQ(parse_scenario(with_world(R"("duration": 100, "steps": 7)"), "a.json").step_count(), 7);
  EXPECT_EQ(parse_scenario(with_world(R"("steps": 0)"), "a.json").step_count(), 0);
}

TEST(ScenarioReader, StepCountRoundsDurationUpToWholeStepsWithoutFloatNoise) {
  const auto steps = [](const std::string& duration, const std::string& dt) {
    return parse_scenario(with_world(R"("duration": )" + duration + R"(, "dt": )" + dt), "a.json")
        .step_count();
  };
  EXPECT_EQ(steps("60", "0.1"), 600);
  EXPECT_EQ(steps("0.3", "0.1"), 3); // 0.3f / 0.1f is 3.0000001 in float
  EXPECT_EQ(steps("0.7", "0.1"), 7);
  EXPECT_EQ(steps("1", "0.3"), 4); // a partial step is still simulated
  EXPECT_EQ(steps("0.01", "1"), 1);
}

TEST(ScenarioReader, IntegersMayBeWrittenWithAZeroFraction) {
  const Scenario s = parse_scenario(with_world(R"("seed": 5.0, "steps": 1e2)"), "a.json");
  EXPECT_EQ(s.seed, 5u);
  EXPECT_EQ(s.steps, 100);
}

TEST(ScenarioReader, PointsTakeTwoOrThreeCoordinates) {
  const Scenario s = parse_scenario(
      with_world(R"("agents": [{"position": [1, 2], "goal": [3, 4, 5]}])"), "a.json");
  ASSERT_EQ(s.agents.size(), 1u);
  EXPECT_FALSE(s.agents[0].position.has_height);
  EXPECT_EQ(s.agents[0].position.position, glm::vec3(1, 0, 2)); // [x, z]
  EXPECT_TRUE(s.agents[0].goal.has_height);
  EXPECT_EQ(s.agents[0].goal.position, glm::vec3(3, 4, 5));
}

TEST(ScenarioReader, AgentKeysOverrideDefaultsWhichOverrideBuiltIns) {
  const Scenario s = parse_scenario(with_world(R"(
    "defaults": {"radius": 0.3, "max_speed": 2.0, "on_arrival": "remove"},
    "agents": [
      {"position": [1, 1], "goal": [9, 9]},
      {"position": [2, 2], "goal": [9, 9], "radius": 0.5, "max_accel": 3,
       "collision_query_range": 2.5, "on_arrival": "stop"}
    ])"),
                                    "a.json");
  ASSERT_EQ(s.agents.size(), 2u);
  const AgentParams& plain = s.agents[0].params;
  EXPECT_FLOAT_EQ(plain.radius, 0.3f);        // defaults
  EXPECT_FLOAT_EQ(plain.max_speed, 2.0f);     // defaults
  EXPECT_FLOAT_EQ(plain.max_accel, 8.0f);     // built-in
  EXPECT_FLOAT_EQ(plain.query_range(), 3.6f); // 12 x its radius
  EXPECT_EQ(plain.on_arrival, OnArrival::Remove);
  const AgentParams& own = s.agents[1].params;
  EXPECT_FLOAT_EQ(own.radius, 0.5f);
  EXPECT_FLOAT_EQ(own.max_speed, 2.0f);
  EXPECT_FLOAT_EQ(own.max_accel, 3.0f);
  EXPECT_FLOAT_EQ(own.query_range(), 2.5f);
  EXPECT_EQ(own.on_arrival, OnArrival::Stop);
}

TEST(ScenarioReader, GroupConstantsGoToTheBaseAndUniformsToDistributions) {
  const Scenario s = parse_scenario(with_world(R"(
    "defaults": {"max_speed": 2.0, "arrival_radius": 0.7},
    "groups": [{"count": 3, "spawn": {"rect": [[0, 0], [5, 5]]}, "goal": {"point": [9, 9]},
                "radius": {"uniform": [0.3, 0.5]}, "max_accel": 4,
                "separation_weight": {"uniform": [1, 1]}}])"),
                                    "a.json");
  ASSERT_EQ(s.groups.size(), 1u);
  const GroupSpec& g = s.groups[0];
  EXPECT_EQ(g.count, 3);
  EXPECT_FLOAT_EQ(g.base.max_speed, 2.0f);      // defaults
  EXPECT_FLOAT_EQ(g.base.arrival_radius, 0.7f); // defaults
  EXPECT_FLOAT_EQ(g.base.max_accel, 4.0f);      // group constant
  ASSERT_TRUE(g.radius.has_value());
  EXPECT_FLOAT_EQ(g.radius->lo, 0.3f);
  EXPECT_FLOAT_EQ(g.radius->hi, 0.5f);
  // A uniform over one value is that constant.
  EXPECT_FALSE(g.separation_weight.has_value());
  EXPECT_FLOAT_EQ(g.base.separation_weight, 1.0f);
  EXPECT_FALSE(g.max_speed.has_value());
  EXPECT_FLOAT_EQ(s.max_agent_radius(), 0.5f);
}

TEST(ScenarioReader, GroupSpawnAndGoalForms) {
  const Scenario s = parse_scenario(with_world(R"("groups": [
    {"count": 8, "spawn": {"circle": {"center": [5, 5], "radius": 4}}, "goal": "antipodal"},
    {"count": 2, "spawn": {"rect": [[1, 2], [3, 4]]}, "goal": {"rect": [[6, 7], [8, 9]]}},
    {"count": 1, "spawn": {"rect": [[1, 2], [3, 4]]}, "goal": {"point": [7, 8]}}])"),
                                    "a.json");
  ASSERT_EQ(s.groups.size(), 3u);
  EXPECT_EQ(s.groups[0].spawn_kind, GroupSpec::SpawnKind::Circle);
  EXPECT_EQ(s.groups[0].circle_center, glm::vec2(5, 5));
  EXPECT_FLOAT_EQ(s.groups[0].circle_radius, 4.0f);
  EXPECT_EQ(s.groups[0].goal_kind, GroupSpec::GoalKind::Antipodal);
  EXPECT_EQ(s.groups[1].spawn_kind, GroupSpec::SpawnKind::Rect);
  EXPECT_EQ(s.groups[1].spawn_min, glm::vec2(1, 2));
  EXPECT_EQ(s.groups[1].spawn_max, glm::vec2(3, 4));
  EXPECT_EQ(s.groups[1].goal_kind, GroupSpec::GoalKind::Rect);
  EXPECT_EQ(s.groups[1].goal_min, glm::vec2(6, 7));
  EXPECT_EQ(s.groups[1].goal_max, glm::vec2(8, 9));
  EXPECT_EQ(s.groups[2].goal_kind, GroupSpec::GoalKind::Point);
  EXPECT_EQ(s.groups[2].goal_point, glm::vec2(7, 8));
  EXPECT_EQ(s.agent_count(), 11u);
}

TEST(ScenarioReader, AvoidancePresetsAreRecastsDemoPresets) {
  const std::pair<const char*, AvoidancePreset> presets[] = {{"low", AvoidancePreset::Low},
                                                             {"medium", AvoidancePreset::Medium},
                                                             {"good", AvoidancePreset::Good},
                                                             {"high", AvoidancePreset::High}};
  for (const auto& [name, preset] : presets) {
    const Scenario s = parse_scenario(
        with_world(R"("defaults": {"avoidance": ")" + std::string(name) + "\"}"), "a.json");
    const AvoidanceParams expected = avoidance_preset(preset);
    EXPECT_EQ(s.defaults.avoidance_name, name);
    EXPECT_EQ(s.defaults.avoidance.adaptive_divs, expected.adaptive_divs) << name;
    EXPECT_EQ(s.defaults.avoidance.adaptive_rings, expected.adaptive_rings) << name;
    EXPECT_EQ(s.defaults.avoidance.adaptive_depth, expected.adaptive_depth) << name;
    EXPECT_FLOAT_EQ(s.defaults.avoidance.vel_bias, expected.vel_bias) << name;
  }
}

TEST(ScenarioReader, CustomAvoidanceStartsFromGoodWhateverTheDefaultsSay) {
  const Scenario s =
      parse_scenario(with_agent(R"("avoidance": {"horiz_time": 4, "adaptive_rings": 3,
                                                            "weight_side": 0})")
                         .replace(1, 0, R"("defaults": {"avoidance": "low"}, )"),
                     "a.json");
  const AgentParams& p = s.agents[0].params;
  const AvoidanceParams good = avoidance_preset(AvoidancePreset::Good);
  EXPECT_EQ(p.avoidance_name, "custom");
  EXPECT_FLOAT_EQ(p.avoidance.horiz_time, 4.0f);
  EXPECT_EQ(p.avoidance.adaptive_rings, 3);
  EXPECT_FLOAT_EQ(p.avoidance.weight_side, 0.0f);
  EXPECT_EQ(p.avoidance.adaptive_divs, good.adaptive_divs); // not low's 5
  EXPECT_EQ(p.avoidance.adaptive_depth, good.adaptive_depth);
  EXPECT_FLOAT_EQ(p.avoidance.vel_bias, good.vel_bias);
  EXPECT_FLOAT_EQ(p.avoidance.weight_toi, good.weight_toi);
  EXPECT_EQ(s.defaults.avoidance_name, "low");
}

TEST(ScenarioReader, OrcaTakesItsParametersByNameAndDefaultsTheRest) {
  const Scenario s =
      parse_scenario(with_agent(R"("avoidance": {"model": "orca", "time_horizon": 4})"), "a.json");
  const AgentParams& p = s.agents[0].params;
  EXPECT_EQ(p.avoidance.model, kAvoidanceOrca);
  EXPECT_EQ(p.avoidance_name, "orca");
  EXPECT_FLOAT_EQ(p.avoidance.orca.time_horizon, 4.0f);
  EXPECT_FLOAT_EQ(p.avoidance.orca.time_horizon_obstacles,
                  OrcaAvoidanceParams{}.time_horizon_obstacles);
}

TEST(ScenarioReader, TtcAloneTakesEveryDefault) {
  const Scenario s = parse_scenario(with_agent(R"("avoidance": {"model": "ttc"})"), "a.json");
  const AgentParams& p = s.agents[0].params;
  EXPECT_EQ(p.avoidance.model, kAvoidanceTtc);
  EXPECT_EQ(p.avoidance_name, "ttc");
  EXPECT_EQ(p.avoidance.ttc, TtcAvoidanceParams{});
  EXPECT_EQ(p.avoidance, avoidance_defaults(kAvoidanceTtc));
}

TEST(ScenarioReader, TtcTakesEveryParameterByName) {
  const Scenario s = parse_scenario(with_agent(R"("avoidance": {"model": "ttc",
      "collector_radius": 5.5, "collector_half_height": 1.5,
      "collector_frames_between_updates": 7, "reference": "corridor", "sample_count": 21,
      "angle_span": 360, "enable_slowing_down": false, "enable_stop": false,
      "safety_distance": 0, "time_horizon": 3.5, "time_to_collision_influence": 2,
      "desired_velocity_influence": 0.25, "previous_velocity_influence": 0,
      "stop_collision_time": 0.5, "stop_wait_time": 1.25, "enable_force_passage": false,
      "wait_passage_time_limit": 4, "force_passage_time_limit": 0.75})"),
                                    "a.json");
  const AgentParams& p = s.agents[0].params;
  const TtcAvoidanceParams& t = p.avoidance.ttc;
  EXPECT_EQ(p.avoidance.model, kAvoidanceTtc);
  EXPECT_EQ(p.avoidance_name, "ttc");
  EXPECT_FLOAT_EQ(t.collector_radius, 5.5f);
  EXPECT_FLOAT_EQ(t.collector_half_height, 1.5f);
  EXPECT_EQ(t.collector_frames_between_updates, 7);
  EXPECT_EQ(t.reference, kTtcCorridor);
  EXPECT_EQ(t.sample_count, 21);
  EXPECT_FLOAT_EQ(t.angle_span, 360.0f);
  EXPECT_EQ(t.enable_slowing_down, 0);
  EXPECT_EQ(t.enable_stop, 0);
  EXPECT_FLOAT_EQ(t.safety_distance, 0.0f);
  EXPECT_FLOAT_EQ(t.time_horizon, 3.5f);
  EXPECT_FLOAT_EQ(t.time_to_collision_influence, 2.0f);
  EXPECT_FLOAT_EQ(t.desired_velocity_influence, 0.25f);
  EXPECT_FLOAT_EQ(t.previous_velocity_influence, 0.0f);
  EXPECT_FLOAT_EQ(t.stop_collision_time, 0.5f);
  EXPECT_FLOAT_EQ(t.stop_wait_time, 1.25f);
  EXPECT_EQ(t.enable_force_passage, 0);
  EXPECT_FLOAT_EQ(t.wait_passage_time_limit, 4.0f);
  EXPECT_FLOAT_EQ(t.force_passage_time_limit, 0.75f);
}

TEST(ScenarioReader, TtcReadsReferencesAndFlagsByTheirWords) {
  // Defaults are "shortcut" and every flag on: the opposite words must switch them.
  const auto ttc = [](const std::string& members) {
    return parse_scenario(with_agent(R"("avoidance": {"model": "ttc", )" + members + "}"), "a.json")
        .agents[0]
        .params.avoidance.ttc;
  };
  EXPECT_EQ(ttc(R"("reference": "shortcut")").reference, kTtcShortcut);
  EXPECT_EQ(ttc(R"("reference": "corridor")").reference, kTtcCorridor);
  const TtcAvoidanceParams off =
      ttc(R"("enable_slowing_down": false, "enable_stop": false, "enable_force_passage": false)");
  EXPECT_EQ(off.enable_slowing_down, 0);
  EXPECT_EQ(off.enable_stop, 0);
  EXPECT_EQ(off.enable_force_passage, 0);
  const TtcAvoidanceParams on =
      ttc(R"("enable_slowing_down": true, "enable_stop": true, "enable_force_passage": true)");
  EXPECT_EQ(on.enable_slowing_down, 1);
  EXPECT_EQ(on.enable_stop, 1);
  EXPECT_EQ(on.enable_force_passage, 1);
  EXPECT_EQ(ttc(R"("enable_stop": false)").enable_slowing_down, 1); // the others stay on
}

TEST(ScenarioReader, TheForceModelTakesItsParametersByNameAndDefaultsTheRest) {
  const Scenario s =
      parse_scenario(with_agent(R"("avoidance": {"model": "mass", "separation_distance": 0.5,
                                  "standing_obstacle_scale": 0.1})"),
                     "a.json");
  const AgentParams& p = s.agents[0].params;
  const MassAvoidanceParams defaults;
  EXPECT_EQ(p.avoidance.model, kAvoidanceMass);
  EXPECT_EQ(p.avoidance_name, "mass");
  EXPECT_FLOAT_EQ(p.avoidance.mass.separation_distance, 0.5f);
  EXPECT_FLOAT_EQ(p.avoidance.mass.standing_obstacle_scale, 0.1f);
  EXPECT_FLOAT_EQ(p.avoidance.mass.predictive_time, defaults.predictive_time);
  EXPECT_FLOAT_EQ(p.avoidance.mass.wall_distance, defaults.wall_distance);
  // The presets and a sampling object name DetourCrowd's model.
  EXPECT_EQ(s.defaults.avoidance.model, kAvoidanceDetour);
  const Scenario custom =
      parse_scenario(with_agent(R"("avoidance": {"model": "detour", "horiz_time": 3})"), "a.json");
  EXPECT_EQ(custom.agents[0].params.avoidance.model, kAvoidanceDetour);
  EXPECT_FLOAT_EQ(custom.agents[0].params.avoidance.horiz_time, 3.0f);
}

TEST(ScenarioReader, MaxAgentRadiusCoversAgentsAndGroupsOrFallsBackToDefaults) {
  EXPECT_FLOAT_EQ(
      parse_scenario(with_world(R"("defaults": {"radius": 0.7})"), "a.json").max_agent_radius(),
      0.7f);
  EXPECT_FLOAT_EQ(parse_scenario(with_agent(R"("radius": 0.9)"), "a.json").max_agent_radius(),
                  0.9f);
  EXPECT_FLOAT_EQ(parse_scenario(with_group(R"("radius": 0.2)"), "a.json").max_agent_radius(),
                  0.2f);
}

TEST(ScenarioReader, MeshPathIsResolvedAgainstTheScenarioDirectory) {
  const TempDir dir;
  dir.write("meshes/floor.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
  const fs::path file = dir.write("scenes/level.json",
                                  R"({"world": {"mesh": "../meshes/floor.obj",
                                                "navmesh": {"cell_size": 0.2, "max_slope": 30}}})");
  const Scenario s = load_scenario(file);
  EXPECT_TRUE(s.world.is_mesh());
  EXPECT_FALSE(s.world.bounds.has_value());
  EXPECT_TRUE(s.world.mesh.is_absolute());
  EXPECT_EQ(s.world.mesh, fs::absolute(dir.path() / "meshes/floor.obj").lexically_normal());
  EXPECT_EQ(s.world.navmesh.cell_size, 0.2f);
  EXPECT_FLOAT_EQ(s.world.navmesh.max_slope, 30.0f);
  EXPECT_EQ(s.name, "level");
  EXPECT_EQ(s.file, file);
}

// The Recast settings a file leaves out are the values the navmesh build used before they
// were keys (RecastDemo's, but 0.75 cells of edge error), whether `world.navmesh` is absent or
// gives other keys only; tile_size stays unset (one tile when the world fits one).
TEST(ScenarioReader, NavmeshRecastSettingsDefaultToTheBuildsValues) {
  for (const std::string& text : {with_world(""), with_navmesh(R"("cell_size": 0.1)")}) {
    SCOPED_TRACE(text);
    const NavmeshSettings n = parse_scenario(text, "a.json").world.navmesh;
    EXPECT_FALSE(n.tile_size.has_value());
    EXPECT_EQ(n.region_min_size, 8);
    EXPECT_EQ(n.region_merge_size, 20);
    EXPECT_EQ(n.partitioning, NavmeshPartitioning::Watershed);
    EXPECT_FLOAT_EQ(n.max_edge_length, 12.0f);
    EXPECT_FLOAT_EQ(n.max_edge_error, 0.75f);
    EXPECT_EQ(n.verts_per_poly, 6);
    EXPECT_FLOAT_EQ(n.detail_sample_distance, 6.0f);
    EXPECT_FLOAT_EQ(n.detail_sample_max_error, 1.0f);
  }
}

TEST(ScenarioReader, NavmeshRecastSettingsAreReadBack) {
  const NavmeshSettings n = parse_scenario(with_navmesh(R"("tile_size": 64, "region_min_size": 0,
                                     "region_merge_size": 150, "partitioning": "monotone",
                                     "max_edge_length": 0, "max_edge_error": 1.3,
                                     "verts_per_poly": 3, "detail_sample_distance": 0.5,
                                     "detail_sample_max_error": 2.5)"),
                                           "a.json")
                                .world.navmesh;
  EXPECT_EQ(n.tile_size, 64);
  EXPECT_EQ(n.region_min_size, 0);
  EXPECT_EQ(n.region_merge_size, 150);
  EXPECT_EQ(n.partitioning, NavmeshPartitioning::Monotone);
  EXPECT_FLOAT_EQ(n.max_edge_length, 0.0f);
  EXPECT_FLOAT_EQ(n.max_edge_error, 1.3f);
  EXPECT_EQ(n.verts_per_poly, 3);
  EXPECT_FLOAT_EQ(n.detail_sample_distance, 0.5f);
  EXPECT_FLOAT_EQ(n.detail_sample_max_error, 2.5f);
  // The old keys beside them are untouched.
  EXPECT_FALSE(n.cell_size.has_value());
  EXPECT_FLOAT_EQ(n.max_slope, 45.0f);
}

TEST(ScenarioReader, NavmeshRecastSettingsTakeTheirRangesEnds) {
  const auto navmesh = [](const std::string& members) {
    return parse_scenario(with_navmesh(members), "a.json").world.navmesh;
  };
  EXPECT_EQ(navmesh(R"("tile_size": 16)").tile_size, 16);
  EXPECT_EQ(navmesh(R"("tile_size": 4096)").tile_size, 4096);
  EXPECT_EQ(navmesh(R"("tile_size": 256.0)").tile_size, 256); // an integer with a zero fraction
  EXPECT_EQ(navmesh(R"("region_min_size": 150)").region_min_size, 150);
  EXPECT_EQ(navmesh(R"("region_merge_size": 0)").region_merge_size, 0);
  EXPECT_EQ(navmesh(R"("verts_per_poly": 6)").verts_per_poly, 6);
  EXPECT_FLOAT_EQ(navmesh(R"("max_edge_error": 0.1)").max_edge_error, 0.1f);
  EXPECT_FLOAT_EQ(navmesh(R"("max_edge_error": 3)").max_edge_error, 3.0f);
  EXPECT_FLOAT_EQ(navmesh(R"("max_edge_length": 1000)").max_edge_length, 1000.0f);
  EXPECT_FLOAT_EQ(navmesh(R"("detail_sample_distance": 0)").detail_sample_distance, 0.0f);
  EXPECT_FLOAT_EQ(navmesh(R"("detail_sample_max_error": 0)").detail_sample_max_error, 0.0f);
}

TEST(ScenarioReader, NavmeshPartitioningNamesRecastDemosThree) {
  const auto partitioning = [](const std::string& name) {
    return parse_scenario(with_navmesh(R"("partitioning": ")" + name + "\""), "a.json")
        .world.navmesh.partitioning;
  };
  EXPECT_EQ(partitioning("watershed"), NavmeshPartitioning::Watershed);
  EXPECT_EQ(partitioning("monotone"), NavmeshPartitioning::Monotone);
  EXPECT_EQ(partitioning("layers"), NavmeshPartitioning::Layers);
}

TEST(ScenarioReaderErrors, NavmeshIntegerSettingRefusesAFraction) {
  const ScenarioError e = error_for(with_navmesh(R"("verts_per_poly": 4.5)"), "dir/a.json");
  EXPECT_STREQ(e.what(),
               "dir/a.json: world.navmesh.verts_per_poly: must be an integer in [3, 6], got 4.5");
}

TEST(ScenarioReaderErrors, NavmeshPartitioningListsTheValidNames) {
  const ScenarioError e = error_for(with_navmesh(R"("partitioning": "voronoi")"));
  EXPECT_EQ(e.json_path(), "world.navmesh.partitioning");
  EXPECT_EQ(e.problem(), "must be \"watershed\", \"monotone\" or \"layers\", got \"voronoi\"");
}

// ---- errors -----------------------------------------------------------------------------

TEST(ScenarioReaderErrors, MessageIsFileThenJsonPathThenProblem) {
  const ScenarioError e = error_for(with_agent(R"("radius": -1)"), "dir/circle.json");
  EXPECT_STREQ(e.what(), "dir/circle.json: agents[0].radius: must be a number > 0, got -1");
  EXPECT_EQ(e.file(), "dir/circle.json");
  EXPECT_EQ(e.json_path(), "agents[0].radius");
  EXPECT_EQ(e.problem(), "must be a number > 0, got -1");
}

TEST(ScenarioReaderErrors, MalformedJsonGivesLineAndColumn) {
  const ScenarioError e =
      error_for("{\n  \"world\": {\"bounds\": [[0, 0], [10, 10]]},\n  \"dt\": ,\n}");
  EXPECT_EQ(e.json_path(), "(root)");
  EXPECT_NE(e.problem().find("malformed JSON"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("line 3, column"), std::string::npos) << e.what();
  EXPECT_EQ(e.problem().find("[json.exception"), std::string::npos) << e.what();

  EXPECT_NE(error_for("").problem().find("malformed JSON"), std::string::npos);
}

TEST(ScenarioReaderErrors, DocumentMustBeAnObject) {
  const ScenarioError e = error_for("[1, 2]");
  EXPECT_EQ(e.json_path(), "(root)");
  EXPECT_NE(e.problem().find("must be an object"), std::string::npos) << e.what();
}

TEST(ScenarioReaderErrors, DuplicateKeyIsRefusedWhereItIs) {
  const ScenarioError e = error_for(with_world(R"("groups": [{"count": 2, "count": 3}])"));
  EXPECT_EQ(e.json_path(), "groups[0].count");
  EXPECT_NE(e.problem().find("duplicate key"), std::string::npos) << e.what();
}

TEST(ScenarioReaderErrors, MissingWorldAndRequiredKeys) {
  EXPECT_EQ(error_for(R"({"dt": 0.1})").what(),
            std::string("test.json: (root): missing required key \"world\" (the walkable space)"));
  EXPECT_EQ(error_for(with_world(R"("agents": [{"position": [1, 1]}])")).json_path(), "agents[0]");
  EXPECT_NE(error_for(with_world(R"("agents": [{"position": [1, 1]}])")).problem().find("\"goal\""),
            std::string::npos);
  EXPECT_EQ(error_for(with_world(R"("groups": [{"spawn": {"rect": [[0, 0], [1, 1]]},
                                                "goal": {"point": [1, 1]}}])"))
                .problem(),
            "missing required key \"count\" (number of agents)");
}

struct ErrorCase {
  std::string name;
  std::string json;
  std::string path;
  std::string problem_part; ///< A part of the problem text the user needs to see.
};

std::ostream& operator<<(std::ostream& out, const ErrorCase& c) {
  return out << c.name;
}

std::string case_name(const ::testing::TestParamInfo<ErrorCase>& info) {
  return info.param.name;
}

/// A 2D world whose `links` are `links` (JSON).
std::string with_links(const std::string& links) {
  return R"({"world": {"bounds": [[0, 0], [10, 10]], "links": )" + links + "}}";
}

TEST(ScenarioReader, LinksTakeTheirDefaults) {
  const Scenario s = parse_scenario(with_links(R"([{"start": [1, 2], "end": [5, 1.5, 6]},
      {"start": [3, 3], "end": [4, 4], "radius": 0.6, "bidirectional": false, "area": 63,
       "flags": 65535}])"),
                                    "links.json");
  ASSERT_EQ(s.world.links.size(), 2u);
  const LinkSpec& a = s.world.links[0];
  EXPECT_EQ(a.start.position, glm::vec3(1.0f, 0.0f, 2.0f));
  EXPECT_FALSE(a.start.has_height);
  EXPECT_EQ(a.end.position, glm::vec3(5.0f, 1.5f, 6.0f));
  EXPECT_TRUE(a.end.has_height);
  EXPECT_FALSE(a.radius.has_value());
  EXPECT_TRUE(a.bidirectional);
  EXPECT_EQ(a.area, 0);
  EXPECT_EQ(a.flags, 1);
  const LinkSpec& b = s.world.links[1];
  EXPECT_EQ(b.radius, 0.6f);
  EXPECT_FALSE(b.bidirectional);
  EXPECT_EQ(b.area, 63);
  EXPECT_EQ(b.flags, 65535);
}

class ScenarioReaderErrorTable : public ::testing::TestWithParam<ErrorCase> {};

INSTANTIATE_TEST_SUITE_P(
    Links, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"not_an_array", with_links(R"({"start": [1, 1]})"), "world.links",
                  "must be an array"},
        ErrorCase{"no_end", with_links(R"([{"start": [1, 1]}])"), "world.links[0]",
                  "missing required key \"end\""},
        ErrorCase{"unknown_key", with_links(R"([{"start": [1, 1], "end": [2, 2], "jump": 1}])"),
                  "world.links[0].jump", "allowed keys: start, end, radius, bidirectional, area"},
        ErrorCase{"radius", with_links(R"([{"start": [1, 1], "end": [2, 2], "radius": 0}])"),
                  "world.links[0].radius", "must be a number > 0, got 0"},
        ErrorCase{"area", with_links(R"([{"start": [1, 1], "end": [2, 2], "area": 64}])"),
                  "world.links[0].area", "must be an integer in [0, 63], got 64"},
        ErrorCase{"flags", with_links(R"([{"start": [1, 1], "end": [2, 2], "flags": -1}])"),
                  "world.links[0].flags", "in [0, 65535]"},
        ErrorCase{"bidirectional",
                  with_links(R"([{"start": [1, 1], "end": [2, 2], "bidirectional": 1}])"),
                  "world.links[0].bidirectional", "must be true or false"},
        ErrorCase{"same_point", with_links(R"([{"start": [1, 1], "end": [1, 5, 1]}])"),
                  "world.links[0].end", "must not be where the link starts"}),
    case_name);

TEST_P(ScenarioReaderErrorTable, NamesThePathAndTheProblem) {
  const ErrorCase& c = GetParam();
  const ScenarioError e = error_for(c.json);
  EXPECT_EQ(e.json_path(), c.path) << e.what();
  EXPECT_NE(e.problem().find(c.problem_part), std::string::npos)
      << "problem: " << e.problem() << "\nexpected to contain: " << c.problem_part;
  EXPECT_EQ(std::string(e.what()), "test.json: " + c.path + ": " + e.problem());
}

// Unknown keys in every kind of object, each listing the keys that are allowed.
INSTANTIATE_TEST_SUITE_P(
    UnknownKeys, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"top", with_world(R"("speed": 1)"), "speed",
                  "allowed keys: name, seed, dt, duration, steps, world, "
                  "defaults, types, agents, groups, emitters, source, notes, expect"},
        ErrorCase{"world", R"({"world": {"bounds": [[0, 0], [1, 1]], "floor": 0}})", "world.floor",
                  "unknown key \"floor\"; allowed keys: bounds, obstacles, mesh, navmesh"},
        ErrorCase{"navmesh", R"({"world": {"bounds": [[0, 0], [1, 1]], "navmesh": {"cell": 1}}})",
                  "world.navmesh.cell",
                  "allowed keys: cell_size, cell_height, agent_radius, agent_height, max_climb, "
                  "max_slope, tile_size, region_min_size, region_merge_size, partitioning, "
                  "max_edge_length, max_edge_error, verts_per_poly, detail_sample_distance, "
                  "detail_sample_max_error"},
        ErrorCase{"defaults", with_world(R"("defaults": {"max_sped": 1})"), "defaults.max_sped",
                  "unknown key \"max_sped\" (did you mean \"max_speed\"?); allowed keys: radius, "
                  "max_speed, max_accel, avoidance, separation_weight, collision_query_range, "
                  "arrival_radius, on_arrival"},
        ErrorCase{"agent", with_agent(R"("colour": "red")"), "agents[0].colour",
                  "allowed keys: position, goal, type, waypoints, start_delay, follow, radius"},
        ErrorCase{"group", with_group(R"("spread": 2)"), "groups[0].spread",
                  "allowed keys: count, spawn, goal, type, waypoints, start_delay, radius"},
        ErrorCase{
            "spawn",
            with_world(R"("groups": [{"count": 1, "spawn": {"square": 1}, "goal": "antipodal"}])"),
            "groups[0].spawn.square", "allowed keys: rect, circle"},
        ErrorCase{"circle", with_world(R"("groups": [{"count": 1, "goal": "antipodal",
                     "spawn": {"circle": {"center": [1, 1], "radius": 1, "r": 2}}}])"),
                  "groups[0].spawn.circle.r", "allowed keys: center, radius"},
        ErrorCase{"goal", with_group(R"("goal": {"points": [1, 1]})"), "groups[0].goal.points",
                  "(did you mean \"point\"?); allowed keys: rect, point"},
        ErrorCase{"avoidance", with_agent(R"("avoidance": {"horizon": 2})"),
                  "agents[0].avoidance.horizon",
                  "allowed keys: model, vel_bias, weight_des_vel, weight_cur_vel, weight_side, "
                  "weight_toi, horiz_time, adaptive_divs, adaptive_rings, adaptive_depth"},
        ErrorCase{"ttc_avoidance", with_agent(R"("avoidance": {"model": "ttc", "sample_cont": 9})"),
                  "agents[0].avoidance.sample_cont",
                  "(did you mean \"sample_count\"?); allowed keys: model, collector_radius, "
                  "collector_half_height, collector_frames_between_updates, reference, "
                  "sample_count, angle_span, enable_slowing_down, enable_stop, safety_distance, "
                  "time_horizon, time_to_collision_influence, desired_velocity_influence, "
                  "previous_velocity_influence, stop_collision_time, stop_wait_time, "
                  "enable_force_passage, wait_passage_time_limit, force_passage_time_limit"},
        ErrorCase{"uniform", with_group(R"("radius": {"uniform": [0.1, 0.2], "seed": 1})"),
                  "groups[0].radius.seed", "allowed keys: uniform"},
        ErrorCase{"odd_key", with_world(R"("a.b": 1)"), R"(["a.b"])", "unknown key \"a.b\""}),
    case_name);

// Wrong types.
INSTANTIATE_TEST_SUITE_P(
    WrongTypes, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"dt_string", with_world(R"("dt": "0.1")"), "dt",
                  "must be a number in (0, 1], got \"0.1\" (a string)"},
        ErrorCase{"name_number", with_world(R"("name": 3)"), "name",
                  "must be a non-empty string, got 3 (a number)"},
        ErrorCase{"world_array", R"({"world": []})", "world", "must be an object"},
        ErrorCase{"agents_object", with_world(R"("agents": {})"), "agents", "must be an array"},
        ErrorCase{"agent_not_object", with_world(R"("agents": [3])"), "agents[0]",
                  "must be an object"},
        ErrorCase{"radius_bool", with_agent(R"("radius": true)"), "agents[0].radius",
                  "got true (a boolean)"},
        ErrorCase{"position_short", with_world(R"("agents": [{"position": [1], "goal": [1, 1]}])"),
                  "agents[0].position", "must be a point [x, z] or [x, y, z], got [1]"},
        ErrorCase{"coordinate_null",
                  with_world(R"("agents": [{"position": [1, null], "goal": [1, 1]}])"),
                  "agents[0].position[1]", "got null"},
        ErrorCase{"count_fraction", with_group(R"("count": 2.5)"), "groups[0].count",
                  "must be an integer in [1, 10000000], got 2.5"},
        ErrorCase{"steps_fraction", with_world(R"("steps": 2.5)"), "steps",
                  "must be an integer in [0, 2147483647], got 2.5"},
        ErrorCase{"seed_fraction", with_world(R"("seed": 1.5)"), "seed", "must be an integer"},
        ErrorCase{"avoidance_number", with_agent(R"("avoidance": 3)"), "agents[0].avoidance",
                  "must be \"low\", \"medium\", \"good\", \"high\" or an object"},
        ErrorCase{"adaptive_divs_fraction", with_agent(R"("avoidance": {"adaptive_divs": 6.5})"),
                  "agents[0].avoidance.adaptive_divs", "must be an integer in [1, 32]"},
        ErrorCase{"mesh_number", R"({"world": {"mesh": 1}})", "world.mesh",
                  "must be a path to an OBJ file"},
        ErrorCase{"goal_word", with_group(R"("goal": "opposite")"), "groups[0].goal",
                  "must be \"antipodal\", {\"rect\": [[x0, z0], [x1, z1]]} or {\"point\": [x, z]}"},
        ErrorCase{"spawn_both", with_group(R"("spawn": {"rect": [[0, 0], [1, 1]],
                                                        "circle": {"center": [1, 1], "radius": 1}})"),
                  "groups[0].spawn", "must have exactly one key, \"rect\" or \"circle\", got {"}),
    case_name);

// Values out of range.
INSTANTIATE_TEST_SUITE_P(
    OutOfRange, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"dt_zero", with_world(R"("dt": 0)"), "dt", "must be a number in (0, 1], got 0"},
        ErrorCase{"dt_big", with_world(R"("dt": 1.5)"), "dt", "got 1.5"},
        ErrorCase{"duration_negative", with_world(R"("duration": -5)"), "duration",
                  "must be a number > 0, got -5"},
        ErrorCase{"too_many_steps", with_world(R"("duration": 1e9, "dt": 0.001)"), "duration",
                  "more than the limit of 2147483647"},
        ErrorCase{"steps_negative", with_world(R"("steps": -1)"), "steps", "got -1"},
        ErrorCase{"seed_negative", with_world(R"("seed": -1)"), "seed",
                  "must be an integer in [0, 18446744073709551615], got -1"},
        ErrorCase{"empty_name", with_world(R"("name": "")"), "name", "must be a non-empty string"},
        ErrorCase{"count_zero", with_group(R"("count": 0)"), "groups[0].count", "got 0"},
        ErrorCase{"count_huge", with_group(R"("count": 10000001)"), "groups[0].count",
                  "must be an integer in [1, 10000000], got 10000001"},
        ErrorCase{"max_speed_zero", with_agent(R"("max_speed": 0)"), "agents[0].max_speed",
                  "must be a number > 0, got 0"},
        ErrorCase{"max_accel", with_agent(R"("max_accel": -2)"), "agents[0].max_accel", "> 0"},
        ErrorCase{"separation", with_agent(R"("separation_weight": -0.5)"),
                  "agents[0].separation_weight", "must be a number >= 0, got -0.5"},
        ErrorCase{"query_range", with_agent(R"("collision_query_range": 0)"),
                  "agents[0].collision_query_range", "> 0"},
        ErrorCase{"arrival", with_group(R"("arrival_radius": -1)"), "groups[0].arrival_radius",
                  "> 0"},
        ErrorCase{"on_arrival", with_agent(R"("on_arrival": "vanish")"), "agents[0].on_arrival",
                  "must be \"stop\" or \"remove\", got \"vanish\""},
        ErrorCase{"avoidance_name", with_world(R"("defaults": {"avoidance": "best"})"),
                  "defaults.avoidance", "got \"best\""},
        ErrorCase{"vel_bias", with_agent(R"("avoidance": {"vel_bias": 1.5})"),
                  "agents[0].avoidance.vel_bias", "must be a number in [0, 1], got 1.5"},
        ErrorCase{"weight_toi", with_agent(R"("avoidance": {"weight_toi": -1})"),
                  "agents[0].avoidance.weight_toi", ">= 0"},
        ErrorCase{"horiz_time", with_agent(R"("avoidance": {"horiz_time": 0})"),
                  "agents[0].avoidance.horiz_time", "> 0"},
        ErrorCase{"avoidance_model", with_agent(R"("avoidance": {"model": "orcaa"})"),
                  "agents[0].avoidance.model",
                  "must be \"detour\", \"ttc\", \"mass\" or \"orca\", got \"orcaa\""},
        ErrorCase{"orca_horizon",
                  with_agent(R"("avoidance": {"model": "orca", "time_horizon": 0})"),
                  "agents[0].avoidance.time_horizon", "> 0"},
        ErrorCase{"orca_obstacle_horizon",
                  with_agent(R"("avoidance": {"model": "orca", "time_horizon_obstacles": -1})"),
                  "agents[0].avoidance.time_horizon_obstacles", "> 0"},
        ErrorCase{"mass_key_under_orca",
                  with_agent(R"("avoidance": {"model": "orca", "predictive_time": 2})"),
                  "agents[0].avoidance.predictive_time", "unknown key \"predictive_time\""},
        ErrorCase{"ttc_collector_radius",
                  with_agent(R"("avoidance": {"model": "ttc", "collector_radius": 0})"),
                  "agents[0].avoidance.collector_radius", "must be a number > 0, got 0"},
        ErrorCase{"ttc_collector_half_height",
                  with_agent(R"("avoidance": {"model": "ttc", "collector_half_height": -1})"),
                  "agents[0].avoidance.collector_half_height", "> 0"},
        ErrorCase{"ttc_frames", with_agent(R"("avoidance": {"model": "ttc",
                                              "collector_frames_between_updates": 1001})"),
                  "agents[0].avoidance.collector_frames_between_updates",
                  "must be an integer in [1, 1000], got 1001"},
        ErrorCase{"ttc_frames_zero", with_agent(R"("avoidance": {"model": "ttc",
                                              "collector_frames_between_updates": 0})"),
                  "agents[0].avoidance.collector_frames_between_updates", "in [1, 1000]"},
        ErrorCase{"ttc_sample_count_one",
                  with_agent(R"("avoidance": {"model": "ttc", "sample_count": 1})"),
                  "agents[0].avoidance.sample_count", "must be an integer in [2, 32], got 1"},
        ErrorCase{"ttc_sample_count_big",
                  with_agent(R"("avoidance": {"model": "ttc", "sample_count": 33})"),
                  "agents[0].avoidance.sample_count", "in [2, 32], got 33"},
        ErrorCase{"ttc_angle_span_zero",
                  with_agent(R"("avoidance": {"model": "ttc", "angle_span": 0})"),
                  "agents[0].avoidance.angle_span", "must be a number in (0, 360], got 0"},
        ErrorCase{"ttc_angle_span_big",
                  with_agent(R"("avoidance": {"model": "ttc", "angle_span": 361})"),
                  "agents[0].avoidance.angle_span", "in (0, 360], got 361"},
        ErrorCase{"ttc_safety_distance",
                  with_agent(R"("avoidance": {"model": "ttc", "safety_distance": -0.1})"),
                  "agents[0].avoidance.safety_distance", "must be a number >= 0, got -0.1"},
        ErrorCase{"ttc_time_horizon",
                  with_agent(R"("avoidance": {"model": "ttc", "time_horizon": 0})"),
                  "agents[0].avoidance.time_horizon", "> 0"},
        ErrorCase{"ttc_influence", with_agent(R"("avoidance": {"model": "ttc",
                                              "desired_velocity_influence": -1})"),
                  "agents[0].avoidance.desired_velocity_influence", ">= 0, got -1"},
        ErrorCase{"ttc_stop_wait_time",
                  with_agent(R"("avoidance": {"model": "ttc", "stop_wait_time": -0.5})"),
                  "agents[0].avoidance.stop_wait_time", ">= 0"},
        ErrorCase{"ttc_wait_passage",
                  with_agent(R"("avoidance": {"model": "ttc", "wait_passage_time_limit": 0})"),
                  "agents[0].avoidance.wait_passage_time_limit", "> 0"},
        ErrorCase{"ttc_force_passage",
                  with_agent(R"("avoidance": {"model": "ttc", "force_passage_time_limit": 0})"),
                  "agents[0].avoidance.force_passage_time_limit", "> 0"},
        ErrorCase{"ttc_reference",
                  with_agent(R"("avoidance": {"model": "ttc", "reference": "straight"})"),
                  "agents[0].avoidance.reference",
                  "must be \"shortcut\" or \"corridor\", got \"straight\""},
        ErrorCase{"ttc_reference_number",
                  with_agent(R"("avoidance": {"model": "ttc", "reference": 1})"),
                  "agents[0].avoidance.reference",
                  "must be \"shortcut\" or \"corridor\", got 1 (a number)"},
        ErrorCase{"ttc_flag_number",
                  with_agent(R"("avoidance": {"model": "ttc", "enable_stop": 1})"),
                  "agents[0].avoidance.enable_stop", "must be true or false, got 1 (a number)"},
        ErrorCase{"ttc_flag_string",
                  with_agent(R"("avoidance": {"model": "ttc", "enable_force_passage": "yes"})"),
                  "agents[0].avoidance.enable_force_passage",
                  "must be true or false, got \"yes\" (a string)"},
        ErrorCase{"mass_key_under_ttc",
                  with_agent(R"("avoidance": {"model": "ttc", "wall_distance": 1})"),
                  "agents[0].avoidance.wall_distance", "unknown key \"wall_distance\""},
        ErrorCase{"sampling_key_under_ttc",
                  with_agent(R"("avoidance": {"model": "ttc", "horiz_time": 2})"),
                  "agents[0].avoidance.horiz_time", "unknown key \"horiz_time\""},
        ErrorCase{"ttc_key_under_orca",
                  with_agent(R"("avoidance": {"model": "orca", "sample_count": 9})"),
                  "agents[0].avoidance.sample_count", "unknown key \"sample_count\""},
        ErrorCase{"mass_stiffness", with_agent(R"("avoidance": {"model": "mass",
                                                              "separation_stiffness": -1})"),
                  "agents[0].avoidance.separation_stiffness", ">= 0"},
        ErrorCase{"mass_standing_scale",
                  with_agent(R"("avoidance": {"model": "mass", "standing_obstacle_scale": 2})"),
                  "agents[0].avoidance.standing_obstacle_scale", "in [0, 1]"},
        ErrorCase{"sampling_key_under_mass",
                  with_agent(R"("avoidance": {"model": "mass", "horiz_time": 2})"),
                  "agents[0].avoidance.horiz_time", "unknown key \"horiz_time\""},
        ErrorCase{"divs", with_agent(R"("avoidance": {"adaptive_divs": 33})"),
                  "agents[0].avoidance.adaptive_divs", "must be an integer in [1, 32], got 33"},
        ErrorCase{"rings", with_agent(R"("avoidance": {"adaptive_rings": 5})"),
                  "agents[0].avoidance.adaptive_rings", "in [1, 4]"},
        ErrorCase{"depth", with_agent(R"("avoidance": {"adaptive_depth": 0})"),
                  "agents[0].avoidance.adaptive_depth", "in [1, 16]"},
        ErrorCase{"cell_size",
                  R"({"world": {"bounds": [[0, 0], [1, 1]], "navmesh": {"cell_size": 0}}})",
                  "world.navmesh.cell_size", "must be a number > 0, got 0"},
        ErrorCase{"max_slope",
                  R"({"world": {"bounds": [[0, 0], [1, 1]], "navmesh": {"max_slope": 90}}})",
                  "world.navmesh.max_slope", "must be a number in (0, 90), got 90"},
        ErrorCase{"max_climb",
                  R"({"world": {"bounds": [[0, 0], [1, 1]], "navmesh": {"max_climb": -1}}})",
                  "world.navmesh.max_climb", ">= 0"},
        ErrorCase{"bounds_inverted", R"({"world": {"bounds": [[10, 0], [0, 10]]}})", "world.bounds",
                  "[[xmin, zmin], [xmax, zmax]] with the first corner below the second"},
        ErrorCase{"bounds_flat", R"({"world": {"bounds": [[0, 0], [10, 0]]}})", "world.bounds",
                  "got [[0,0],[10,0]]"},
        ErrorCase{"spawn_rect_inverted", with_group(R"("spawn": {"rect": [[4, 4], [1, 1]]})"),
                  "groups[0].spawn.rect", "with the first corner below the second"},
        ErrorCase{"goal_rect_inverted", with_group(R"("goal": {"rect": [[4, 4], [4, 5]]})"),
                  "groups[0].goal.rect", "with the first corner below the second"},
        ErrorCase{"circle_radius",
                  with_group(R"("spawn": {"circle": {"center": [1, 1], "radius": 0}})"),
                  "groups[0].spawn.circle.radius", "must be a number > 0, got 0"},
        ErrorCase{"uniform_reversed", with_group(R"("radius": {"uniform": [0.5, 0.3]})"),
                  "groups[0].radius.uniform", "must be [a, b] with a <= b, got [0.5,0.3]"},
        ErrorCase{"uniform_out_of_range", with_group(R"("max_speed": {"uniform": [-1, 2]})"),
                  "groups[0].max_speed.uniform[0]", "must be a number > 0, got -1"},
        ErrorCase{"uniform_not_pair", with_group(R"("max_speed": {"uniform": [1, 2, 3]})"),
                  "groups[0].max_speed.uniform", "must be [a, b]"}),
    case_name);

// NaN and infinity: JSON has no literal for them, but numbers can overflow.
INSTANTIATE_TEST_SUITE_P(
    NotFinite, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"radius_overflow", with_agent(R"("radius": 1e999)"), "agents[0].radius",
                  "must be a finite number, got 1e999, which overflows to infinity"},
        ErrorCase{"coordinate_overflow",
                  with_world(R"("agents": [{"position": [1, -1e999], "goal": [1, 1]}])"),
                  "agents[0].position[1]", "got -1e999, which overflows"},
        ErrorCase{"bounds_overflow", R"({"world": {"bounds": [[0, 0], [1e999, 10]]}})",
                  "world.bounds[1][0]", "overflows"},
        ErrorCase{"float_overflow", with_world(R"("duration": 1e39)"), "duration",
                  "got 1e+39, which overflows a 32-bit float to infinity"},
        ErrorCase{"nan_literal", with_world(R"("dt": NaN)"), "(root)", "malformed JSON"}),
    case_name);

// The world's structure and obstacles.
INSTANTIATE_TEST_SUITE_P(
    World, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"neither", R"({"world": {}})", "world",
                  "must have exactly one of \"bounds\" (a 2D world) or \"mesh\" (an OBJ file), got "
                  "neither"},
        ErrorCase{"both", R"({"world": {"bounds": [[0, 0], [1, 1]], "mesh": "a.obj"}})", "world",
                  "got both"},
        ErrorCase{"obstacles_with_mesh", R"({"world": {"mesh": "a.obj", "obstacles": []}})",
                  "world.obstacles", "only allowed with \"bounds\""},
        ErrorCase{"missing_mesh", R"({"world": {"mesh": "no/such/mesh.obj"}})", "world.mesh",
                  "file not found: " +
                      (fs::current_path() / "no/such/mesh.obj").lexically_normal().string()},
        ErrorCase{"two_points",
                  R"({"world": {"bounds": [[0, 0], [9, 9]], "obstacles": [[[1, 1], [2, 2]]]}})",
                  "world.obstacles[0]", "must have at least 3 points, got 2"},
        ErrorCase{"zero_area",
                  R"({"world": {"bounds": [[0, 0], [9, 9]],
                                "obstacles": [[[1, 1], [2, 2], [3, 3]]]}})",
                  "world.obstacles[0]", "has zero area"},
        ErrorCase{"bow_tie",
                  R"({"world": {"bounds": [[0, 0], [9, 9]], "obstacles": [
                        [[1, 1], [2, 1], [2, 2], [1, 2]],
                        [[1, 1], [3, 3], [3, 1], [1, 3]]]}})",
                  "world.obstacles[1]", "is not simple: edge 0 touches or crosses edge 2"},
        ErrorCase{"repeated_point",
                  R"({"world": {"bounds": [[0, 0], [9, 9]],
                                "obstacles": [[[1, 1], [2, 1], [2, 1], [1, 2]]]}})",
                  "world.obstacles[0]", "point 2 repeats point 1"},
        ErrorCase{"obstacle_point_3d",
                  R"({"world": {"bounds": [[0, 0], [9, 9]],
                                "obstacles": [[[1, 1], [2, 1, 0], [1, 2]]]}})",
                  "world.obstacles[0][1]", "must be a point [x, z]"}),
    case_name);

// The Recast settings beyond the original six (world.navmesh): types and RecastDemo's ranges.
INSTANTIATE_TEST_SUITE_P(
    NavmeshSettings, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"tile_size_fraction", with_navmesh(R"("tile_size": 8.5)"),
                  "world.navmesh.tile_size", "must be an integer in [16, 4096], got 8.5"},
        ErrorCase{"tile_size_small", with_navmesh(R"("tile_size": 15)"), "world.navmesh.tile_size",
                  "must be an integer in [16, 4096], got 15"},
        ErrorCase{"tile_size_large", with_navmesh(R"("tile_size": 4097)"),
                  "world.navmesh.tile_size", "got 4097"},
        ErrorCase{"tile_size_null", with_navmesh(R"("tile_size": null)"), "world.navmesh.tile_size",
                  "must be an integer in [16, 4096], got null"},
        ErrorCase{"region_min_size_negative", with_navmesh(R"("region_min_size": -1)"),
                  "world.navmesh.region_min_size", "must be an integer in [0, 150], got -1"},
        ErrorCase{"region_min_size_fraction", with_navmesh(R"("region_min_size": 8.5)"),
                  "world.navmesh.region_min_size", "must be an integer in [0, 150], got 8.5"},
        ErrorCase{"region_merge_size_large", with_navmesh(R"("region_merge_size": 151)"),
                  "world.navmesh.region_merge_size", "must be an integer in [0, 150], got 151"},
        ErrorCase{"region_merge_size_string", with_navmesh(R"("region_merge_size": "20")"),
                  "world.navmesh.region_merge_size",
                  "must be an integer in [0, 150], got \"20\" (a string)"},
        ErrorCase{"partitioning_number", with_navmesh(R"("partitioning": 1)"),
                  "world.navmesh.partitioning",
                  "must be \"watershed\", \"monotone\" or \"layers\", got 1 (a number)"},
        ErrorCase{"partitioning_case", with_navmesh(R"("partitioning": "Watershed")"),
                  "world.navmesh.partitioning", "got \"Watershed\""},
        ErrorCase{"max_edge_length_negative", with_navmesh(R"("max_edge_length": -1)"),
                  "world.navmesh.max_edge_length", "must be a number >= 0, got -1"},
        ErrorCase{"max_edge_error_small", with_navmesh(R"("max_edge_error": 0.05)"),
                  "world.navmesh.max_edge_error", "must be a number in [0.1, 3], got 0.05"},
        ErrorCase{"max_edge_error_large", with_navmesh(R"("max_edge_error": 3.5)"),
                  "world.navmesh.max_edge_error", "must be a number in [0.1, 3], got 3.5"},
        ErrorCase{"verts_per_poly_small", with_navmesh(R"("verts_per_poly": 2)"),
                  "world.navmesh.verts_per_poly", "must be an integer in [3, 6], got 2"},
        ErrorCase{"verts_per_poly_large", with_navmesh(R"("verts_per_poly": 7)"),
                  "world.navmesh.verts_per_poly", "must be an integer in [3, 6], got 7"},
        ErrorCase{"detail_sample_distance_negative",
                  with_navmesh(R"("detail_sample_distance": -0.5)"),
                  "world.navmesh.detail_sample_distance", "must be a number >= 0, got -0.5"},
        ErrorCase{
            "detail_sample_max_error_bool", with_navmesh(R"("detail_sample_max_error": true)"),
            "world.navmesh.detail_sample_max_error", "must be a number >= 0, got true (a boolean)"},
        ErrorCase{"detail_sample_max_error_overflow",
                  with_navmesh(R"("detail_sample_max_error": 1e39)"),
                  "world.navmesh.detail_sample_max_error", "overflows a 32-bit float"}),
    case_name);

// Group rules and parameter forms that depend on where they appear.
INSTANTIATE_TEST_SUITE_P(
    Rules, ScenarioReaderErrorTable,
    ::testing::Values(
        ErrorCase{"antipodal_needs_circle", with_group(R"("goal": "antipodal")"), "groups[0].goal",
                  "\"antipodal\" needs a circle spawn"},
        ErrorCase{"uniform_in_agent", with_agent(R"("radius": {"uniform": [0.3, 0.5]})"),
                  "agents[0].radius",
                  "{\"uniform\": [a, b]} is only allowed in groups, emitters and types, where "
                  "each agent draws its own value (an explicit agent has one value)"},
        ErrorCase{"uniform_in_defaults",
                  with_world(R"("defaults": {"max_speed": {"uniform": [1, 2]}})"),
                  "defaults.max_speed", "only allowed in groups"},
        ErrorCase{"uniform_for_on_arrival", with_group(R"("on_arrival": {"uniform": [0, 1]})"),
                  "groups[0].on_arrival", "must be \"stop\" or \"remove\""},
        ErrorCase{"total_agents", with_world(R"("groups": [
                    {"count": 6000000, "spawn": {"rect": [[0, 0], [1, 1]]}, "goal": {"point": [1, 1]}},
                    {"count": 6000000, "spawn": {"rect": [[0, 0], [1, 1]]}, "goal": {"point": [1, 1]}}])"),
                  "groups[1].count", "brings the scenario to 12000000 agents"}),
    case_name);

TEST(ScenarioReaderErrors, ValidObstaclesOfAnyWindingAreAccepted) {
  const Scenario s = parse_scenario(R"({"world": {"bounds": [[0, 0], [20, 20]], "obstacles": [
      [[1, 1], [3, 1], [3, 3], [1, 3]],
      [[5, 5], [5, 7], [7, 7], [7, 5]],
      [[10, 10], [14, 10], [14, 14], [12, 11], [10, 14]],
      [[15, 2], [19, 2], [19, 2.1], [15, 2.1]]]}})",
                                    "a.json");
  EXPECT_EQ(s.world.obstacles.size(), 4u); // ccw, cw, concave, a thin wall
  EXPECT_EQ(s.world.obstacles[2][3], glm::vec2(12, 11));
}

TEST(ScenarioReaderErrors, MeshDirectoryIsNotAFile) {
  const TempDir dir;
  fs::create_directories(dir.path() / "meshes");
  const fs::path file = dir.write("s.json", R"({"world": {"mesh": "meshes"}})");
  try {
    load_scenario(file);
    FAIL() << "accepted a directory as mesh";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.json_path(), "world.mesh");
    EXPECT_NE(e.problem().find("is a directory"), std::string::npos) << e.what();
  }
}

TEST(ScenarioReaderErrors, MissingScenarioFile) {
  try {
    load_scenario("/nonexistent/dir/s.json");
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/s.json: (root): file not found");
  }
}

// Regression: a directory opened and read as an empty stream, reported as malformed JSON.
TEST(ScenarioReaderErrors, DirectoryIsNotAScenarioFile) {
  const TempDir dir;
  fs::create_directories(dir.path() / "s.json");
  try {
    load_scenario(dir.path() / "s.json");
    FAIL() << "accepted a directory";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.json_path(), "(root)");
    EXPECT_EQ(e.problem(), "is a directory, not a scenario file");
  }
}

// Regression: a failed read(2) looked like the end of the file, and the text read so far was
// blamed as malformed JSON. /proc/self/mem opens but fails to read at offset 0 (EIO).
TEST(ScenarioReaderErrors, ReadErrorIsReportedAsOne) {
  try {
    load_scenario("/proc/self/mem");
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(), "/proc/self/mem: (root): error while reading the file (Input/output "
                           "error)");
  }
}

TEST(ScenarioReaderErrors, LoadedFileErrorsNameTheFileAsGiven) {
  const TempDir dir;
  const fs::path file = dir.write("bad.json", with_agent(R"("max_speed": "fast")"));
  try {
    load_scenario(file);
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_EQ(std::string(e.what()).rfind(file.string() + ": agents[0].max_speed: ", 0), 0u)
        << e.what();
  }
}

} // namespace
} // namespace crowd

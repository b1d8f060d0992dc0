// The scenario writer: what it writes reads back to the same scenario.
#include "host/bench/bench_scene.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_writer.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace crowd {
namespace {

namespace fs = std::filesystem;

void expect_same_avoidance(const AvoidanceParams& a, const AvoidanceParams& b,
                           const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(a.vel_bias, b.vel_bias);
  EXPECT_EQ(a.weight_des_vel, b.weight_des_vel);
  EXPECT_EQ(a.weight_cur_vel, b.weight_cur_vel);
  EXPECT_EQ(a.weight_side, b.weight_side);
  EXPECT_EQ(a.weight_toi, b.weight_toi);
  EXPECT_EQ(a.horiz_time, b.horiz_time);
  EXPECT_EQ(a.adaptive_divs, b.adaptive_divs);
  EXPECT_EQ(a.adaptive_rings, b.adaptive_rings);
  EXPECT_EQ(a.adaptive_depth, b.adaptive_depth);
  EXPECT_EQ(a.model, b.model);
  EXPECT_TRUE(a.mass == b.mass);
  EXPECT_TRUE(a.orca == b.orca);
  EXPECT_TRUE(a.ttc == b.ttc);
}

void expect_same_params(const AgentParams& a, const AgentParams& b, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(a.radius, b.radius);
  EXPECT_EQ(a.max_speed, b.max_speed);
  EXPECT_EQ(a.max_accel, b.max_accel);
  expect_same_avoidance(a.avoidance, b.avoidance, where + ".avoidance");
  EXPECT_EQ(a.avoidance_name, b.avoidance_name);
  EXPECT_EQ(a.separation_weight, b.separation_weight);
  EXPECT_EQ(a.collision_query_range, b.collision_query_range);
  EXPECT_EQ(a.arrival_radius, b.arrival_radius);
  EXPECT_EQ(a.on_arrival, b.on_arrival);
  EXPECT_EQ(a.query_filter_type, b.query_filter_type);
}

void expect_same_distribution(const std::optional<Distribution>& a,
                              const std::optional<Distribution>& b, const std::string& where) {
  ASSERT_EQ(a.has_value(), b.has_value()) << where;
  if (a) {
    EXPECT_EQ(a->lo, b->lo) << where;
    EXPECT_EQ(a->hi, b->hi) << where;
  }
}

void expect_same_scenario(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.steps, b.steps);
  if (!a.steps) {
    EXPECT_EQ(a.duration, b.duration);
  }
  EXPECT_EQ(a.step_count(), b.step_count());
  ASSERT_EQ(a.world.bounds.has_value(), b.world.bounds.has_value());
  if (a.world.bounds) {
    EXPECT_EQ(a.world.bounds->min, b.world.bounds->min);
    EXPECT_EQ(a.world.bounds->max, b.world.bounds->max);
  }
  EXPECT_EQ(a.world.obstacles, b.world.obstacles);
  EXPECT_EQ(a.world.mesh, b.world.mesh);
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t k = 0; k < a.events.size(); ++k) {
    const ObstacleEvent &x = a.events[k], &y = b.events[k];
    EXPECT_EQ(x.time, y.time);
    EXPECT_EQ(x.action, y.action);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.position.position, y.position.position);
    EXPECT_EQ(x.position.has_height, y.position.has_height);
    if (x.action == ObstacleEvent::Action::Add) {
      EXPECT_EQ(x.shape, y.shape);
      EXPECT_EQ(x.radius, y.radius);
      EXPECT_EQ(x.size, y.size);
      EXPECT_EQ(x.height, y.height);
    }
    EXPECT_EQ(x.yaw, y.yaw);
  }
  ASSERT_EQ(a.query_filters.size(), b.query_filters.size());
  for (std::size_t k = 0; k < a.query_filters.size(); ++k) {
    EXPECT_EQ(a.query_filters[k].include_flags, b.query_filters[k].include_flags);
    EXPECT_EQ(a.query_filters[k].exclude_flags, b.query_filters[k].exclude_flags);
    EXPECT_EQ(a.query_filters[k].area_costs, b.query_filters[k].area_costs);
  }
  ASSERT_EQ(a.world.links.size(), b.world.links.size());
  for (std::size_t k = 0; k < a.world.links.size(); ++k) {
    const LinkSpec &la = a.world.links[k], &lb = b.world.links[k];
    EXPECT_EQ(la.start.position, lb.start.position);
    EXPECT_EQ(la.start.has_height, lb.start.has_height);
    EXPECT_EQ(la.end.position, lb.end.position);
    EXPECT_EQ(la.end.has_height, lb.end.has_height);
    EXPECT_EQ(la.radius, lb.radius);
    EXPECT_EQ(la.bidirectional, lb.bidirectional);
    EXPECT_EQ(la.area, lb.area);
    EXPECT_EQ(la.flags, lb.flags);
  }
  const NavmeshSettings &na = a.world.navmesh, &nb = b.world.navmesh;
  EXPECT_EQ(na.cell_size, nb.cell_size);
  EXPECT_EQ(na.cell_height, nb.cell_height);
  EXPECT_EQ(na.agent_radius, nb.agent_radius);
  EXPECT_EQ(na.agent_height, nb.agent_height);
  EXPECT_EQ(na.max_climb, nb.max_climb);
  EXPECT_EQ(na.max_slope, nb.max_slope);
  EXPECT_EQ(na.tile_size, nb.tile_size);
  EXPECT_EQ(na.region_min_size, nb.region_min_size);
  EXPECT_EQ(na.region_merge_size, nb.region_merge_size);
  EXPECT_EQ(na.partitioning, nb.partitioning);
  EXPECT_EQ(na.max_edge_length, nb.max_edge_length);
  EXPECT_EQ(na.max_edge_error, nb.max_edge_error);
  EXPECT_EQ(na.verts_per_poly, nb.verts_per_poly);
  EXPECT_EQ(na.detail_sample_distance, nb.detail_sample_distance);
  EXPECT_EQ(na.detail_sample_max_error, nb.detail_sample_max_error);
  expect_same_params(a.defaults, b.defaults, "defaults");
  ASSERT_EQ(a.agents.size(), b.agents.size());
  for (std::size_t i = 0; i < a.agents.size(); ++i) {
    const std::string where = "agents[" + std::to_string(i) + "]";
    EXPECT_EQ(a.agents[i].position.position, b.agents[i].position.position) << where;
    EXPECT_EQ(a.agents[i].position.has_height, b.agents[i].position.has_height) << where;
    EXPECT_EQ(a.agents[i].goal.position, b.agents[i].goal.position) << where;
    EXPECT_EQ(a.agents[i].goal.has_height, b.agents[i].goal.has_height) << where;
    ASSERT_EQ(a.agents[i].follow.has_value(), b.agents[i].follow.has_value()) << where;
    if (a.agents[i].follow) {
      EXPECT_EQ(a.agents[i].follow->agent, b.agents[i].follow->agent) << where;
      EXPECT_EQ(a.agents[i].follow->offset, b.agents[i].follow->offset) << where;
    }
    expect_same_params(a.agents[i].params, b.agents[i].params, where);
  }
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (std::size_t i = 0; i < a.groups.size(); ++i) {
    const GroupSpec &ga = a.groups[i], &gb = b.groups[i];
    const std::string where = "groups[" + std::to_string(i) + "]";
    EXPECT_EQ(ga.count, gb.count) << where;
    EXPECT_EQ(ga.spawn_kind, gb.spawn_kind) << where;
    EXPECT_EQ(ga.spawn_min, gb.spawn_min) << where;
    EXPECT_EQ(ga.spawn_max, gb.spawn_max) << where;
    EXPECT_EQ(ga.circle_center, gb.circle_center) << where;
    EXPECT_EQ(ga.circle_radius, gb.circle_radius) << where;
    EXPECT_EQ(ga.goal_kind, gb.goal_kind) << where;
    EXPECT_EQ(ga.goal_min, gb.goal_min) << where;
    EXPECT_EQ(ga.goal_max, gb.goal_max) << where;
    EXPECT_EQ(ga.goal_point, gb.goal_point) << where;
    expect_same_params(ga.base, gb.base, where);
    expect_same_distribution(ga.radius, gb.radius, where + ".radius");
    expect_same_distribution(ga.max_speed, gb.max_speed, where + ".max_speed");
    expect_same_distribution(ga.max_accel, gb.max_accel, where + ".max_accel");
    expect_same_distribution(ga.separation_weight, gb.separation_weight, where + ".separation");
    expect_same_distribution(ga.collision_query_range, gb.collision_query_range,
                             where + ".collision_query_range");
    expect_same_distribution(ga.arrival_radius, gb.arrival_radius, where + ".arrival_radius");
  }
}

TEST(ScenarioWriter, BenchSceneReadsBackUnchanged) {
  for (const int agents : {1, 1000, 16000}) {
    const Scenario scenario = make_bench_scenario(agents, 42);
    const std::string text = write_scenario_json(scenario);
    const Scenario read = parse_scenario(text, scenario.file);
    SCOPED_TRACE(agents);
    expect_same_scenario(scenario, read);
    // Writing what was read gives the same text.
    EXPECT_EQ(write_scenario_json(read), text);
  }
}

TEST(ScenarioWriter, EverySampleScenarioReadsBackUnchanged) {
  const fs::path samples = fs::path(CROWD_SOURCE_DIR) / "samples" / "scenarios";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(samples)) {
    if (entry.path().extension() != ".json")
      continue;
    SCOPED_TRACE(entry.path().string());
    const Scenario loaded = load_scenario(entry.path());
    // Read back as if from the same place (a mesh world's path is written absolute anyway).
    const Scenario read = parse_scenario(write_scenario_json(loaded), entry.path());
    expect_same_scenario(loaded, read);
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

TEST(ScenarioWriter, CustomValuesSurvive) {
  const std::string text = R"({
    "name": "custom", "seed": 18446744073709551615, "dt": 0.05, "duration": 12.5,
    "world": {"bounds": [[0, 0], [20, 10]], "obstacles": [[[5, 5], [6, 5], [5.5, 6]]],
              "navmesh": {"cell_size": 0.2, "agent_radius": 0.5, "max_slope": 30}},
    "defaults": {"radius": 0.35, "avoidance": "high", "collision_query_range": 3,
                 "on_arrival": "remove"},
    "agents": [{"position": [1, 1], "goal": [18, 0.25, 8], "max_speed": 2,
                "avoidance": {"vel_bias": 0.3, "adaptive_depth": 4}, "on_arrival": "stop"},
               {"position": [2, 1], "goal": [18, 7], "avoidance": "high"}],
    "groups": [{"count": 5, "spawn": {"circle": {"center": [10, 5], "radius": 3}},
                "goal": "antipodal", "max_accel": {"uniform": [4, 6]},
                "collision_query_range": {"uniform": [2, 4]}, "arrival_radius": 0.7},
               {"count": 2, "spawn": {"rect": [[1, 1], [3, 3]]}, "goal": {"point": [17, 9]},
                "separation_weight": {"uniform": [1, 1]}, "avoidance": "low"},
               {"count": 2, "spawn": {"rect": [[1, 6], [3, 8]]}, "goal": {"point": [17, 2]},
                "avoidance": {"model": "mass", "predictive_time": 3, "wall_stiffness": 0}},
               {"count": 2, "spawn": {"rect": [[5, 6], [7, 8]]}, "goal": {"point": [17, 5]},
                "avoidance": {"model": "orca", "time_horizon_obstacles": 0.5}}]
  })";
  const Scenario original = parse_scenario(text, "custom.json");
  const std::string written = write_scenario_json(original);
  expect_same_scenario(original, parse_scenario(written, "custom.json"));
  // Only what differs from the defaults is repeated for agents and groups.
  const auto json = nlohmann::json::parse(written);
  EXPECT_FALSE(json["agents"][1].contains("avoidance"));
  EXPECT_FALSE(json["agents"][1].contains("radius"));
  EXPECT_EQ(json["agents"][0]["avoidance"]["adaptive_depth"], 4);
  EXPECT_EQ(json["groups"][0]["max_accel"]["uniform"][1], 6.0);
  EXPECT_EQ(json["groups"][2]["avoidance"]["model"], "mass");
  EXPECT_EQ(json["groups"][2]["avoidance"]["predictive_time"], 3.0);
  EXPECT_EQ(json["groups"][3]["avoidance"]["model"], "orca");
  EXPECT_EQ(json["groups"][3]["avoidance"]["time_horizon_obstacles"], 0.5);
  EXPECT_EQ(json["dt"], 0.05);
  EXPECT_EQ(json["duration"], 12.5);
}

TEST(ScenarioWriter, LinksSurviveAndTheirDefaultsAreNotWritten) {
  const std::string text = R"({
    "name": "links", "world": {"bounds": [[0, 0], [20, 10]],
      "links": [{"start": [2, 3], "end": [8, 0.5, 3]},
                {"start": [4, 5], "end": [9, 5], "radius": 0.8, "bidirectional": false,
                 "area": 5, "flags": 3}]},
    "agents": [{"position": [1, 1], "goal": [18, 8]}]
  })";
  const Scenario original = parse_scenario(text, "links.json");
  const std::string written = write_scenario_json(original);
  expect_same_scenario(original, parse_scenario(written, "links.json"));
  const auto json = nlohmann::json::parse(written);
  EXPECT_EQ(json["world"]["links"][0].size(), 2u); // start and end only
  EXPECT_EQ(json["world"]["links"][1]["flags"], 3);
}

TEST(ScenarioWriter, TtcParametersSurvive) {
  const std::string text = R"({
    "name": "ttc", "world": {"bounds": [[0, 0], [20, 10]]},
    "defaults": {"avoidance": {"model": "ttc", "reference": "corridor", "sample_count": 9,
                               "angle_span": 360, "enable_stop": false}},
    "agents": [{"position": [1, 1], "goal": [18, 8]},
               {"position": [2, 1], "goal": [18, 7],
                "avoidance": {"model": "ttc", "collector_radius": 6.5,
                              "collector_half_height": 0.75,
                              "collector_frames_between_updates": 10, "sample_count": 32,
                              "angle_span": 120.5, "enable_slowing_down": false,
                              "enable_force_passage": false, "safety_distance": 0.15,
                              "time_horizon": 3.25, "time_to_collision_influence": 1.5,
                              "desired_velocity_influence": 0.35,
                              "previous_velocity_influence": 0.05,
                              "stop_collision_time": 0.4, "stop_wait_time": 0.7,
                              "wait_passage_time_limit": 2.5,
                              "force_passage_time_limit": 1.1}}]
  })";
  const Scenario original = parse_scenario(text, "ttc.json");
  const std::string written = write_scenario_json(original);
  const Scenario read = parse_scenario(written, "ttc.json");
  expect_same_scenario(original, read);
  EXPECT_EQ(read.defaults.avoidance, original.defaults.avoidance);
  EXPECT_EQ(read.agents[1].params.avoidance, original.agents[1].params.avoidance);
  EXPECT_EQ(read.agents[1].params.avoidance.ttc.collector_frames_between_updates, 10);
  const auto json = nlohmann::json::parse(written);
  const auto& defaults = json["defaults"]["avoidance"];
  EXPECT_EQ(defaults["model"], "ttc");
  EXPECT_EQ(defaults["reference"], "corridor");
  EXPECT_EQ(defaults["enable_stop"], false);
  EXPECT_EQ(defaults["enable_slowing_down"], true);
  EXPECT_EQ(defaults["sample_count"], 9);
  // Every key is written, the defaulted ones too.
  EXPECT_EQ(defaults.size(), 19u);
  EXPECT_FALSE(json["agents"][0].contains("avoidance"));
  const auto& own = json["agents"][1]["avoidance"];
  EXPECT_EQ(own["reference"], "shortcut");
  EXPECT_EQ(own["enable_force_passage"], false);
  EXPECT_EQ(own["angle_span"], 120.5);
}

TEST(ScenarioWriter, TypesAndAnnotationsSurvive) {
  const std::string text = R"({
    "name": "typed", "world": {"bounds": [[0, 0], [20, 10]]},
    "types": {"slow": {"max_speed": {"uniform": [0.5, 0.8]}, "radius": 0.3},
              "walker": {"radius": 0.25}},
    "agents": [{"position": [1, 1], "goal": [18, 8], "type": "slow"},
               {"position": [3, 1], "goal": [18, 8], "type": "slow", "max_accel": 4}],
    "groups": [{"count": 3, "spawn": {"rect": [[1, 4], [9, 9]]}, "goal": {"point": [17, 9]},
                "type": "walker"}]
  })";
  const Scenario original = parse_scenario(text, "typed.json");
  const std::string written =
      write_scenario_json(original, {{"source", "a guideline"}, {"notes", "how"}});
  const Scenario read = parse_scenario(written, "typed.json");
  expect_same_scenario(original, read);
  for (std::size_t i = 0; i < original.agents.size(); ++i) {
    EXPECT_EQ(read.agents[i].params.type, "slow");
    ASSERT_TRUE(read.agents[i].drawn.max_speed);
    EXPECT_EQ(read.agents[i].drawn.max_speed->lo, 0.5f);
    EXPECT_EQ(read.agents[i].drawn.max_speed->hi, 0.8f);
    EXPECT_EQ(read.agents[i].params.radius, 0.3f);
  }
  EXPECT_EQ(read.agents[1].params.max_accel, 4.0f);
  EXPECT_EQ(read.groups[0].base.type, "walker");
  EXPECT_EQ(read.groups[0].base.radius, 0.25f);
  const auto json = nlohmann::ordered_json::parse(written);
  EXPECT_EQ(json.begin().key(), "name");
  EXPECT_EQ(json["source"], "a guideline");
  EXPECT_EQ(json["notes"], "how");
  EXPECT_EQ(json["types"]["slow"]["max_speed"]["uniform"][0], 0.5);
  EXPECT_TRUE(json["types"]["walker"].empty());
}

// The Recast settings beyond the original six are written where a scenario changes them and
// read back the same; left at their defaults they are not written (samples/verify unchanged).
TEST(ScenarioWriter, RecastSettingsSurviveAndDefaultsAreNotWritten) {
  for (const std::string partitioning : {"monotone", "layers"}) {
    const Scenario original = parse_scenario(
        R"({"world": {"bounds": [[0, 0], [20, 10]], "navmesh": {"tile_size": 48,
              "region_min_size": 2, "region_merge_size": 0, "partitioning": ")" +
            partitioning + R"(", "max_edge_length": 0, "max_edge_error": 1.3,
              "verts_per_poly": 4, "detail_sample_distance": 0.1,
              "detail_sample_max_error": 0.3}}})",
        "recast.json");
    const std::string written = write_scenario_json(original);
    expect_same_scenario(original, parse_scenario(written, "recast.json"));
    EXPECT_EQ(nlohmann::json::parse(written)["world"]["navmesh"]["partitioning"], partitioning);
  }
  const auto json = nlohmann::json::parse(write_scenario_json(
      parse_scenario(R"({"world": {"bounds": [[0, 0], [20, 10]]}})", "plain.json")));
  for (const char* key :
       {"tile_size", "region_min_size", "region_merge_size", "partitioning", "max_edge_length",
        "max_edge_error", "verts_per_poly", "detail_sample_distance", "detail_sample_max_error"}) {
    EXPECT_FALSE(json["world"]["navmesh"].contains(key)) << key;
  }
}

// A scenario that leaves the cell size to the default is written without one, so that the
// file read back gets the default rule too (not the value it chose for these agents).
TEST(ScenarioWriter, UnsetCellSizeIsNotWritten) {
  const Scenario original =
      parse_scenario(R"({"world": {"bounds": [[0, 0], [20, 10]]}})", "plain.json");
  ASSERT_FALSE(original.world.navmesh.cell_size);
  const auto json = nlohmann::json::parse(write_scenario_json(original));
  EXPECT_FALSE(json["world"]["navmesh"].contains("cell_size"));
  EXPECT_TRUE(json["world"]["navmesh"].contains("cell_height"));
}

} // namespace
} // namespace crowd

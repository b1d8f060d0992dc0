// Scenario extension world.periodic (host/scenario/periodic_world.h): the key as read, written
// and refused; the frame's arithmetic; the navmesh past the ends; goals at an end.
#include "host/navmesh/navmesh.h"
#include "host/scenario/periodic_world.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "host/scenario/scenario_writer.h"

#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

std::string corridor(const std::string& world_extra, const std::string& extra = "") {
  return R"({"world": {"bounds": [[0, 0], [30, 4]])" + world_extra +
         R"(, "navmesh": {"cell_size": 0.1}}, "defaults": {"radius": 0.2})" + extra + "}";
}

ScenarioError error_for(const std::string& text) {
  try {
    parse_scenario(text, "fd.json");
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return ScenarioError("", "(none)", "(none)");
}

TEST(PeriodicWorld, ReadsTheAxis) {
  EXPECT_EQ(parse_scenario(corridor(R"(, "periodic": "x")"), "fd.json").world.periodic,
            PeriodicAxis::X);
  EXPECT_EQ(parse_scenario(corridor(R"(, "periodic": "z")"), "fd.json").world.periodic,
            PeriodicAxis::Z);
  EXPECT_EQ(parse_scenario(corridor(""), "fd.json").world.periodic, PeriodicAxis::None);
}

TEST(PeriodicWorld, RefusesOtherValues) {
  const ScenarioError y = error_for(corridor(R"(, "periodic": "y")"));
  EXPECT_EQ(y.json_path(), "world.periodic");
  EXPECT_EQ(y.problem(), "must be \"x\" or \"z\", got \"y\"");
  const ScenarioError number = error_for(corridor(R"(, "periodic": 1)"));
  EXPECT_EQ(number.json_path(), "world.periodic");
  EXPECT_NE(number.problem().find("must be \"x\" or \"z\""), std::string::npos) << number.what();
}

TEST(PeriodicWorld, MeshWorldIsRefusedByName) {
  const std::string obj = ::testing::TempDir() + "periodic_floor.obj";
  {
    std::FILE* f = std::fopen(obj.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("v 0 0 0\nv 10 0 0\nv 10 0 10\nf 1 2 3\n", f);
    std::fclose(f);
  }
  const ScenarioError e = error_for(R"({"world": {"mesh": ")" + obj + R"(", "periodic": "x"}})");
  EXPECT_EQ(e.json_path(), "world.periodic");
  EXPECT_NE(e.problem().find("only allowed with \"bounds\""), std::string::npos) << e.what();
}

TEST(PeriodicWorld, FrameWrapsAndMeasuresToTheNearestImage) {
  const Scenario s = parse_scenario(corridor(R"(, "periodic": "x")"), "fd.json");
  const auto frame = periodic_frame(s);
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->axis, 0);
  EXPECT_FLOAT_EQ(frame->period(), 30.0f);
  // Reach: max(2 m, 12 x 0.2 m query range, 0.5 + 3 x 0.2) = 2.4 m; runway adds r and 2 cells.
  EXPECT_FLOAT_EQ(frame->goal_gap, 2.4f);
  EXPECT_FLOAT_EQ(frame->runway, 2.4f + 0.2f + 0.2f);
  EXPECT_FLOAT_EQ(frame->wrap_shift(29.9f), 0.0f);
  EXPECT_FLOAT_EQ(frame->wrap_shift(30.0f), -30.0f);
  EXPECT_FLOAT_EQ(frame->wrap_shift(-0.1f), 30.0f);
  EXPECT_FLOAT_EQ(frame->nearest_image(29.5f), -0.5f);
  EXPECT_FLOAT_EQ(frame->nearest_image(-29.5f), 0.5f);
  EXPECT_FLOAT_EQ(frame->goal_coordinate(30.0f), 32.4f);
  EXPECT_FLOAT_EQ(frame->goal_coordinate(-5.0f), -2.4f);
  EXPECT_FLOAT_EQ(frame->goal_coordinate(12.0f), 12.0f);
  EXPECT_FALSE(periodic_frame(parse_scenario(corridor(""), "fd.json")));
}

TEST(PeriodicWorld, ObstaclesNearAnEndAreCopiedPastTheOther) {
  const Scenario s =
      parse_scenario(corridor(R"(, "periodic": "x", "obstacles": [[[0, 1], [1, 1], [1, 2], [0, 2]],
                                                      [[14, 1], [15, 1], [15, 2]]])"),
                     "fd.json");
  const auto frame = periodic_frame(s);
  ASSERT_TRUE(frame);
  const auto all = obstacles_with_images(s.world, *frame, frame->runway);
  // The block at x 0-1 appears again at 30-31 (within the runway); its copy at -30 and the
  // middle triangle's copies lie outside the extended bounds.
  ASSERT_EQ(all.size(), 3u);
  EXPECT_FLOAT_EQ(all[2][0].x, 30.0f);
  const WorldSpec world = periodic_navmesh_world(s);
  EXPECT_FLOAT_EQ(world.bounds->min.x, -frame->runway);
  EXPECT_FLOAT_EQ(world.bounds->max.x, 30.0f + frame->runway);
  EXPECT_FLOAT_EQ(world.bounds->max.y, 4.0f);
}

TEST(PeriodicWorld, NavmeshRunsPastTheEndsAndGoalsThereGoIntoTheRunway) {
  const Scenario s = parse_scenario(corridor(R"(, "periodic": "x")",
                                             R"(, "agents": [{"position": [1, 2], "goal": [30, 2]},
                               {"position": [3, 2], "goal": [0, 2]},
                               {"position": [5, 2], "goal": [20, 2]}])"),
                                    "fd.json");
  const NavMesh navmesh = NavMesh::build(s);
  EXPECT_LT(navmesh.bounds_min().x, -2.0f);
  EXPECT_GT(navmesh.bounds_max().x, 32.0f);
  EXPECT_TRUE(navmesh.nearest_point({31.5f, 0.0f, 2.0f}));
  const auto agents = populate(s, navmesh);
  EXPECT_FLOAT_EQ(agents[0].goal.x, 32.4f);
  EXPECT_FLOAT_EQ(agents[1].goal.x, -2.4f);
  EXPECT_FLOAT_EQ(agents[2].goal.x, 20.0f);
  // The runway goal is on the navmesh.
  const auto snapped = navmesh.nearest_point(agents[0].goal);
  ASSERT_TRUE(snapped);
  EXPECT_NEAR(snapped->x, 32.4f, 1e-3f);
}

TEST(PeriodicWorld, WriterWritesTheKey) {
  const Scenario s = parse_scenario(corridor(R"(, "periodic": "z")"), "fd.json");
  const std::string text = write_scenario_json(s);
  EXPECT_NE(text.find("\"periodic\": \"z\""), std::string::npos) << text;
  EXPECT_EQ(parse_scenario(text, "fd.json").world.periodic, PeriodicAxis::Z);
}

} // namespace
} // namespace crowd

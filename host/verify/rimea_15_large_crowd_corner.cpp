// RiMEA test 15, movement of a large crowd around a corner (RiMEA 3.0, test 15): the
// same crowd leaves through a long straight corridor, a short one and one with a corner whose
// length lies in between; the corner costs time, but the evacuation time of the corner
// corridor must lie between the other two (JuPedSim systemtest/rimea_tests/test_15, with the
// geometry of Utest/rimea_tests/test_15/geometry.xml: corridors 20 m wide, 81 m and 50 m
// long, the corner one turning right with its outer corner cut by a 45 degree wall; 500
// persons each). JuPedSim starts them in a 20 m x 6 m block; here the block is 10 m deep,
// because 500 discs of 0.2 m do not fit 20 m x 6 m at random (about 4.4 persons/m2 at most).
#include "host/verify/floor_plan.h"
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

#include <tuple>

namespace crowd {
namespace {

constexpr float kWidth = 20.0f, kBlock = 10.0f, kOutside = 3.0f;
constexpr float kLong = 81.0f, kShort = 50.0f, kCornerLeg = 60.0f, kCornerEnd = 30.0f;
constexpr int kLanes = 10; ///< 2 m lanes across the corridor

int persons(bool fast) {
  return fast ? 100 : 500;
}

/// The crowd as kLanes groups, one per 2 m lane across the corridor, each heading for the
/// same lane 1.5 m past the exit: people walk out through an exit as wide as the corridor
/// rather than crossing each other's way to scattered points. `start(k)` and `goal(k)` give
/// lane k's rects; lane k keeps its side of the corridor round the corner.
template <class Start, class Goal> void add_lanes(Scenario& s, int count, Start start, Goal goal) {
  for (int k = 0; k < kLanes; ++k) {
    const auto [lo, hi] = start(k);
    GroupSpec g = rect_group(s, count / kLanes + (k < count % kLanes ? 1 : 0), lo, hi, {});
    g.goal_kind = GroupSpec::GoalKind::Rect;
    std::tie(g.goal_min, g.goal_max) = goal(k);
    s.groups.push_back(g);
  }
}

/// Lane k's extent across the corridor: [2k, 2k + 2], 0.3 m clear of the walls at the sides.
std::pair<float, float> lane(int k) {
  const float w = kWidth / kLanes;
  return {k == 0 ? 0.3f : w * static_cast<float>(k),
          k == kLanes - 1 ? kWidth - 0.3f : w * static_cast<float>(k + 1)};
}

/// A straight corridor of `length` walked towards z = 0; the exit is the line z = 0, with
/// open ground of the corridor's width past it.
VerifyScenario straight(const std::string& name, float length, bool fast) {
  Scenario s = rimea_scenario(name, {0.0f, -kOutside}, {kWidth, length}, 300.0f);
  s.world.navmesh.cell_size = 0.2f; // Wide open: no door to resolve.
  add_lanes(
      s, persons(fast),
      [&](int k) {
        const auto [a, b] = lane(k);
        return std::pair{glm::vec2{a, length - kBlock}, glm::vec2{b, length - 0.3f}};
      },
      [&](int k) {
        const auto [a, b] = lane(k);
        return std::pair{glm::vec2{a, -2.0f}, glm::vec2{b, -1.0f}};
      });
  return {name, s,
          "RiMEA 3.0 test 15: a large crowd through a straight corridor (the " +
              std::string(length > kShort ? "long" : "short") + " reference)",
          std::to_string(persons(fast)) + " agents in the far 10 m of a corridor 20 m wide and " +
              fixed(length, 0) +
              " m long (groups[k]: lane k of 2 m), out through its end z = 0 "
              "to open ground."};
}

VerifyScenario corner(bool fast) {
  Scenario s =
      rimea_scenario("rimea_15_corner", {0.0f, 0.0f}, {kCornerEnd + kOutside, kCornerLeg}, 300.0f);
  s.world.navmesh.cell_size = 0.2f;
  // The leg down along x in [0, 20], turning right along z in [0, 20] to the exit x = 30.
  s.world.obstacles.push_back(box(kWidth, kWidth, kCornerEnd + kOutside, kCornerLeg));
  s.world.obstacles.push_back({{0.0f, 0.0f}, {10.0f, 0.0f}, {0.0f, 10.0f}}); // cut corner
  add_lanes(
      s, persons(fast),
      [&](int k) {
        const auto [a, b] = lane(k);
        return std::pair{glm::vec2{a, kCornerLeg - kBlock}, glm::vec2{b, kCornerLeg - 0.3f}};
      },
      [&](int k) {
        // The outer side (x near 0) comes out of the turn on the outer side (z near 0).
        const auto [a, b] = lane(k);
        return std::pair{glm::vec2{kCornerEnd + 1.0f, a}, glm::vec2{kCornerEnd + 2.0f, b}};
      });
  return {
      "rimea_15_corner", s, "RiMEA 3.0 test 15: a large crowd around a corner",
      std::to_string(persons(fast)) +
          " agents in the far 10 m of a 20 m wide corridor "
          "that runs 60 m down, then turns right (outer corner cut at 45 degrees) to the exit "
          "x = 30: about 67 m along its middle, between the 50 m and 81 m corridors. groups[k]: "
          "lane k of 2 m, keeping its side round the corner."};
}

std::vector<VerifyScenario> scenarios(bool fast) {
  return {straight("rimea_15_long", kLong, fast), straight("rimea_15_short", kShort, fast),
          corner(fast)};
}

std::optional<double> evacuation(const VerifyScenario& scene, const VerifyContext& context,
                                 glm::vec2 a, glm::vec2 b, int& out_count) {
  LineCrossings line(a, b);
  const VerifyRun r =
      run_verify_scenario(scene, context, {[&](const Simulation& s) { line.observe(s); }});
  const std::vector<double> times = line.first_times();
  out_count = static_cast<int>(times.size());
  if (out_count < r.metrics.agents || times.empty())
    return std::nullopt;
  return times.back();
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  int n_long = 0, n_short = 0, n_corner = 0;
  const auto t_long = evacuation(scenes[0], context, {0.0f, 0.0f}, {kWidth, 0.0f}, n_long);
  const auto t_short = evacuation(scenes[1], context, {0.0f, 0.0f}, {kWidth, 0.0f}, n_short);
  const auto t_corner =
      evacuation(scenes[2], context, {kCornerEnd, 0.0f}, {kCornerEnd, kWidth}, n_corner);
  TestOutcome out;
  const auto value = [](const std::optional<double>& t) {
    return t ? nlohmann::ordered_json(*t) : nlohmann::ordered_json(nullptr);
  };
  out.values["persons"] = persons(context.fast);
  out.values["long_time_s"] = value(t_long);
  out.values["short_time_s"] = value(t_short);
  out.values["corner_time_s"] = value(t_corner);
  out.values["out"] = {n_long, n_short, n_corner};
  if (!t_long || !t_short || !t_corner) {
    out.figure = "not everyone out: long " + std::to_string(n_long) + ", short " +
                 std::to_string(n_short) + ", corner " + std::to_string(n_corner);
    return out;
  }
  out.figure = "short " + fixed(*t_short, 1) + " s, corner " + fixed(*t_corner, 1) + " s, long " +
               fixed(*t_long, 1) + " s";
  out.passed = *t_short < *t_corner && *t_corner < *t_long;
  return out;
}

} // namespace

VerifyTest rimea_test_15() {
  return {15,
          "Movement of a large crowd around a corner",
          "RiMEA 3.0 test 15; geometry and criterion as JuPedSim test_15",
          "t(short) < t(corner) < t(long), everyone out",
          scenarios,
          run};
}

} // namespace crowd

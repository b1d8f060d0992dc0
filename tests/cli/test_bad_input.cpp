// Every class of bad input through `crowd run`, as the README's bad-input table lists it: the
// exit code is 2 (not a signal), stderr is exactly one line "error: FILE: JSON-PATH: problem"
// (an OBJ problem adds "OBJ-FILE:LINE: "), and neither the --out nor the --metrics file exists
// afterwards. Then the inputs that look wrong but are accepted, with what the run does.
#include "tests/cli/cli_runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace crowd::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const std::string kBounds = R"("world": {"bounds": [[0, 0], [20, 20]]})";
const std::string kWorld =
    R"("world": {"bounds": [[0, 0], [20, 20]], "obstacles": [[[8, 8], [12, 8], [12, 12], [8, 12]]]})";
const std::string kMeshWorld = R"("world": {"mesh": "floor.obj"})";
/// A 10 x 10 m floor for mesh worlds.
const std::string kFloorObj = "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nf 1 2 3 4\n";

std::string with(const std::string& world, const std::string& rest) {
  return "{" + world + (rest.empty() ? "" : ", " + rest) + "}";
}
std::string agent(const std::string& extra) {
  return R"("agents": [{"position": [2, 2], "goal": [5, 5])" + (extra.empty() ? "" : ", " + extra) +
         "}]";
}
std::string group(const std::string& count, const std::string& rect = "[[0, 0], [5, 5]]") {
  return R"("groups": [{"count": )" + count + R"(, "spawn": {"rect": )" + rect +
         R"(}, "goal": {"point": [18, 18]}}])";
}

struct BadInput {
  std::string name;
  std::string scenario;  ///< Written to bad.json.
  std::string json_path; ///< As the message names it.
  std::string problem;   ///< A part of the problem the user must see.
  std::string obj = "";  ///< Written to floor.obj when not empty.
  bool obj_is_directory = false;
};

std::ostream& operator<<(std::ostream& out, const BadInput& c) {
  return out << c.name;
}

/// Runs `crowd run` on `file` asking for both outputs, and checks the refusal.
void expect_refused(const fs::path& dir, const std::string& file, const std::string& json_path,
                    const std::string& problem, const std::string& command_prefix = "") {
  const fs::path csv = dir / "out.csv", metrics = dir / "metrics.json";
  const std::string command =
      "run " + file + " --backend cpu --out " + csv.string() + " --metrics " + metrics.string();
  CliResult r;
  if (command_prefix.empty()) {
    r = run_cli(command);
  } else {
    // Same as run_cli, with a prefix (setpriv) before the executable.
    const std::string full = command_prefix + " " + CROWD_CLI_PATH + " " + command + " 2>&1";
    std::FILE* pipe = ::popen(full.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
      r.output.append(buffer, n);
    const int status = ::pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  EXPECT_EQ(r.exit_code, 2) << "exit 2 (a bad scenario), not a crash (-1):\n" << r.output;
  const auto lines = lines_of(r.output);
  ASSERT_EQ(lines.size(), 1u) << "one line, got:\n" << r.output;
  const std::string prefix = "error: " + file + ": " + json_path + ": ";
  EXPECT_EQ(lines[0].rfind(prefix, 0), 0u) << "expected to start with: " << prefix << "\n"
                                           << lines[0];
  EXPECT_NE(lines[0].find(problem), std::string::npos) << "expected to contain: " << problem << "\n"
                                                       << lines[0];
  EXPECT_FALSE(fs::exists(csv)) << "--out file left behind";
  EXPECT_FALSE(fs::exists(metrics)) << "--metrics file left behind";
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos)
        << "temporary file left behind: " << entry.path();
}

class BadInputRun : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputRun, IsRefusedWithOneLineNamingFileAndPathAndLeavesNoOutput) {
  const BadInput& c = GetParam();
  TempDir dir;
  const fs::path file = dir / "bad.json";
  write(file, c.scenario);
  if (!c.obj.empty())
    write(dir / "floor.obj", c.obj);
  if (c.obj_is_directory)
    fs::create_directory(dir / "floor.obj");
  expect_refused(dir.path(), file.string(), c.json_path, c.problem);
}

std::string case_name(const ::testing::TestParamInfo<BadInput>& info) {
  return info.param.name;
}

// The rows of the README's bad-input table, in its order.
INSTANTIATE_TEST_SUITE_P(
    Json, BadInputRun,
    ::testing::Values(
        BadInput{"truncated", R"({"world": {"bounds": [[0, 0], [20, 20]])", "(root)",
                 "malformed JSON: parse error at line 1, column"},
        BadInput{"trailing_garbage", with(kBounds, "") + " xx", "(root)",
                 "; expected end of input"},
        BadInput{"empty_file", "", "(root)", "malformed JSON"},
        BadInput{"not_an_object", "[1, 2]", "(root)", "must be an object (the scenario)"},
        BadInput{"duplicate_key", with(kBounds, R"("dt": 0.1, "dt": 0.2)"), "dt", "duplicate key"},
        BadInput{"wrong_type", with(kBounds, R"("dt": "fast")"), "dt",
                 "must be a number in (0, 1], got \"fast\" (a string)"},
        BadInput{"wrong_type_point",
                 with(kBounds, R"("agents": [{"position": 3, "goal": [1, 1]}])"),
                 "agents[0].position", "must be a point [x, z] or [x, y, z], got 3 (a number)"},
        BadInput{"unknown_key", with(kBounds, R"("agentz": [])"), "agentz",
                 "unknown key \"agentz\" (did you mean \"agents\"?); allowed keys: name, seed"},
        BadInput{"unknown_param", with(kBounds, agent(R"("max_sped": 2)")), "agents[0].max_sped",
                 "(did you mean \"max_speed\"?)"},
        BadInput{"missing_world", R"({"dt": 0.1})", "(root)", "missing required key \"world\""}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Numbers, BadInputRun,
    ::testing::Values(
        BadInput{"overflow_1e999",
                 with(kBounds, R"("agents": [{"position": [1, 1e999], "goal": [5, 5]}])"),
                 "agents[0].position[1]",
                 "must be a finite number, got 1e999, which overflows to infinity"},
        BadInput{"overflow_float", with(kBounds, R"("duration": 1e39)"), "duration",
                 "which overflows a 32-bit float to infinity"},
        BadInput{"nan_string", with(kBounds, agent(R"("radius": "NaN")")), "agents[0].radius",
                 "must be a number > 0, got \"NaN\" (a string)"},
        BadInput{"infinity_string", with(kBounds, R"("dt": "Infinity")"), "dt",
                 "got \"Infinity\" (a string)"},
        BadInput{"nan_literal", with(kBounds, R"("dt": NaN)"), "(root)", "malformed JSON"},
        BadInput{"radius_negative", with(kBounds, agent(R"("radius": -1)")), "agents[0].radius",
                 "must be a number > 0, got -1"},
        BadInput{"radius_zero", with(kBounds, R"("defaults": {"radius": 0})"), "defaults.radius",
                 "must be a number > 0, got 0"},
        BadInput{"speed_zero", with(kBounds, agent(R"("max_speed": 0)")), "agents[0].max_speed",
                 "must be a number > 0, got 0"},
        BadInput{"speed_negative", with(kBounds, agent(R"("max_speed": -1.4)")),
                 "agents[0].max_speed", "must be a number > 0, got -1.4"},
        BadInput{"group_radius_uniform_negative",
                 with(kBounds, R"("groups": [{"count": 2, "spawn": {"rect": [[0, 0], [5, 5]]},
                      "goal": {"point": [9, 9]}, "radius": {"uniform": [-0.1, 0.4]}}])"),
                 "groups[0].radius.uniform[0]", "must be a number > 0, got -0.1"},
        BadInput{"count_1e9", with(kBounds, group("1e9")), "groups[0].count",
                 "must be an integer in [1, 10000000], got 1000000000.0"},
        BadInput{"count_2_pow_31", with(kBounds, group("2147483648")), "groups[0].count",
                 "must be an integer in [1, 10000000], got 2147483648"},
        BadInput{"count_total_over_limit", with(kBounds, R"("groups": [
                   {"count": 6000000, "spawn": {"rect": [[0, 0], [5, 5]]}, "goal": {"point": [9, 9]}},
                   {"count": 6000000, "spawn": {"rect": [[0, 0], [5, 5]]}, "goal": {"point": [9, 9]}}])"),
                 "groups[1].count",
                 "brings the scenario to 12000000 agents, more than the limit of 10000000"},
        // Within the limit but far more than the rect holds: refused once one agent alone has
        // needed 100,000 attempts, not after the group's budget of 1e10 (hours).
        BadInput{"count_that_does_not_fit", with(kBounds, group("10000000")), "groups[0].spawn",
                 "cannot fit 10000000 agents of radius 0.4 in the rect [[0, 0], [5, 5]]"},
        BadInput{"dt_zero", with(kBounds, R"("dt": 0)"), "dt", "must be a number in (0, 1], got 0"},
        BadInput{"dt_negative", with(kBounds, R"("dt": -0.1)"), "dt", "got -0.1"},
        BadInput{"dt_too_large", with(kBounds, R"("dt": 2)"), "dt", "got 2"},
        BadInput{"duration_zero", with(kBounds, R"("duration": 0)"), "duration",
                 "must be a number > 0, got 0"},
        BadInput{"duration_negative", with(kBounds, R"("duration": -5)"), "duration",
                 "must be a number > 0, got -5"},
        BadInput{"steps_negative", with(kBounds, R"("steps": -1)"), "steps",
                 "must be an integer in [0, 2147483647], got -1"},
        BadInput{"steps_over_int", with(kBounds, R"("duration": 1e9, "dt": 0.001)"), "duration",
                 "more than the limit of 2147483647"}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    World, BadInputRun,
    ::testing::Values(
        BadInput{"bounds_zero_area", R"({"world": {"bounds": [[0, 0], [10, 0]]}})", "world.bounds",
                 "with the first corner below the second in x and in z, got [[0,0],[10,0]]"},
        BadInput{"bounds_smaller_than_an_agent", R"({"world": {"bounds": [[0, 0], [0.5, 0.5]]}})",
                 "world", "the world has no walkable area"},
        BadInput{"obstacle_covers_the_floor",
                 R"({"world": {"bounds": [[0, 0], [10, 10]],
                     "obstacles": [[[-1, -1], [11, -1], [11, 11], [-1, 11]]]}})",
                 "world", "the world has no walkable area: obstacles cover the floor"},
        BadInput{"world_too_large", R"({"world": {"bounds": [[0, 0], [5000, 4000]]}})", "world",
                 "world of 5000 x 4000 m at cell_size 0.3 needs"},
        BadInput{"cell_size_too_small_for_the_world",
                 R"({"world": {"bounds": [[0, 0], [5000, 4000]], "navmesh": {"cell_size": 0.05}}})",
                 "world.navmesh.cell_size", "world of 5000 x 4000 m at cell_size 0.05 needs"},
        BadInput{"obstacle_self_crossing",
                 R"({"world": {"bounds": [[0, 0], [9, 9]],
                     "obstacles": [[[1, 1], [3, 3], [3, 1], [1, 3]]]}})",
                 "world.obstacles[0]", "is not simple"},
        BadInput{"agent_inside_obstacle",
                 with(kWorld, R"("agents": [{"position": [10, 10], "goal": [1, 1]}])"),
                 "agents[0].position", "starts inside obstacle 0"},
        BadInput{"agent_outside_bounds",
                 with(kWorld, R"("agents": [{"position": [40, 1], "goal": [1, 1]}])"),
                 "agents[0].position", "starts outside the world bounds"},
        BadInput{"circle_agent_inside_obstacle",
                 with(kWorld, R"("groups": [{"count": 8, "goal": "antipodal",
                      "spawn": {"circle": {"center": [10, 10], "radius": 1}}}])"),
                 "groups[0].spawn",
                 "agent 0 of 8 on the circle (at [11, 10]) starts inside obstacle 0"},
        BadInput{"rect_spawn_inside_obstacle", with(kWorld, group("3", "[[9, 9], [11, 11]]")),
                 "groups[0].spawn", "placed 0 in 3000 attempts"},
        BadInput{"agent_off_the_mesh",
                 with(kMeshWorld, R"("agents": [{"position": [30, 30], "goal": [5, 5]}])"),
                 "agents[0].position", "is off the walkable area (no navmesh near [30, 30])",
                 kFloorObj}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Obj, BadInputRun,
    ::testing::Values(
        BadInput{"missing_obj", with(kMeshWorld, ""), "world.mesh", "file not found: "},
        BadInput{"obj_is_a_directory", with(kMeshWorld, ""), "world.mesh", "is a directory", "",
                 true},
        BadInput{"obj_bad_face_index", with(kMeshWorld, ""), "world.mesh",
                 "floor.obj:5: face index 9 out of range (4 vertices)",
                 "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nf 1 2 9\n"},
        BadInput{"obj_non_numeric_vertex", with(kMeshWorld, ""), "world.mesh",
                 "floor.obj:2: vertex coordinate 'ten' is not a number", "v 0 0 0\nv 0 0 ten\n"},
        BadInput{"obj_empty", with(kMeshWorld, ""), "world.mesh",
                 "floor.obj: the mesh has no faces (no f records)", "\n"},
        BadInput{"obj_nothing_walkable", with(kMeshWorld, ""), "world",
                 "the world has no walkable area",
                 "v 0 0 0\nv 0 10 0\nv 0 10 10\nv 0 0 10\nf 1 2 3 4\n"}),
    case_name);

TEST(BadInputFile, DirectoryInsteadOfAScenarioFile) {
  TempDir dir;
  const fs::path folder = dir / "scenario.json";
  fs::create_directory(folder);
  expect_refused(dir.path(), folder.string(), "(root)", "is a directory, not a scenario file");
}

TEST(BadInputFile, MissingScenarioFile) {
  TempDir dir;
  const fs::path file = dir / "none.json";
  expect_refused(dir.path(), file.string(), "(root)", "file not found");
}

TEST(BadInputFile, FileWhoseReadFails) {
  // /proc/self/mem opens, and reading it from offset 0 fails with EIO (nothing is mapped
  // there): a real read error, also for root, whom permissions do not stop.
  TempDir dir;
  expect_refused(dir.path(), "/proc/self/mem", "(root)",
                 "error while reading the file (Input/output error)");
}

TEST(BadInputFile, FileWithoutReadPermission) {
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  const fs::path file = dir / "secret.json";
  write(file, with(kBounds, ""));
  fs::permissions(file, fs::perms::none);
  // Root reads any file: run the CLI as nobody then (setpriv, util-linux), with the outputs
  // in a directory nobody may write to... which it never gets to, as the read fails first.
  std::string prefix;
  if (::geteuid() == 0) {
    if (std::system("command -v setpriv > /dev/null") != 0)
      GTEST_SKIP() << "running as root without setpriv: cannot drop the permission to read";
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups";
  }
  expect_refused(dir.path(), file.string(), "(root)", "cannot open the file (Permission denied)",
                 prefix);
}

// ---- looks wrong, but is accepted -------------------------------------------------------

nlohmann::json run_ok(const TempDir& dir, const std::string& scenario, const std::string& args) {
  const fs::path file = dir / "ok.json";
  write(file, scenario);
  const fs::path metrics = dir / "m.json";
  const CliResult r = run_cli("run " + file.string() + " --backend cpu --quiet --metrics " +
                              metrics.string() + " " + args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "an accepted run prints nothing with --quiet";
  return nlohmann::json::parse(read_file(metrics));
}

TEST(AcceptedInput, GoalInsideAnObstacleIsWalkedTowardAndReportedUnreachable) {
  TempDir dir;
  // The agent walks to the navmesh point Detour's findNearestPoly gives for the goal (beside
  // the obstacle) and stays there; the run reports it as unreachable (the spec's rule).
  const nlohmann::json m = run_ok(
      dir, with(kWorld, R"("steps": 300, "agents": [{"position": [2, 2], "goal": [10, 10]}])"),
      "--out " + (dir / "t.csv").string());
  EXPECT_EQ(m["unreachable"], 1);
  EXPECT_EQ(m["arrived"], 0);
  const auto lines = lines_of(read_file(dir / "t.csv"));
  ASSERT_FALSE(lines.empty());
  // step,time,agent,x,y,z,vx,vz of the last frame.
  std::istringstream last(lines.back());
  std::vector<double> values;
  for (std::string field; std::getline(last, field, ',');)
    values.push_back(std::stod(field));
  ASSERT_EQ(values.size(), 8u);
  const double x = values[3], z = values[5];
  EXPECT_GT(std::hypot(x - 2.0, z - 2.0), 5.0) << "it walked: " << lines.back();
  const double outside = std::max({8.0 - x, x - 12.0, 8.0 - z, z - 12.0});
  EXPECT_GE(outside, 0.4) << "clear of the obstacle: " << lines.back();
}

TEST(AcceptedInput, GoalFarOutsideTheWorldIsReportedUnreachable) {
  TempDir dir;
  const nlohmann::json m = run_ok(
      dir, with(kWorld, R"("steps": 50, "agents": [{"position": [2, 2], "goal": [1000, 2]}])"), "");
  EXPECT_EQ(m["unreachable"], 1);
  EXPECT_EQ(m["arrived"], 0);
}

TEST(AcceptedInput, TwoAgentsStartingAtTheSameSpotArePushedApart) {
  TempDir dir;
  const nlohmann::json m =
      run_ok(dir, with(kWorld, R"("steps": 200, "agents": [{"position": [2, 2], "goal": [18, 2]},
                                               {"position": [2, 2], "goal": [2, 18]}])"),
             "");
  // Overlaps are measured at the end of each step: the first step has separated them.
  EXPECT_EQ(m["overlap_events"], 0);
  EXPECT_EQ(m["arrived"], 2);
}

TEST(AcceptedInput, ZeroStepsWritesTheInitialFrameOnly) {
  TempDir dir;
  const nlohmann::json m =
      run_ok(dir, with(kWorld, R"("steps": 0, )" + agent("")), "--out " + (dir / "t.csv").string());
  EXPECT_EQ(m["steps"], 0);
  const auto lines = lines_of(read_file(dir / "t.csv"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].rfind("0,0,0,", 0), 0u) << lines[1];
}

} // namespace
} // namespace crowd::testing

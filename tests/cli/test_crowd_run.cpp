// `crowd run` as a user drives it: outputs as in shared/spec/outputs.md, repeatable bytes
// whatever the thread count (bad input: test_bad_input.cpp).
#include "tests/cli/cli_runner.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace crowd::testing {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// Runs crossing.json (150 steps) at 1 and 2 threads with `options` and expects the same bytes.
void expect_same_trajectory_at_one_and_two_threads(const std::string& options) {
  TempDir dir;
  const auto one = dir / "one.csv";
  const auto two = dir / "two.csv";
  ASSERT_EQ(run_cli("run " + sample("crossing.json") + " --backend cpu --steps 150 --threads 1 " +
                    options + " --out " + one.string())
                .exit_code,
            0);
  ASSERT_EQ(run_cli("run " + sample("crossing.json") + " --backend cpu --steps 150 --threads 2 " +
                    options + " --out " + two.string())
                .exit_code,
            0);
  const std::string a = read_file(one);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == read_file(two)) << "trajectories differ between --threads 1 and --threads 2";
}

TEST(CrowdRun, TrajectoryBytesAreIdenticalWithOneAndTwoThreads) {
  expect_same_trajectory_at_one_and_two_threads("");
}

TEST(CrowdRun, TrajectoryBytesAreIdenticalWithOneAndTwoThreadsUnderEveryModel) {
  expect_same_trajectory_at_one_and_two_threads("--avoidance mass");
  expect_same_trajectory_at_one_and_two_threads("--avoidance orca");
  expect_same_trajectory_at_one_and_two_threads("--avoidance ttc");
}

TEST(CrowdRun, WritesTheTrajectoryCsvOfTheSpecEveryKSteps) {
  TempDir dir;
  const auto csv = dir / "t.csv";
  const CliResult r = run_cli("run " + sample("circle.json") +
                              " --backend cpu --steps 20 --every 5 --out " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto lines = lines_of(read_file(csv));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "step,time,agent,x,y,z,vx,vz");
  // Frames 0, 5, 10, 15, 20 with 100 agents each.
  EXPECT_EQ(lines.size(), 1u + 5u * 100u);
  std::set<int> steps;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const int step = std::stoi(lines[i].substr(0, lines[i].find(',')));
    steps.insert(step);
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), ','), 7) << lines[i];
  }
  EXPECT_EQ(steps, (std::set<int>{0, 5, 10, 15, 20}));
  EXPECT_EQ(lines[1].rfind("0,0,0,", 0), 0u)
      << "frame 0 starts with agent 0 at time 0: " << lines[1];
}

TEST(CrowdRun, MetricsHoldEveryKeyOfTheSpec) {
  TempDir dir;
  const auto path = dir / "m.json";
  const CliResult r = run_cli("run " + sample("circle.json") +
                              " --backend cpu --steps 30 --metrics " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json m = nlohmann::json::parse(read_file(path));
  for (const char* key :
       {"scenario", "backend", "agents", "steps", "dt", "arrived", "unreachable",
        "mean_arrival_time", "max_arrival_time", "overlap_events", "max_overlap", "wall_events",
        "max_wall_penetration", "mean_path_ratio", "step_ms_mean", "step_ms_p95", "stage_ms"})
    EXPECT_TRUE(m.contains(key)) << key;
  EXPECT_EQ(m["scenario"], "circle");
  EXPECT_EQ(m["agents"], 100);
  EXPECT_EQ(m["steps"], 30);
  EXPECT_TRUE(m["stage_ms"].is_object());
  EXPECT_TRUE(m["stage_ms"].contains("avoidance"));
  // The host's time outside the stages, then the observers' (metrics and the outputs written),
  // each its own entry after the pipeline's stages.
  std::vector<std::string> stages;
  const auto in_file_order = nlohmann::ordered_json::parse(read_file(path));
  for (const auto& [stage, ms] : in_file_order["stage_ms"].items()) {
    stages.push_back(stage);
    EXPECT_GE(ms.get<double>(), 0.0) << stage;
  }
  ASSERT_GE(stages.size(), 3u);
  EXPECT_EQ(stages[stages.size() - 2], "host");
  EXPECT_EQ(stages.back(), "observe");
  // Nobody crosses a 40 m circle in 3 s.
  EXPECT_TRUE(m["mean_arrival_time"].is_null());
  // The summary names the figures a user looks at first.
  for (const char* word : {"100 agents", "arrived", "overlaps", "wall contacts", "ms per step"})
    EXPECT_NE(r.output.find(word), std::string::npos) << word << "\n" << r.output;
}

TEST(CrowdRun, HelpExplainsEveryOption) {
  const CliResult top = run_cli("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("run"), std::string::npos);
  const CliResult run = run_cli("run --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* option :
       {"--backend", "--steps", "--threads", "--out", "--every", "--fps", "--metrics"})
    EXPECT_NE(run.output.find(option), std::string::npos) << option;
}

TEST(CrowdRun, CudaBackendWithoutADeviceIsAClearError) {
  TempDir dir;
  const CliResult r = run_cli("run " + sample("circle.json") + " --backend cuda --steps 1");
  if (r.exit_code == 0)
    GTEST_SKIP() << "a CUDA device is present: the cuda backend ran";
  EXPECT_NE(r.output.find("CUDA"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Segmentation"), std::string::npos);
}

// Bad input, every class of it: tests/cli/test_bad_input.cpp.

TEST(CrowdRun, UnreachableGoalIsReportedNotAnError) {
  TempDir dir;
  const auto file = dir / "island.json";
  // A wall splits the floor in two; the agent's goal is on the other side.
  std::ofstream(file) << R"({"steps": 100, "world": {"bounds": [[0, 0], [20, 10]],
    "obstacles": [[[9, -1], [11, -1], [11, 11], [9, 11]]]},
    "agents": [{"position": [2, 5], "goal": [18, 5]}]})";
  const auto metrics = dir / "m.json";
  const CliResult r =
      run_cli("run " + file.string() + " --backend cpu --metrics " + metrics.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json m = nlohmann::json::parse(read_file(metrics));
  EXPECT_EQ(m["unreachable"], 1);
  EXPECT_EQ(m["arrived"], 0);
}

} // namespace
} // namespace crowd::testing

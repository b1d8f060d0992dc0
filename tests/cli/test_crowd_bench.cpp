// `crowd bench` end to end: the smoke run CI does, and the errors of bad options.
#include "tests/cli/cli_runner.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace crowd {
namespace {

using testing::read_file;
using testing::run_cli;
using testing::TempDir;

/// The table rows: lines that start with an agent count (right-aligned) and a backend.
std::vector<std::string> table_rows(const std::string& output, int agents,
                                    const std::string& backend) {
  std::vector<std::string> rows;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first, second;
    words >> first >> second;
    if (first == std::to_string(agents) && second == backend)
      rows.push_back(line);
  }
  return rows;
}

TEST(CrowdBench, SmokeRunWritesEveryOutput) {
  TempDir dir;
  const auto json_path = dir / "bench.json";
  const auto png_path = dir / "bench.png";
  const auto scenes = dir / "scenes";
  const auto result = run_cli(
      "bench --agents 200,500 --steps 20 --backends cpu,detour,cuda --out " + json_path.string() +
      " --plot " + png_path.string() + " --write-scenes " + scenes.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;

  // The table: one row per (agents, backend); cuda ran or says why not.
  for (const int agents : {200, 500}) {
    for (const std::string backend : {"cpu", "detour", "cuda"}) {
      const auto rows = table_rows(result.output, agents, backend);
      ASSERT_EQ(rows.size(), 1u) << agents << " " << backend << "\n" << result.output;
      if (backend == "cuda" && rows[0].find("skipped: ") != std::string::npos)
        EXPECT_GT(rows[0].size(), rows[0].find("skipped: ") + 10) << rows[0];
      else
        EXPECT_EQ(rows[0].find("skipped"), std::string::npos) << rows[0];
    }
  }

  // The JSON: every figure of every run, finite; detour's speed-up is 1.
  const auto json = nlohmann::json::parse(read_file(json_path));
  EXPECT_EQ(json["steps"], 20);
  EXPECT_GE(json["machine"]["cores"].get<int>(), 1);
  EXPECT_GE(json["machine"]["threads"].get<int>(), 1);
  ASSERT_EQ(json["runs"].size(), 6u);
  for (const auto& run : json["runs"]) {
    SCOPED_TRACE(run.dump());
    if (run["status"] == "skipped") {
      EXPECT_EQ(run["backend"], "cuda");
      EXPECT_FALSE(run["reason"].get<std::string>().empty());
      continue;
    }
    ASSERT_EQ(run["status"], "ran");
    for (const char* key :
         {"setup_ms", "step_ms_mean", "step_ms_p95", "agent_steps", "agent_steps_per_second",
          "us_per_agent_step", "speedup_vs_detour", "host_bytes_per_agent", "arrived",
          "overlap_events", "wall_events", "max_overlap", "world_side_m", "navmesh_build_ms",
          "navmesh_tiles", "navmesh_bytes"}) {
      ASSERT_TRUE(run.contains(key)) << key;
      ASSERT_TRUE(run[key].is_number()) << key;
      EXPECT_TRUE(std::isfinite(run[key].get<double>())) << key;
      EXPECT_GE(run[key].get<double>(), 0.0) << key;
    }
    ASSERT_TRUE(run.contains("device_bytes_per_agent"));
    EXPECT_GT(run["step_ms_mean"].get<double>(), 0.0);
    EXPECT_GT(run["agent_steps"].get<double>(), 0.0);
    EXPECT_GT(run["host_bytes_per_agent"].get<double>(), 0.0);
    EXPECT_GT(run["navmesh_bytes"].get<double>(), 0.0);
    EXPECT_GE(run["navmesh_tiles"].get<double>(), 1.0);
    if (run["backend"] == "detour") {
      EXPECT_DOUBLE_EQ(run["speedup_vs_detour"].get<double>(), 1.0);
    }
    EXPECT_TRUE(run["stage_ms"].is_object());
  }

  // The plot: a PNG of a sane size.
  const std::string png = read_file(png_path);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(png.size(), 5'000u);
  EXPECT_LT(png.size(), 5'000'000u);

  // The scene files rerun with `crowd run`.
  for (const char* name : {"bench_200.json", "bench_500.json"}) {
    ASSERT_TRUE(std::filesystem::exists(scenes / name)) << name;
    const auto rerun = run_cli("run " + (scenes / name).string() + " --steps 5 --backend cpu");
    EXPECT_EQ(rerun.exit_code, 0) << rerun.output;
    EXPECT_NE(rerun.output.find("5 steps"), std::string::npos) << rerun.output;
  }
}

TEST(CrowdBench, DomainsReportTheSplitOfEveryRun) {
  TempDir dir;
  const auto json_path = dir / "bench.json";
  const auto result = run_cli("bench --agents 400 --steps 10 --backends cpu --domains 3 --out " +
                              json_path.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("as if split into 3 domains"), std::string::npos) << result.output;
  const auto json = nlohmann::json::parse(read_file(json_path));
  ASSERT_EQ(json["runs"].size(), 1u);
  const auto& domains = json["runs"][0]["domains"];
  ASSERT_TRUE(domains.is_object()) << json.dump();
  EXPECT_EQ(domains["domains"], 3);
  // 400 agents in three domains balanced by count: 133 or 134 each at the first step.
  EXPECT_NEAR(domains["mean_agents"].get<double>(), 400.0 / 3.0, 1.0);
  EXPECT_LE(domains["max_agents"].get<int>(), 147); // within the 10% before a new bisection
  EXPECT_GT(domains["halo_m"].get<double>(), 0.0);
  EXPECT_GE(domains["halo_fraction"].get<double>(), 0.0);

  // Without --domains, no such figures.
  const auto plain =
      run_cli("bench --agents 200 --steps 3 --backends cpu --out " + json_path.string());
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(plain.output.find("as if split"), std::string::npos);
  EXPECT_FALSE(nlohmann::json::parse(read_file(json_path))["runs"][0].contains("domains"));
}

TEST(CrowdBench, BadOptionsGiveOneMessageAndANonZeroExit) {
  const struct {
    const char* arguments;
    const char* message;
  } cases[] = {
      {"--backends cpu,gpu", "unknown backend 'gpu'"},
      {"--backends auto", "unknown backend 'auto'"},
      {"--agents 100,0", "--agents: every count must be >= 1, got 0"},
      {"--agents -5", "--agents"},
      {"--steps 0", "--steps: must be a whole number in [1, 2147483647], got '0'"},
      {"--threads -1", "--threads: must be a whole number in [0, 2147483647], got '-1'"},
      {"--domains -2", "--domains: must be a whole number in [0, 2147483647], got '-2'"},
      {"--domains 5000", "--domains must be in [0, 1024], got 5000"},
  };
  for (const auto& c : cases) {
    const auto result = run_cli(std::string("bench ") + c.arguments);
    EXPECT_NE(result.exit_code, 0) << c.arguments;
    EXPECT_NE(result.output.find(c.message), std::string::npos) << c.arguments << "\n"
                                                                << result.output;
    EXPECT_EQ(result.output.find("agents  backend"), std::string::npos) << c.arguments;
  }
}

} // namespace
} // namespace crowd

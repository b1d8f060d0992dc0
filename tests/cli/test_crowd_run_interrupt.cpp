// `crowd run` stopped with SIGTERM or SIGINT (Ctrl-C): it ends at the next step boundary,
// finishes every output with the frames written so far, says so, and exits 128 + signal.
#include "tests/cli/cli_runner.h"
#include "tests/support/usda_test_reader.h"

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace crowd::testing {
namespace {

/// The child's exit code; -1 if it did not exit on its own within `seconds` (then killed).
int wait_exit_code(pid_t pid, int seconds) {
  const std::optional<int> status = wait_for_child(pid, seconds);
  return status && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
}

void interrupt_run_and_check(int signal_number, int expected_exit, const char* signal_text) {
  TempDir dir;
  const auto csv = dir / "traj.csv";
  const auto metrics = dir / "metrics.json";
  const auto shot = dir / "shot.usda";
  const auto log = dir / "log.txt";
  // 2,000 agents for a million steps: it runs until stopped.
  const pid_t pid = start_cli({"run", sample("pillars.json"), "--backend", "cpu", "--threads", "1",
                               "--steps", "1000000", "--out", csv.string(), "--out", shot.string(),
                               "--metrics", metrics.string()},
                              log);
  ASSERT_GT(pid, 0);
  // Wait until a few frames (~90 kB each) have reached the temporary file.
  wait_for_temporary(csv, 300000, 120);
  ASSERT_GE(temporary_size(csv), 300000u) << read_file(log);
  ASSERT_EQ(::kill(pid, signal_number), 0);
  const int exit_code = wait_exit_code(pid, 120);
  const std::string output = read_file(log);
  ASSERT_EQ(exit_code, expected_exit) << output;

  // Every output is complete under its requested name; no temporaries are left.
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"log.txt", "metrics.json", "shot.usda", "traj.csv"}));

  const nlohmann::json m = nlohmann::json::parse(read_file(metrics));
  const int steps = m["steps"];
  EXPECT_GE(steps, 3);
  EXPECT_EQ(m["interrupted"], true);
  EXPECT_NE(output.find(std::string("interrupted by ") + signal_text + " at step " +
                        std::to_string(steps)),
            std::string::npos)
      << output;

  // The CSV: the spec's header, then whole frames 0..steps, each with a row for every agent
  // that is not removed (agents only ever leave), rows in agent order.
  std::istringstream in(read_file(csv));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "step,time,agent,x,y,z,vx,vz");
  std::map<int, std::vector<int>> agents_by_step;
  while (std::getline(in, line)) {
    ASSERT_EQ(std::count(line.begin(), line.end(), ','), 7) << "partial row: " << line;
    const auto c1 = line.find(','), c2 = line.find(',', c1 + 1), c3 = line.find(',', c2 + 1);
    agents_by_step[std::stoi(line.substr(0, c1))].push_back(
        std::stoi(line.substr(c2 + 1, c3 - c2 - 1)));
  }
  in.clear();
  ASSERT_EQ(agents_by_step.size(), static_cast<std::size_t>(steps) + 1);
  EXPECT_EQ(agents_by_step.begin()->first, 0);
  EXPECT_EQ(agents_by_step.rbegin()->first, steps);
  const int agents = m["agents"];
  EXPECT_EQ(agents_by_step[0].size(), static_cast<std::size_t>(agents));
  const auto before = agents_by_step.begin();
  for (auto it = std::next(before); it != agents_by_step.end(); ++it) {
    EXPECT_TRUE(std::is_sorted(it->second.begin(), it->second.end()));
    EXPECT_TRUE(std::includes(std::prev(it)->second.begin(), std::prev(it)->second.end(),
                              it->second.begin(), it->second.end()))
        << "step " << it->first << " has an agent the step before did not";
  }

  // The film shot covers the same time: frames 1001..1001 + floor(steps x 0.1 s x 24).
  const UsdaLayer layer = read_usda(shot.string());
  ASSERT_EQ(layer.error, "");
  const int frames = static_cast<int>(std::floor(steps * 0.1 * 24.0 + 1e-9)) + 1;
  EXPECT_EQ(layer.metadata.at("startTimeCode"), "1001");
  EXPECT_EQ(layer.metadata.at("endTimeCode"), std::to_string(1001 + frames - 1));
  EXPECT_EQ(layer.attributes.at("/Crowd/Agents.positions").by_code.size(),
            static_cast<std::size_t>(frames));
}

TEST(CrowdRunInterrupted, BySigtermKeepsWholeFramesAndExits143) {
  interrupt_run_and_check(SIGTERM, 143, "SIGTERM");
}

TEST(CrowdRunInterrupted, BySigintKeepsWholeFramesAndExits130) {
  interrupt_run_and_check(SIGINT, 130, "SIGINT");
}

} // namespace
} // namespace crowd::testing

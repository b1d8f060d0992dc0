// `crowd run` on the film-shot sample (docs/scenario-extensions.md): agents that enter late
// (start delays, emitters) are in the trajectories only from the frame they enter, under
// their scenario ids, and the bytes do not depend on the thread count.
#include "tests/cli/cli_runner.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace crowd::testing {
namespace {

struct Row {
  int step = 0;
  double vx = 0.0, vz = 0.0;
};

/// The rows of each agent id, in file order.
std::map<int, std::vector<Row>> rows_by_agent(const std::string& csv) {
  std::map<int, std::vector<Row>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) {
      cells.push_back(cell);
    }
    if (cells.size() != 8) {
      ADD_FAILURE() << "bad row: " << line;
      continue;
    }
    rows[std::stoi(cells[2])].push_back(
        {std::stoi(cells[0]), std::stod(cells[6]), std::stod(cells[7])});
  }
  return rows;
}

TEST(FilmShotRun, AgentsAppearFromTheFrameTheyEnterUnderTheirScenarioIds) {
  TempDir dir;
  const auto csv = dir / "shot.csv";
  const auto metrics = dir / "shot.json";
  const CliResult r = run_cli("run " + sample("film_shot.json") + " --backend cpu --out " +
                              csv.string() + " --metrics " + metrics.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = rows_by_agent(read_file(csv));

  // 1 hero, 12 commuters, 2 elderly, 7 joggers (0.5/s over 14 s), 12 office workers
  // (0.8/s over 15 s): every one enters within the 60 s shot.
  ASSERT_EQ(rows.size(), 34u);
  EXPECT_EQ(rows.begin()->first, 0);
  EXPECT_EQ(rows.rbegin()->first, 33);
  for (const auto& [agent, own] : rows) {
    // Present from its entry to its removal (or the end): one row per step, no gaps.
    for (std::size_t k = 1; k < own.size(); ++k) {
      ASSERT_EQ(own[k].step, own[k - 1].step + 1) << "agent " << agent;
    }
    // It enters standing.
    EXPECT_EQ(own.front().vx, 0.0) << "agent " << agent;
    EXPECT_EQ(own.front().vz, 0.0) << "agent " << agent;
  }
  EXPECT_EQ(rows.at(0).front().step, 10) << "the hero's start delay is 1 s";
  EXPECT_EQ(rows.at(13).front().step, 0) << "the elderly start at once";
  EXPECT_EQ(rows.at(15).front().step, 0) << "the first jogger is due at 0";
  EXPECT_GE(rows.at(16).front().step, 20) << "the second jogger is due at 2 s";
  EXPECT_GE(rows.at(22).front().step, 20) << "the south gate opens at 2 s";
  EXPECT_GE(rows.at(33).front().step, 158) << "the last office worker is due at 15.75 s";
  // Joggers and office workers leave the frame at their goals (on_arrival remove).
  EXPECT_LT(rows.at(15).back().step, 600);

  const nlohmann::json m = nlohmann::json::parse(read_file(metrics));
  EXPECT_EQ(m["agents"], 34);
  EXPECT_GE(m["arrived"].get<int>(), 30) << r.output;
  EXPECT_EQ(m["unreachable"], 0);
  EXPECT_EQ(m["wall_events"], 0);
  // Each type's agents are counted under its name.
  EXPECT_EQ(m["types"]["walker"]["agents"], 25);
  EXPECT_EQ(m["types"]["jogger"]["agents"], 7);
  EXPECT_EQ(m["types"]["elderly"]["agents"], 2);
}

TEST(FilmShotRun, TrajectoryBytesAreIdenticalWithOneAndTwoThreads) {
  TempDir dir;
  const auto one = dir / "one.csv";
  const auto two = dir / "two.csv";
  ASSERT_EQ(run_cli("run " + sample("film_shot.json") + " --backend cpu --threads 1 --out " +
                    one.string())
                .exit_code,
            0);
  ASSERT_EQ(run_cli("run " + sample("film_shot.json") + " --backend cpu --threads 2 --out " +
                    two.string())
                .exit_code,
            0);
  const std::string a = read_file(one);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == read_file(two)) << "trajectories differ between --threads 1 and --threads 2";
}

} // namespace
} // namespace crowd::testing

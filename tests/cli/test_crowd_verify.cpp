// `crowd verify` end to end: the fast suite's report is complete and well formed (not that
// every test passes: the README's table says which fail and why), the scenario files in
// samples/verify are the suite's, and bad options are refused.
#include "tests/cli/cli_runner.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace crowd {
namespace {

using testing::read_file;
using testing::run_cli;
using testing::TempDir;

const std::set<int> kTests{1, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16};

TEST(CrowdVerify, FastReportIsCompleteAndWellFormed) {
  TempDir dir;
  const auto report_path = dir / "report.json";
  const auto result = run_cli("verify --fast --backend cpu --out " + report_path.string());
  // 0: every test passed, 1: some failed; either way a full report.
  ASSERT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.output;
  const auto report = nlohmann::json::parse(read_file(report_path));
  EXPECT_EQ(report["backend"], "cpu");
  EXPECT_EQ(report["model"], "detour");
  EXPECT_EQ(report["fast"], true);
  std::set<int> seen;
  int passed = 0;
  for (const auto& test : report["tests"]) {
    const int id = test["id"].get<int>();
    EXPECT_TRUE(seen.insert(id).second) << id;
    EXPECT_FALSE(test["title"].get<std::string>().empty()) << id;
    EXPECT_FALSE(test["reference"].get<std::string>().empty()) << id;
    EXPECT_FALSE(test["criterion"].get<std::string>().empty()) << id;
    const std::string figure = test["figure"].get<std::string>();
    EXPECT_FALSE(figure.empty()) << id;
    EXPECT_EQ(figure.rfind("error:", 0), std::string::npos) << id << ": " << figure;
    const std::string verdict = test["verdict"].get<std::string>();
    EXPECT_TRUE(verdict == "PASS" || verdict == "FAIL") << id << ": " << verdict;
    passed += verdict == "PASS" ? 1 : 0;
    EXPECT_TRUE(test["values"].is_object() && !test["values"].empty()) << id;
    EXPECT_FALSE(test["scenarios"].empty()) << id;
    EXPECT_GE(test["seconds"].get<double>(), 0.0) << id;
    // One line per test on stdout with the same verdict and figure.
    const std::string line = "RiMEA " + std::string(id < 10 ? " " : "") + std::to_string(id) +
                             "  " + verdict + "  " + figure;
    EXPECT_NE(result.output.find(line), std::string::npos) << line << "\n" << result.output;
  }
  EXPECT_EQ(seen, kTests);
  EXPECT_EQ(report["passed"].get<int>(), passed);
  EXPECT_EQ(report["failed"].get<int>(), static_cast<int>(kTests.size()) - passed);
  EXPECT_EQ(result.exit_code, passed == static_cast<int>(kTests.size()) ? 0 : 1);
}

TEST(CrowdVerify, SampleScenariosAreTheSuites) {
  TempDir dir;
  const auto result = run_cli("verify --write-scenarios " + (dir / "verify").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::filesystem::path samples = std::filesystem::path(CROWD_SOURCE_DIR) / "samples/verify";
  std::set<std::string> written, committed;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "verify"))
    written.insert(entry.path().filename().string());
  for (const auto& entry : std::filesystem::directory_iterator(samples))
    if (entry.path().extension() == ".json")
      committed.insert(entry.path().filename().string());
  EXPECT_EQ(written, committed) << "regenerate with: crowd verify --write-scenarios samples/verify";
  for (const std::string& name : written)
    EXPECT_EQ(read_file(dir / "verify" / name), read_file(samples / name))
        << name << " differs; regenerate with: crowd verify --write-scenarios samples/verify";
}

TEST(CrowdVerify, RefusesUnknownModelsAndTests) {
  const auto model = run_cli("verify --model rvo");
  EXPECT_EQ(model.exit_code, 2);
  EXPECT_NE(model.output.find("error: --model: unknown avoidance model 'rvo' (the models are "
                              "'detour', 'ttc', 'mass' and 'orca')"),
            std::string::npos)
      << model.output;
  const auto mass = run_cli("verify --model mass --backend detour");
  EXPECT_EQ(mass.exit_code, 2);
  EXPECT_NE(mass.output.find("error: --model mass: the detour backend runs DetourCrowd's "
                             "sampling only"),
            std::string::npos)
      << mass.output;
  const auto only = run_cli("verify --only 1,2");
  EXPECT_EQ(only.exit_code, 2);
  EXPECT_NE(only.output.find("error: --only: there is no test 2 (the suite has 1, 4, 6, 7, 8, "
                             "9, 10, 11, 12, 13, 15, 16)"),
            std::string::npos)
      << only.output;
}

TEST(CrowdVerify, OnlyRunsTheTestsNamed) {
  TempDir dir;
  const auto report_path = dir / "report.json";
  const auto result = run_cli("verify --only 1 --backend detour --out " + report_path.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto report = nlohmann::json::parse(read_file(report_path));
  ASSERT_EQ(report["tests"].size(), 1u);
  EXPECT_EQ(report["tests"][0]["id"], 1);
  EXPECT_EQ(report["backend"], "detour");
}

TEST(CrowdVerify, RunsTheSuiteUnderAnotherAvoidanceModel) {
  // Test 6 (round a corner, no wall contact) under ORCA: its wall half-planes hold the agents off
  // the corner's walls.
  TempDir dir;
  const auto report_path = dir / "report.json";
  const auto result =
      run_cli("verify --only 6 --fast --backend cpu --model orca --out " + report_path.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto report = nlohmann::json::parse(read_file(report_path));
  EXPECT_EQ(report["model"], "orca");
  ASSERT_EQ(report["tests"].size(), 1u);
  EXPECT_EQ(report["tests"][0]["verdict"], "PASS") << report.dump(2);
}

} // namespace
} // namespace crowd

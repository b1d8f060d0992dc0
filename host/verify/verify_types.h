// What the verification suite (`crowd verify`, docs/verification.md) is made of: scenarios
// with the guideline text they come from, and each test's outcome as the report shows it.
#pragma once

#include "host/scenario/scenario.h"
#include "host/sim/simulation.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace crowd {

/// One scenario of a test, written out as samples/verify/<file_stem>.json.
struct VerifyScenario {
  std::string file_stem; ///< e.g. "rimea_01_corridor"
  Scenario scenario;
  std::string source; ///< The guideline passage it implements (the file's "source" key).
  std::string notes;  ///< How it was built from it (the file's "notes" key).
};

/// How a test came out.
struct TestOutcome {
  std::string figure; ///< The measured figure, one line: "30.1 s".
  bool passed = false;
  nlohmann::ordered_json values = nlohmann::ordered_json::object(); ///< Every number measured.
};

/// What a test needs from the suite while it runs its scenarios.
struct VerifyContext {
  SimulationOptions options; ///< Backend and solver settings of every run.
  bool fast = false;         ///< The reduced scenarios (CTest).
  /// Called after every step of every run: the scenario's file stem, steps done, steps at
  /// most, last step's milliseconds (progress output).
  std::function<void(const std::string&, int, int, double)> step_done;
};

/// One test of the suite.
struct VerifyTest {
  int id = 0;            ///< The guideline's test number.
  std::string title;     ///< "Maintaining the walking speed in a corridor"
  std::string reference; ///< Where its definition comes from.
  std::string criterion; ///< What the figure is held against: "26 s <= t <= 34 s".
  /// The scenarios it runs (the reduced ones when `fast`).
  std::function<std::vector<VerifyScenario>(bool fast)> scenarios;
  /// Runs them and measures.
  std::function<TestOutcome(const std::vector<VerifyScenario>&, const VerifyContext&)> run;
};

} // namespace crowd

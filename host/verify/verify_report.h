// The report of `crowd verify`: one line per test on the terminal, and the JSON file whose
// format docs/verification.md documents.
#pragma once

#include "host/verify/verify_types.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace crowd {

/// One test as it ran.
struct TestRecord {
  int id = 0;
  std::string title;
  std::string reference;
  std::string criterion;
  std::vector<std::string> scenarios; ///< File stems.
  TestOutcome outcome;
  std::string error;    ///< Set when a run threw: the test counts as failed.
  double seconds = 0.0; ///< Wall time of its runs.
};

/// What the whole run was.
struct ReportHeader {
  std::string backend;
  std::string model;
  bool fast = false;
  int threads = 0;
  double seconds = 0.0;
};

/// "PASS" or "FAIL".
std::string verdict(const TestRecord& record);

/// "RiMEA  4  FAIL  v = ... | criterion: ...".
std::string result_line(const TestRecord& record);

/// The report object (docs/verification.md, "Report").
nlohmann::ordered_json report_json(const ReportHeader& header,
                                   const std::vector<TestRecord>& records);

} // namespace crowd

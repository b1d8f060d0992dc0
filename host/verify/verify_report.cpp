#include "host/verify/verify_report.h"

#include <cstdio>

namespace crowd {

std::string verdict(const TestRecord& record) {
  return record.error.empty() && record.outcome.passed ? "PASS" : "FAIL";
}

std::string result_line(const TestRecord& record) {
  char head[32];
  std::snprintf(head, sizeof head, "RiMEA %2d  %s  ", record.id, verdict(record).c_str());
  const std::string figure =
      record.error.empty() ? record.outcome.figure : "error: " + record.error;
  return head + figure + "  | criterion: " + record.criterion;
}

nlohmann::ordered_json report_json(const ReportHeader& header,
                                   const std::vector<TestRecord>& records) {
  nlohmann::ordered_json report;
  report["suite"] = "RiMEA";
  report["guideline"] = "RiMEA 3.0 (Richtlinie fuer Mikroskopische Entfluchtungsanalysen); the "
                        "tests as defined in docs/verification.md";
  report["backend"] = header.backend;
  report["model"] = header.model;
  report["fast"] = header.fast;
  report["threads"] = header.threads;
  int passed = 0;
  nlohmann::ordered_json tests = nlohmann::ordered_json::array();
  for (const TestRecord& r : records) {
    nlohmann::ordered_json t;
    t["id"] = r.id;
    t["title"] = r.title;
    t["reference"] = r.reference;
    t["scenarios"] = r.scenarios;
    t["figure"] = r.error.empty() ? r.outcome.figure : "error: " + r.error;
    t["criterion"] = r.criterion;
    t["verdict"] = verdict(r);
    t["values"] = r.outcome.values;
    t["seconds"] = r.seconds;
    passed += verdict(r) == "PASS" ? 1 : 0;
    tests.push_back(std::move(t));
  }
  report["tests"] = std::move(tests);
  report["passed"] = passed;
  report["failed"] = static_cast<int>(records.size()) - passed;
  report["seconds"] = header.seconds;
  return report;
}

} // namespace crowd

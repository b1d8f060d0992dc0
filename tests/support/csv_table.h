// The CSV files crowd writes (trajectories, film frames), split into cells for tests: no
// quoting, as the writers never quote.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace crowd::testing {

struct CsvTable {
  std::string header;
  std::vector<std::vector<std::string>> rows; ///< Every line after the header, split at commas.
};

inline CsvTable split_csv(const std::string& text) {
  CsvTable table;
  std::istringstream in(text);
  std::getline(in, table.header);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string>& cells = table.rows.emplace_back();
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');)
      cells.push_back(cell);
  }
  return table;
}

} // namespace crowd::testing

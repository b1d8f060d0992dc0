// A progress bar on stderr for `crowd render`: redrawn in place on a terminal (at most ten
// times a second), a line per 10% otherwise (logs, CI).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace crowd {

class ProgressBar {
public:
  ProgressBar(std::string label, int total, std::FILE* out = stderr);
  void update(int done);
  void finish();

private:
  void print(int done);
  using Clock = std::chrono::steady_clock;
  std::string label_;
  int total_;
  std::FILE* out_;
  bool terminal_;
  int last_decile_ = -1;
  Clock::time_point start_, last_draw_;
};

} // namespace crowd

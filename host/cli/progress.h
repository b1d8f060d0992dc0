// Progress of a long run on stderr: silent for the first seconds, then a line about once a
// second (rewritten in place on a terminal).
#pragma once

#include <chrono>
#include <cstdio>

namespace crowd {

class ProgressReporter {
public:
  /// `silent`: report nothing at all (--quiet).
  ProgressReporter(int total_steps, std::FILE* out = stderr, double quiet_seconds = 2.0,
                   bool silent = false);
  /// Call after each step.
  void update(int steps_done, double last_step_ms);
  /// Ends the progress line, if one was shown.
  void finish();
  /// Call before printing a line of your own to the same stream: on a terminal, ends the
  /// progress line being rewritten in place, so the line does not land in the middle of it;
  /// the next update starts a new one below.
  void end_line() { finish(); }

private:
  using Clock = std::chrono::steady_clock;
  int total_;
  std::FILE* out_;
  double quiet_seconds_;
  bool silent_;
  bool terminal_;
  bool shown_ = false;
  Clock::time_point start_, last_print_;
};

} // namespace crowd

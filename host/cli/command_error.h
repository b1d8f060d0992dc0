// How every `crowd` subcommand ends on an error: one line on stderr and an exit code, the same
// for run, view and render.
#pragma once

#include <stdexcept>
#include <string>

namespace crowd {

/// A command line that cannot be used (options that contradict each other, an output name
/// with no known format): exit 2, like bad input files.
class UsageError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// A command's failure: its one line and its exit code.
struct CommandError {
  std::string message;
  int exit_code = 1;
  /// Writes the line on stderr; returns the exit code.
  int print() const;
};

/// Call inside a catch block: the exception being handled as report_command_error says it.
CommandError describe_command_error(const std::string& scenario);

/// Call inside a catch block. Prints the exception being handled as one line and returns the
/// exit code: 2 for bad input (a scenario, trajectory or checkpoint file; the message already
/// names the file and the place in it) and for a UsageError, 1 for any other failure
/// (prefixed with `scenario`).
int report_command_error(const std::string& scenario);

} // namespace crowd

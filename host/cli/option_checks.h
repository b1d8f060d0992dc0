// Validators of the command line's numbers (CLI11), each failing with one line that says what
// the option must be and what it got ("--fps: must be a number > 0, got 'abc'"): CLI11's own
// range checks print their limits in full, 309 digits for a double's maximum.
#pragma once

#include <CLI/CLI.hpp>

namespace crowd::cli {

/// A finite number > 0.
CLI::Validator positive_number();
/// A finite number >= 0.
CLI::Validator non_negative_number();
/// A whole number >= 1.
CLI::Validator positive_integer();
/// A whole number >= 0.
CLI::Validator non_negative_integer();
/// A whole number in [lo, hi].
CLI::Validator integer_in(long long lo, long long hi);

/// Parses the command line: returns the exit code to stop with (0 after --help; 2 after a
/// usage error, printed as one line naming the option and the problem), or -1 to go on.
int parse_command_line(CLI::App& app, int argc, char** argv);

} // namespace crowd::cli

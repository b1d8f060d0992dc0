// How every `crowd` subcommand ends on an error: one line on stderr and an exit code, the same
// for run, view and render.
#pragma once

#include <string>

namespace crowd {

/// Call inside a catch block. Prints the exception being handled as one line and returns the
/// exit code: 2 for bad input (a scenario, trajectory or checkpoint file; the message already
/// names the file and the place in it), 1 for any other failure (prefixed with `scenario`).
int report_command_error(const std::string& scenario);

} // namespace crowd

// The ranges of shared/spec/scenario.md's agent parameters, for parameters that do not come
// through the scenario reader (which checks each key where it reads it, with its JSON path):
// agents added through the library API.
#pragma once

#include "host/scenario/scenario.h"

#include <optional>
#include <string>

namespace crowd {

/// What is wrong with `params` ("radius must be a finite number > 0, got -1"), naming the
/// first offending parameter in the spec's order, or nothing when every value is in range.
std::optional<std::string> agent_params_problem(const AgentParams& params);

} // namespace crowd

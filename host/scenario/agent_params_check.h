// The limits of the agent parameters (host/scenario/param_table.h, the table the scenario
// reader checks each key against where it reads it, with its JSON path), for parameters that
// do not come through the reader: agents added or updated through the library API.
#pragma once

#include "host/scenario/scenario.h"

#include <optional>
#include <string>

namespace crowd {

/// What is wrong with `params` ("radius must be a number > 0, got -1"), naming the first
/// offending parameter: the numbers in the spec's order, then those of the avoidance model the
/// parameters name (its table's), then the rules; nothing when every value is allowed.
std::optional<std::string> agent_params_problem(const AgentParams& params);

} // namespace crowd

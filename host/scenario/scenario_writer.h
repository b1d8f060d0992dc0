// Writes a Scenario back as a scenario file (shared/spec/scenario.md, version 1), so that a
// scene made in code (for example by `crowd bench`) can be rerun with `crowd run`.
#pragma once

#include "host/scenario/scenario.h"

#include <string>
#include <utility>
#include <vector>

namespace crowd {

/// The scenario as JSON text that parse_scenario reads back to the same fields: name, seed,
/// dt, `steps` when set (else `duration`), the world (bounds and obstacles, or the mesh as an
/// absolute path) with every navmesh setting (the Recast settings beyond the original six only
/// where they differ from their defaults), `defaults` in full, and the agents and groups
/// with the parameters that differ from `defaults` (a group's distributions as
/// {"uniform": [a, b]}). An avoidance preset is written by name when its parameters are the
/// preset's, otherwise as an object. Numbers are written as the shortest decimal that reads
/// back to the same float. Arrays of numbers and points stay on one line. Of the scenario
/// extensions (docs/scenario-extensions.md) it writes `world.periodic` and `types` with the
/// agents' and groups' `type`; not waypoints, start delays or emitters.
std::string write_scenario_json(const Scenario& scenario);

/// The same, with annotations after "name": ("source", text), ("notes", text) or ("expect",
/// text), the keys the format reads and ignores.
std::string write_scenario_json(const Scenario& scenario,
                                const std::vector<std::pair<std::string, std::string>>& notes);

} // namespace crowd

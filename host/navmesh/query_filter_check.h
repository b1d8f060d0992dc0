// The limits of DetourCrowd's per-type query filters, checked in one place for every caller
// that takes one (the Crowd's API, the solver, the DetourCrowd backend, checkpoints): a filter
// type names one of kQueryFilterTypes (host/scenario/param_table.h's kQueryFilterTypeParam), and
// each area cost is a finite number >= 0, which Detour's A* needs for its costs to add up.
#pragma once

#include "host/scenario/param_table.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <string>

namespace crowd {

/// What is wrong with filter type `type` ("type must be an integer in [0, 15], got 16"), "" when
/// it names a filter.
inline std::string query_filter_type_problem(int type) {
  const std::string problem = kQueryFilterTypeParam.problem(type);
  return problem.empty() ? problem : "type " + problem;
}

/// What is wrong with query filter `filter` of type `type` (its type, or the first area cost
/// out of range: "the cost of area 5 must be a number >= 0, got -1"), "" when it may be used.
inline std::string query_filter_problem(int type, const dtQueryFilter& filter) {
  if (std::string problem = query_filter_type_problem(type); !problem.empty())
    return problem;
  for (int area = 0; area < DT_MAX_AREAS; ++area)
    if (std::string problem = param_problem(ParamKind::Real, kNonNegative, {},
                                            static_cast<double>(filter.getAreaCost(area)));
        !problem.empty())
      return "the cost of area " + std::to_string(area) + " " + problem;
  return "";
}

} // namespace crowd

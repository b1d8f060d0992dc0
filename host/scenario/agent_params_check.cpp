#include "host/scenario/agent_params_check.h"

#include "host/scenario/param_table.h"

namespace crowd {

namespace {

/// "name must be <expected>, got <value>" for an enumeration from the API, which may hold any
/// value of its underlying type.
template <class E>
std::string choice_problem(E value, E last, std::string_view name, std::string_view expected) {
  if (value <= last)
    return "";
  return std::string(name) + " must be " + std::string(expected) + ", got " +
         std::to_string(static_cast<int>(value));
}

/// The problem of the parameters of the avoidance model `a` names, from its table.
std::string avoidance_problem(const AvoidanceParams& a) {
  switch (a.model) {
  case kAvoidanceDetour:
    return first_param_problem<AvoidanceParams>(kSamplingParams, a, "avoidance.");
  case kAvoidanceMass:
    return first_param_problem<MassAvoidanceParams>(kMassParams, a.mass, "avoidance.");
  case kAvoidanceOrca:
    return first_param_problem<OrcaAvoidanceParams>(kOrcaParams, a.orca, "avoidance.");
  case kAvoidanceTtc:
    return first_param_problem<TtcAvoidanceParams>(kTtcParams, a.ttc, "avoidance.");
  default:
    return "avoidance.model must be kAvoidanceDetour, kAvoidanceTtc, kAvoidanceMass or "
           "kAvoidanceOrca, got " +
           std::to_string(a.model);
  }
}

} // namespace

std::optional<std::string> agent_params_problem(const AgentParams& p) {
  // The numbers in the spec's order, then the avoidance object, then the rules.
  for (const ParamSpec<AgentParams>& spec : kAgentNumberParams) {
    // collision_query_range is optional: unset, nothing to check.
    const double value = spec.real != nullptr
                             ? spec.value(p)
                             : static_cast<double>(p.collision_query_range.value_or(1.0f));
    if (std::string problem = spec.problem(value); !problem.empty())
      return std::string(spec.key) + " " + problem;
  }
  if (std::string problem = avoidance_problem(p.avoidance); !problem.empty())
    return problem;
  if (std::string problem = kQueryFilterTypeParam.problem(p.query_filter_type); !problem.empty())
    return "query_filter_type " + problem;
  for (std::string problem :
       {choice_problem(p.on_arrival, OnArrival::Remove, "on_arrival", "OnArrival::Stop or Remove"),
        choice_problem(p.arrival, ArrivalRule::Radius, "arrival", "ArrivalRule::Contact or Radius"),
        choice_problem(p.standoff, StandoffRule::Off, "standoff",
                       "StandoffRule::KeepRight, KeepLeft or Off")}) {
    if (!problem.empty())
      return problem;
  }
  return std::nullopt;
}

} // namespace crowd

// Every agent and avoidance parameter by name, with its unit and its limits: the one table the
// scenario reader (scenario_reader.cpp), the scenario writer (scenario_writer.cpp) and the
// library API's check (agent_params_check.cpp) all read, so that a limit is written once. The
// limits are shared/spec/scenario.md's and docs/scenario-extensions.md's.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "host/scenario/scenario.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace crowd {

/// The end of a Range that has none.
inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// An interval of allowed numbers, and the words a message uses for it.
struct Range {
  double lo = -kUnbounded, hi = kUnbounded;
  bool lo_open = false, hi_open = false;

  constexpr bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  }
  /// "a number > 0", "an integer in [1, 32]" (`noun` is "number" or "integer").
  std::string describe(std::string_view noun) const;
};

inline constexpr Range kFinite{};
inline constexpr Range kPositive{0.0, kUnbounded, true, false};
inline constexpr Range kNonNegative{0.0, kUnbounded, false, false};

/// A number as a message quotes it: whole numbers in full ("10000000"), NaN and infinities by
/// name.
std::string format_number(double value);

/// How a parameter is written in a scenario file.
enum class ParamKind : std::uint8_t {
  Real,  ///< A number in `range`.
  Whole, ///< An integer in `range`.
  Flag,  ///< true or false, stored as 1 or 0.
  Choice ///< One of a few words, stored as its index.
};

/// What is wrong with `value` as a parameter of `kind` and `range` (a Choice's words in
/// `choices`): "must be a number > 0, got -1", a Real's value quoted as the float it is stored
/// in; "" when it is allowed.
std::string param_problem(ParamKind kind, const Range& range,
                          std::span<const std::string_view> choices, double value);

/// One parameter of a P: its key in the scenario format, its unit ("" for a ratio, a weight, a
/// count or a choice), its kind and limits, and where a P keeps it (`real` for a Real,
/// `integer` for the others).
template <class P> struct ParamSpec {
  std::string_view key;
  std::string_view unit;
  ParamKind kind = ParamKind::Real;
  Range range;
  float P::*real = nullptr;
  std::int32_t P::*integer = nullptr;
  std::span<const std::string_view> choices; ///< A Choice's words, by value.

  /// The value a P holds, as a double (NaN for the spec without a member).
  double value(const P& params) const {
    if (kind == ParamKind::Real)
      return real != nullptr ? static_cast<double>(params.*real) : std::nan("");
    return static_cast<double>(params.*integer);
  }
  /// What is wrong with `value` ("must be a number > 0, got -1"), "" when it is allowed.
  std::string problem(double value) const { return param_problem(kind, range, choices, value); }
};

template <class P>
constexpr ParamSpec<P> real_param(std::string_view key, std::string_view unit, Range range,
                                  float P::*member) {
  return {key, unit, ParamKind::Real, range, member, nullptr, {}};
}
template <class P>
constexpr ParamSpec<P> whole_param(std::string_view key, std::int32_t lo, std::int32_t hi,
                                   std::int32_t P::*member) {
  return {key, "", ParamKind::Whole, Range{double(lo), double(hi)}, nullptr, member, {}};
}
template <class P>
constexpr ParamSpec<P> flag_param(std::string_view key, std::int32_t P::*member) {
  return {key, "", ParamKind::Flag, Range{0.0, 1.0}, nullptr, member, {}};
}
template <class P>
constexpr ParamSpec<P> choice_param(std::string_view key, std::span<const std::string_view> words,
                                    std::int32_t P::*member) {
  return {key,    "",   ParamKind::Choice, Range{0.0, double(words.size()) - 1.0}, nullptr,
          member, words};
}

// ---- Agents (shared/spec/scenario.md), in the spec's order. collision_query_range is optional
// (unset: 12 x radius), so a P does not hold it as a float: its spec has no member.

inline constexpr ParamSpec<AgentParams> kAgentNumberParams[] = {
    real_param<AgentParams>("radius", "m", kPositive, &AgentParams::radius),
    real_param<AgentParams>("max_speed", "m/s", kPositive, &AgentParams::max_speed),
    real_param<AgentParams>("max_accel", "m/s^2", kPositive, &AgentParams::max_accel),
    real_param<AgentParams>("separation_weight", "", kNonNegative, &AgentParams::separation_weight),
    real_param<AgentParams>("collision_query_range", "m", kPositive, nullptr),
    real_param<AgentParams>("arrival_radius", "m", kPositive, &AgentParams::arrival_radius),
};

/// DetourCrowd's queryFilterType: one of its DT_CROWD_MAX_QUERY_FILTER_TYPE (16) filters.
inline constexpr ParamSpec<AgentParams> kQueryFilterTypeParam = whole_param<AgentParams>(
    "query_filter_type", 0, kQueryFilterTypes - 1, &AgentParams::query_filter_type);

// ---- Avoidance models (docs/scenario-extensions.md), in the order their objects list them.

/// DetourCrowd's adaptive sampling (dtObstacleAvoidanceParams; "model": "detour").
inline constexpr ParamSpec<AvoidanceParams> kSamplingParams[] = {
    real_param<AvoidanceParams>("vel_bias", "", Range{0.0, 1.0}, &AvoidanceParams::vel_bias),
    real_param<AvoidanceParams>("weight_des_vel", "", kNonNegative,
                                &AvoidanceParams::weight_des_vel),
    real_param<AvoidanceParams>("weight_cur_vel", "", kNonNegative,
                                &AvoidanceParams::weight_cur_vel),
    real_param<AvoidanceParams>("weight_side", "", kNonNegative, &AvoidanceParams::weight_side),
    real_param<AvoidanceParams>("weight_toi", "", kNonNegative, &AvoidanceParams::weight_toi),
    real_param<AvoidanceParams>("horiz_time", "s", kPositive, &AvoidanceParams::horiz_time),
    whole_param<AvoidanceParams>("adaptive_divs", 1, kMaxPatternDivs,
                                 &AvoidanceParams::adaptive_divs),
    whole_param<AvoidanceParams>("adaptive_rings", 1, kMaxPatternRings,
                                 &AvoidanceParams::adaptive_rings),
    whole_param<AvoidanceParams>("adaptive_depth", 1, 16, &AvoidanceParams::adaptive_depth),
};

/// The force model ("model": "mass").
inline constexpr ParamSpec<MassAvoidanceParams> kMassParams[] = {
    real_param<MassAvoidanceParams>("separation_distance", "m", kPositive,
                                    &MassAvoidanceParams::separation_distance),
    real_param<MassAvoidanceParams>("separation_stiffness", "m/s", kNonNegative,
                                    &MassAvoidanceParams::separation_stiffness),
    real_param<MassAvoidanceParams>("predictive_time", "s", kPositive,
                                    &MassAvoidanceParams::predictive_time),
    real_param<MassAvoidanceParams>("predictive_distance", "m", kPositive,
                                    &MassAvoidanceParams::predictive_distance),
    real_param<MassAvoidanceParams>("predictive_stiffness", "m/s", kNonNegative,
                                    &MassAvoidanceParams::predictive_stiffness),
    real_param<MassAvoidanceParams>("standing_obstacle_scale", "", Range{0.0, 1.0},
                                    &MassAvoidanceParams::standing_obstacle_scale),
    real_param<MassAvoidanceParams>("wall_distance", "m", kPositive,
                                    &MassAvoidanceParams::wall_distance),
    real_param<MassAvoidanceParams>("wall_stiffness", "m/s", kNonNegative,
                                    &MassAvoidanceParams::wall_stiffness),
};

/// ORCA ("model": "orca").
inline constexpr ParamSpec<OrcaAvoidanceParams> kOrcaParams[] = {
    real_param<OrcaAvoidanceParams>("time_horizon", "s", kPositive,
                                    &OrcaAvoidanceParams::time_horizon),
    real_param<OrcaAvoidanceParams>("time_horizon_obstacles", "s", kPositive,
                                    &OrcaAvoidanceParams::time_horizon_obstacles),
};

/// The words of TtcAvoidanceParams::reference (TtcReference), by value.
inline constexpr std::string_view kTtcReferenceNames[] = {"shortcut", "corridor"};

/// Time-to-collision sampling ("model": "ttc").
inline constexpr ParamSpec<TtcAvoidanceParams> kTtcParams[] = {
    real_param<TtcAvoidanceParams>("collector_radius", "m", kPositive,
                                   &TtcAvoidanceParams::collector_radius),
    real_param<TtcAvoidanceParams>("collector_half_height", "m", kPositive,
                                   &TtcAvoidanceParams::collector_half_height),
    whole_param<TtcAvoidanceParams>("collector_frames_between_updates", 1, 1000,
                                    &TtcAvoidanceParams::collector_frames_between_updates),
    choice_param<TtcAvoidanceParams>("reference", kTtcReferenceNames,
                                     &TtcAvoidanceParams::reference),
    whole_param<TtcAvoidanceParams>("sample_count", 2, kMaxTtcDirections,
                                    &TtcAvoidanceParams::sample_count),
    real_param<TtcAvoidanceParams>("angle_span", "degrees", Range{0.0, 360.0, true, false},
                                   &TtcAvoidanceParams::angle_span),
    flag_param<TtcAvoidanceParams>("enable_slowing_down", &TtcAvoidanceParams::enable_slowing_down),
    flag_param<TtcAvoidanceParams>("enable_stop", &TtcAvoidanceParams::enable_stop),
    real_param<TtcAvoidanceParams>("safety_distance", "m", kNonNegative,
                                   &TtcAvoidanceParams::safety_distance),
    real_param<TtcAvoidanceParams>("time_horizon", "s", kPositive,
                                   &TtcAvoidanceParams::time_horizon),
    real_param<TtcAvoidanceParams>("time_to_collision_influence", "", kNonNegative,
                                   &TtcAvoidanceParams::time_to_collision_influence),
    real_param<TtcAvoidanceParams>("desired_velocity_influence", "", kNonNegative,
                                   &TtcAvoidanceParams::desired_velocity_influence),
    real_param<TtcAvoidanceParams>("previous_velocity_influence", "", kNonNegative,
                                   &TtcAvoidanceParams::previous_velocity_influence),
    real_param<TtcAvoidanceParams>("stop_collision_time", "s", kNonNegative,
                                   &TtcAvoidanceParams::stop_collision_time),
    real_param<TtcAvoidanceParams>("stop_wait_time", "s", kNonNegative,
                                   &TtcAvoidanceParams::stop_wait_time),
    flag_param<TtcAvoidanceParams>("enable_force_passage",
                                   &TtcAvoidanceParams::enable_force_passage),
    real_param<TtcAvoidanceParams>("wait_passage_time_limit", "s", kPositive,
                                   &TtcAvoidanceParams::wait_passage_time_limit),
    real_param<TtcAvoidanceParams>("force_passage_time_limit", "s", kPositive,
                                   &TtcAvoidanceParams::force_passage_time_limit),
};

// ---- Checks

/// The first parameter of `table` whose value in `params` is not allowed, as "<prefix><key>
/// <problem>" ("avoidance.time_horizon must be a number > 0, got -1"); "" when none.
template <class P>
std::string first_param_problem(std::span<const ParamSpec<P>> table, const P& params,
                                std::string_view prefix) {
  for (const ParamSpec<P>& spec : table) {
    const std::string problem = spec.problem(spec.value(params));
    if (!problem.empty())
      return std::string(prefix) + std::string(spec.key) + " " + problem;
  }
  return "";
}

} // namespace crowd

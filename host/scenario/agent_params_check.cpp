#include "host/scenario/agent_params_check.h"

#include <charconv>
#include <cmath>

namespace crowd {

namespace {

/// As stored (a float, or an int that a float holds exactly): -0.4f reads "-0.4".
std::string format(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
  return std::string(buffer, result.ptr);
}

/// "name must be <expected>, got <value>" when `ok` is false (NaN fails every comparison).
std::optional<std::string> require(bool ok, const char* name, const char* expected, double value) {
  if (ok && std::isfinite(value)) {
    return std::nullopt;
  }
  return std::string(name) + " must be " + expected + ", got " + format(value);
}

} // namespace

std::optional<std::string> agent_params_problem(const AgentParams& p) {
  const AvoidanceParams& a = p.avoidance;
  const float range = p.collision_query_range.value_or(1.0f);
  // The same ranges as the reader's (scenario_reader.cpp, read_params and read_avoidance).
  const std::optional<std::string> problems[] = {
      require(p.radius > 0.0f, "radius", "a finite number > 0", p.radius),
      require(p.max_speed > 0.0f, "max_speed", "a finite number > 0", p.max_speed),
      require(p.max_accel > 0.0f, "max_accel", "a finite number > 0", p.max_accel),
      require(a.vel_bias >= 0.0f && a.vel_bias <= 1.0f, "avoidance.vel_bias",
              "a finite number in [0, 1]", a.vel_bias),
      require(a.weight_des_vel >= 0.0f, "avoidance.weight_des_vel", "a finite number >= 0",
              a.weight_des_vel),
      require(a.weight_cur_vel >= 0.0f, "avoidance.weight_cur_vel", "a finite number >= 0",
              a.weight_cur_vel),
      require(a.weight_side >= 0.0f, "avoidance.weight_side", "a finite number >= 0",
              a.weight_side),
      require(a.weight_toi >= 0.0f, "avoidance.weight_toi", "a finite number >= 0", a.weight_toi),
      require(a.horiz_time > 0.0f, "avoidance.horiz_time", "a finite number > 0", a.horiz_time),
      require(a.adaptive_divs >= 1 && a.adaptive_divs <= kMaxPatternDivs, "avoidance.adaptive_divs",
              "an integer in [1, 32]", a.adaptive_divs),
      require(a.adaptive_rings >= 1 && a.adaptive_rings <= kMaxPatternRings,
              "avoidance.adaptive_rings", "an integer in [1, 4]", a.adaptive_rings),
      require(a.adaptive_depth >= 1 && a.adaptive_depth <= 16, "avoidance.adaptive_depth",
              "an integer in [1, 16]", a.adaptive_depth),
      require(p.separation_weight >= 0.0f, "separation_weight", "a finite number >= 0",
              p.separation_weight),
      require(range > 0.0f, "collision_query_range", "a finite number > 0", range),
      require(p.arrival_radius > 0.0f, "arrival_radius", "a finite number > 0", p.arrival_radius),
      // Enumerations from the API may hold any value of their underlying type.
      require(p.on_arrival <= OnArrival::Remove, "on_arrival", "OnArrival::Stop or Remove",
              static_cast<double>(p.on_arrival)),
      require(p.arrival <= ArrivalRule::Radius, "arrival", "ArrivalRule::Contact or Radius",
              static_cast<double>(p.arrival)),
      require(p.standoff <= StandoffRule::Off, "standoff",
              "StandoffRule::KeepRight, KeepLeft or Off", static_cast<double>(p.standoff)),
  };
  for (const std::optional<std::string>& problem : problems) {
    if (problem) {
      return problem;
    }
  }
  return std::nullopt;
}

} // namespace crowd

// Stage-by-stage comparison of two executors (the CUDA-vs-CPU tests): run a step's phases one
// at a time on both, read every array back after each, and say where they first part. This is
// how a device mismatch is narrowed down to one kernel and one array: the next mismatch
// starts here.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"

#include <cstddef>
#include <cstring>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace crowd::test {

namespace detail {

inline void print_value(std::ostream& out, float v) {
  out.precision(9);
  out << v;
}
inline void print_value(std::ostream& out, std::int32_t v) {
  out << v;
}
inline void print_value(std::ostream& out, std::uint8_t v) {
  out << static_cast<int>(v);
}
inline void print_value(std::ostream& out, const TtcState& s) {
  out.precision(9);
  out << "{colliders " << s.collider_count << ", refresh in " << s.frames_to_refresh << ", stop "
      << s.stop_time << ", blocked " << s.blocked_time << ", force " << s.force_time << "}";
}
template <int N, class T> void print_value(std::ostream& out, const glm::vec<N, T>& v) {
  out << "(";
  for (int k = 0; k < N; ++k) {
    if (k)
      out << ", ";
    print_value(out, v[k]);
  }
  out << ")";
}

/// One line when `a` and `b` differ in any bit ("" when equal): how many elements differ, and
/// the first with both values.
template <class T>
std::string bitwise_difference(const char* name, const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size())
    return std::string(name) + ": sizes " + std::to_string(a.size()) + " and " +
           std::to_string(b.size());
  std::size_t differing = 0, first = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0 && differing++ == 0)
      first = i;
  }
  if (differing == 0)
    return "";
  std::ostringstream out;
  out << name << ": " << differing << " of " << a.size() << " differ, first [" << first << "] ";
  print_value(out, a[first]);
  out << " vs ";
  print_value(out, b[first]);
  return out.str();
}

/// The used part of each agent's row (the first counts[i] of row_length entries), one after
/// another: what is past an agent's count is whatever an earlier step left there, which
/// nothing reads and the executors need not agree on.
template <class T>
std::vector<T> used_rows(const std::vector<T>& rows, const std::vector<std::int32_t>& counts,
                         int row_length) {
  std::vector<T> used;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const auto begin = i * static_cast<std::size_t>(row_length);
    for (std::int32_t k = 0; k < counts[i] && k < row_length; ++k) {
      if (begin + static_cast<std::size_t>(k) < rows.size())
        used.push_back(rows[begin + static_cast<std::size_t>(k)]);
    }
  }
  return used;
}

/// Adds bitwise_difference's line to `lines` when `a` and `b` differ.
template <class T>
void add_difference(std::vector<std::string>& lines, const char* name, const std::vector<T>& a,
                    const std::vector<T>& b) {
  std::string line = bitwise_difference(name, a, b);
  if (!line.empty())
    lines.push_back(std::move(line));
}

/// gtest: success when no line says a difference, else the lines.
inline ::testing::AssertionResult no_difference(const std::vector<std::string>& lines) {
  if (lines.empty())
    return ::testing::AssertionSuccess();
  ::testing::AssertionResult result = ::testing::AssertionFailure();
  for (const std::string& line : lines)
    result << "\n  " << line;
  return result;
}

} // namespace detail

/// Every array the kernel stages read or write that differs bit for bit between `a` and `b`,
/// one line each (empty when all are equal). Of the neighbour and segment rows only the used
/// entries count (detail::used_rows), after the counts themselves are compared.
inline std::vector<std::string> differing_arrays(const AgentArrays& a, const AgentArrays& b) {
  std::vector<std::string> lines;
  const auto check = [&](const char* name, const auto& x, const auto& y) {
    detail::add_difference(lines, name, x, y);
  };
  check("mode", a.mode, b.mode);
  check("position", a.position, b.position);
  check("velocity", a.velocity, b.velocity);
  check("desired_velocity", a.desired_velocity, b.desired_velocity);
  check("new_velocity", a.new_velocity, b.new_velocity);
  check("displacement", a.displacement, b.displacement);
  check("standoff_clock", a.standoff_clock, b.standoff_clock);
  check("standoff_partner", a.standoff_partner, b.standoff_partner);
  check("ttc_state", a.ttc_state, b.ttc_state);
  if (a.ttc_state == b.ttc_state) {
    std::vector<std::int32_t> colliders;
    for (const TtcState& state : a.ttc_state)
      colliders.push_back(state.collider_count);
    check("collider_index", detail::used_rows(a.collider_index, colliders, a.max_neighbors),
          detail::used_rows(b.collider_index, colliders, b.max_neighbors));
  }
  check("neighbor_count", a.neighbor_count, b.neighbor_count);
  check("segment_count", a.segment_count, b.segment_count);
  if (a.neighbor_count == b.neighbor_count) {
    const auto rows = [&](const auto& array, const AgentArrays& of) {
      return detail::used_rows(array, of.neighbor_count, of.max_neighbors);
    };
    check("neighbor_index", rows(a.neighbor_index, a), rows(b.neighbor_index, b));
    check("neighbor_distance_sq", rows(a.neighbor_distance_sq, a), rows(b.neighbor_distance_sq, b));
  }
  if (a.segment_count == b.segment_count)
    check("segment", detail::used_rows(a.segment, a.segment_count, a.max_segments),
          detail::used_rows(b.segment, b.segment_count, b.max_segments));
  check("status", a.status, b.status);
  return lines;
}

/// Every corridor array (AgentArrays::corridors: the rows as far as they are in use, the state
/// bytes, goals, validity findings and the rows asked about) and every steering array the
/// corridor phases write that differs bit for bit between `a` and `b`, one line each. Not the
/// bookkeeping of where the rows live (held, dirty).
inline std::vector<std::string> differing_corridors(const AgentArrays& a, const AgentArrays& b) {
  std::vector<std::string> lines;
  const auto check = [&](const char* name, const auto& x, const auto& y) {
    detail::add_difference(lines, name, x, y);
  };
  check("preferred_velocity", a.preferred_velocity, b.preferred_velocity);
  check("corridor_direction", a.corridor_direction, b.corridor_direction);
  const CorridorArrays &x = a.corridors, &y = b.corridors;
  check("corridor size", x.size, y.size);
  if (x.size == y.size)
    check("corridor polys", detail::used_rows(x.polys, x.size, x.capacity),
          detail::used_rows(y.polys, y.size, y.capacity));
  check("corridor position", x.position, y.position);
  check("corridor target", x.target, y.target);
  check("corner_count", x.corner_count, y.corner_count);
  if (x.corner_count == y.corner_count) {
    const auto corners = [&](const auto& column, const CorridorArrays& of) {
      return detail::used_rows(column, of.corner_count, of.corner_capacity);
    };
    check("corner_verts", corners(x.corner_verts, x), corners(y.corner_verts, y));
    check("corner_flags", corners(x.corner_flags, x), corners(y.corner_flags, y));
    check("corner_polys", corners(x.corner_polys, x), corners(y.corner_polys, y));
  }
  check("corridor state", x.state, y.state);
  check("corridor goal", x.goal, y.goal);
  check("corridor goal_point", x.goal_point, y.goal_point);
  check("corridor checks", x.checks, y.checks);
  check("corridors asked", x.asked, y.asked);
  return lines;
}

/// Every array of the agent grid that differs bit for bit, one line each.
inline std::vector<std::string> differing_grids(const AgentGridSnapshot& a,
                                                const AgentGridSnapshot& b) {
  std::vector<std::string> lines;
  detail::add_difference(lines, "grid keys", a.keys, b.keys);
  detail::add_difference(lines, "grid items", a.items, b.items);
  detail::add_difference(lines, "grid points", a.points, b.points);
  detail::add_difference(lines, "grid cell_start", a.cell_start, b.cell_start);
  return lines;
}

/// gtest: every array equal bit for bit, or the list of those that are not.
inline ::testing::AssertionResult bit_identical(const AgentArrays& expected,
                                                const AgentArrays& actual) {
  return detail::no_difference(differing_arrays(expected, actual));
}

/// gtest: every corridor array equal bit for bit (differing_corridors), or the list of those
/// that are not.
inline ::testing::AssertionResult corridors_bit_identical(const AgentArrays& expected,
                                                          const AgentArrays& actual) {
  return detail::no_difference(differing_corridors(expected, actual));
}

/// One phase of a step, as Executor::step runs them (collision passes one by one).
struct StepPhase {
  KernelStage stage;
  int pass = 0; ///< For KernelStage::Collisions: which pass.
};

/// The phases of one step with `params.collision_iterations` passes, in Executor::step's order.
inline std::vector<StepPhase> step_phases(const KernelStepParams& params) {
  std::vector<StepPhase> phases{{KernelStage::Grid},
                                {KernelStage::Proximity},
                                {KernelStage::Steering},
                                {KernelStage::Avoidance},
                                {KernelStage::Integrate}};
  for (int pass = 0; pass < params.collision_iterations; ++pass)
    phases.push_back({KernelStage::Collisions, pass});
  return phases;
}

inline std::string phase_name(const StepPhase& phase) {
  std::string name = stage_name(phase.stage);
  if (phase.stage == KernelStage::Collisions)
    name += " pass " + std::to_string(phase.pass);
  return name;
}

/// Runs one phase (between begin_step and end_step or read_back_everything).
inline void run_phase(Executor& executor, const StepPhase& phase) {
  switch (phase.stage) {
  case KernelStage::Grid:
    executor.build_grid();
    break;
  case KernelStage::Proximity:
    executor.find_proximity();
    break;
  case KernelStage::Steering:
    executor.steer();
    break;
  case KernelStage::Avoidance:
    executor.choose_velocities();
    break;
  case KernelStage::Integrate:
    executor.integrate();
    break;
  case KernelStage::Collisions:
    executor.resolve_collisions(phase.pass);
    break;
  case KernelStage::Upload:
  case KernelStage::Download:
    break;
  }
}

/// Runs one step's phases on both executors from copies of `inputs`, reading every array back
/// after each phase, and returns where they first part: the phase and the arrays that differ
/// (the agent grid's too, after the grid). Empty when the whole step is bit-identical.
inline std::string first_divergent_phase(Executor& reference, Executor& other,
                                         const AgentArrays& inputs,
                                         const KernelStepParams& params) {
  AgentArrays a = inputs;
  AgentArrays b = inputs;
  reference.begin_step(a, params, StepInputs::Everything);
  other.begin_step(b, params, StepInputs::Everything);
  for (const StepPhase& phase : step_phases(params)) {
    run_phase(reference, phase);
    run_phase(other, phase);
    reference.read_back_everything();
    other.read_back_everything();
    std::vector<std::string> lines = differing_arrays(a, b);
    if (phase.stage == KernelStage::Grid) {
      for (std::string& line : differing_grids(reference.agent_grid(), other.agent_grid()))
        lines.push_back(std::move(line));
    }
    if (!lines.empty()) {
      std::string report = "first difference after " + phase_name(phase) + ":";
      for (const std::string& line : lines)
        report += "\n  " + line;
      return report;
    }
  }
  StageTimes times;
  reference.end_step(times);
  other.end_step(times);
  return "";
}

} // namespace crowd::test

// The host copy of the per-agent kernel state (structure of arrays). The CPU executor works on
// it in place; the CUDA executor mirrors it on the device.
#pragma once

#include "cuda/core/corridor_arrays.h"
#include "cuda/kernels/agent_view.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace crowd {

struct AgentArrays {
  int max_neighbors = 6;
  int max_segments = 8;

  // Inputs.
  std::vector<std::uint8_t> mode;
  std::vector<float> radius, height, max_accel, query_range, separation_weight;
  std::vector<std::int32_t> avoidance_set;
  std::vector<std::uint8_t> standoff_side; ///< StandoffSide
  std::vector<AvoidanceParams> avoidance_params;
  /// pattern_rotation(avoidance_params[set]), derived: view() brings it up to date.
  std::vector<PatternRotation> pattern_rotation;
  std::vector<glm::vec2> preferred_velocity;
  std::vector<float> desired_speed;
  std::vector<glm::vec2> corridor_direction; ///< AgentView::corridor_direction
  // State.
  std::vector<glm::vec3> position;
  std::vector<glm::vec2> velocity, desired_velocity, new_velocity, displacement;
  std::vector<glm::vec2> standoff_clock;      ///< cuda/kernels/standoff.h
  std::vector<std::int32_t> standoff_partner; ///< cuda/kernels/standoff.h
  std::vector<TtcState> ttc_state;            ///< cuda/kernels/ttc_avoidance.h
  std::vector<std::int32_t> collider_index;   ///< [count * max_neighbors]
  // Proximity results.
  std::vector<std::int32_t> neighbor_index;
  std::vector<float> neighbor_distance_sq;
  std::vector<std::int32_t> neighbor_count;
  std::vector<glm::vec4> segment;
  std::vector<std::int32_t> segment_count;
  std::vector<std::uint8_t> status;
  /// Path corridors and their corners, a row per agent the corridor navigator registered
  /// (host/paths/corridor_navigator.h), which grows them and saves them in checkpoints
  /// (host/checkpoint/agent_arrays_archive.h saves the rest).
  CorridorArrays corridors;

  /// [count] the id of the agent in each row (AgentView::agent_id); empty where row i is agent
  /// i, as in every run today. reorder_rows fills it: the first step to a rank holding rows of
  /// its own agents and ghosts only (docs/distributed-model.md, "Memory per rank").
  std::vector<std::int32_t> agent_id;
  /// [count] the row of each agent id: agent_id's inverse, empty where agent_id is. The host's
  /// readers of the rows (the corridor navigator) keep their own state by id and go through it.
  std::vector<std::int32_t> agent_row;

  /// Incremented whenever an agent is added or removed or a parameter changes, so a device
  /// mirror knows to upload the per-agent inputs again.
  std::uint64_t layout_version = 0;

  int count() const { return static_cast<int>(mode.size()); }

  /// The id of the agent in `row`.
  std::int32_t id_of(int row) const {
    return agent_id.empty() ? row : agent_id[static_cast<std::size_t>(row)];
  }
  /// The row of agent `id`.
  int row_of(std::int32_t id) const {
    return agent_row.empty() ? id : agent_row[static_cast<std::size_t>(id)];
  }
  /// The rows of agents `ids`, in their order.
  std::vector<std::int32_t> rows_of(std::span<const std::int32_t> ids) const;
  /// As rows_of, without a copy where the rows are the ids (`ids` itself), else in `scratch`.
  std::span<const std::int32_t> rows_of(std::span<const std::int32_t> ids,
                                        std::vector<std::int32_t>& scratch) const;
  /// The ids of the agents in `rows`, in their order: `rows` itself where the rows are the ids,
  /// else in `scratch`.
  std::span<const std::int32_t> ids_of(std::span<const std::int32_t> rows,
                                       std::vector<std::int32_t>& scratch) const;
  /// `column` (one value per row) in agent id order: `column` itself where the rows are the
  /// ids, else in `scratch`.
  template <class T>
  std::span<const T> by_id(const std::vector<T>& column, std::vector<T>& scratch) const {
    if (agent_id.empty())
      return column;
    scratch.resize(column.size());
    for (std::size_t row = 0; row < column.size(); ++row)
      scratch[static_cast<std::size_t>(agent_id[row])] = column[row];
    return scratch;
  }

  /// Calls f(column, elements per row) for every per-row column but agent_id and agent_row
  /// (which may be empty) and the corridors: the one list that reserve, reorder_rows and
  /// memory_bytes walk.
  template <class F> void for_each_column(F&& f) { each_column(*this, f); }
  template <class F> void for_each_column(F&& f) const { each_column(*this, f); }

  /// Room for `agents` agents in all (and their corridor rows), so that appending them one by one
  /// does not grow the columns by doubling: a column so grown holds up to twice what its agents
  /// need (at 100,000 agents, room for 131,072), and, while it grows, the old block besides.
  void reserve(std::size_t agents);

  /// Moves the rows so that row r holds what row order[r] held (`order` a permutation of the
  /// rows), the fields that hold rows (neighbour, collider and standoff partner) following their
  /// agents, the corridor rows with them (CorridorArrays::reorder_rows: `asked` follows too), and
  /// agent_id saying whose each row is (agent_row where each agent is; both empty again when
  /// every agent is back in the row of its id). The kernel stages and the corridor phases then give
  /// every agent the same result, bit for bit, as in the rows before
  /// (tests/cuda/test_agent_rows.cpp). Throws std::invalid_argument when `order` is no permutation
  /// of the rows or the corridor rows are not one per agent (none is fine), std::logic_error when
  /// an executor holds corridor rows the host does not (CorridorArrays::held); the arrays are then
  /// as they were.
  void reorder_rows(const std::vector<std::int32_t>& order);

  /// Appends one agent with zero velocity and no standoff; returns its index (its row, and its
  /// id: the next one, as every row holds an agent).
  int append(const glm::vec3& pos, float agent_radius, float agent_height, float accel, float range,
             float separation, std::int32_t avoidance, std::uint8_t side = kStandoffOff);

  /// Index of `params` in avoidance_params, adding it when new.
  std::int32_t avoidance_set_of(const AvoidanceParams& params);

  /// Recomputes pattern_rotation from avoidance_params (a few sets: four cosf/sinf each).
  void update_pattern_rotation();

  /// A view of these arrays for the kernels (host pointers), after update_pattern_rotation.
  AgentView view();
  /// The same view with pattern_rotation as last computed: for bodies that sample no
  /// velocities (the corridor phases), which need not pay for the rotations.
  AgentView view_without_rotations();

  /// The corridor rows for the kernels (host pointers) over the tables `nav` they index; none
  /// when there are no tables or the rows are not one per agent.
  AgentCorridorsView corridor_rows(const NavmeshTablesView& nav) const;

  std::size_t memory_bytes() const;

private:
  template <class Self, class F> static void each_column(Self& a, F& f) {
    const int k = a.max_neighbors, s = a.max_segments;
    f(a.mode, 1), f(a.radius, 1), f(a.height, 1), f(a.max_accel, 1), f(a.query_range, 1);
    f(a.separation_weight, 1), f(a.avoidance_set, 1), f(a.standoff_side, 1);
    f(a.preferred_velocity, 1), f(a.desired_speed, 1), f(a.corridor_direction, 1);
    f(a.position, 1), f(a.velocity, 1), f(a.desired_velocity, 1), f(a.new_velocity, 1);
    f(a.displacement, 1), f(a.standoff_clock, 1), f(a.standoff_partner, 1), f(a.ttc_state, 1);
    f(a.collider_index, k), f(a.neighbor_index, k), f(a.neighbor_distance_sq, k);
    f(a.neighbor_count, 1), f(a.segment, s), f(a.segment_count, 1), f(a.status, 1);
  }
};

} // namespace crowd

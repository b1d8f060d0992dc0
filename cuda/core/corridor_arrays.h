// Each agent's path corridor and the corners of its straight path, as rows of the agent arrays
// (structure of arrays): what the corridor kernel bodies (cuda/kernels/corridor_*.h) read and
// write, one agent per thread. The rows are the corridors: the host turns a row into a
// dtPathCorridor only for Detour's own corridor operations (a new path, topology
// optimisation, trimming, and the queries the navmesh tables cannot answer) and back.
#pragma once

#include "cuda/core/row_order.h"
#include "cuda/kernels/corridor_following.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace crowd {

struct CorridorArrays {
  int capacity = 0;        ///< Polygons per row (SolverOptions::max_path_polys).
  int corner_capacity = 0; ///< Corners per row (SolverOptions::max_corners).

  /// [rows x capacity] dense polygon indices (cuda/kernels/navmesh_tables.h), the agent's own
  /// polygon first; size[i] of them in use, 0 for an agent on no polygon.
  std::vector<std::int32_t> polys;
  std::vector<std::int32_t> size;
  /// Where the corridor starts (dtPathCorridor::getPos): the agent's position as the last
  /// corridor move left it, which the next move starts from.
  std::vector<glm::vec3> position;
  std::vector<glm::vec3> target; ///< Where it ends (getTarget).

  /// [rows x corner_capacity] the corners of each corridor's straight path
  /// (cuda/kernels/corridor_corners.h), corner_count[i] of them.
  std::vector<glm::vec3> corner_verts;
  std::vector<std::uint8_t> corner_flags;
  std::vector<std::int32_t> corner_polys;
  std::vector<std::int32_t> corner_count;
  /// [rows] kCorridor* bits (cuda/kernels/corridor_following.h): what the host asks of the
  /// corridor phases, and what they ask back.
  std::vector<std::uint8_t> state;
  /// [rows] the dense index of the polygon of the agent's goal (-1 for none), set by the host
  /// with the goal, and what the validity look-ahead found (kCorridorStartInvalid, ...: the
  /// executors' check_corridors phase, cuda/kernels/corridor_validity.h).
  std::vector<std::int32_t> goal;
  std::vector<glm::vec3> goal_point; ///< [rows] where in it the agent heads, with the goal
  std::vector<std::uint8_t> checks;
  /// The rows whose kCorridorAsk* bits the last corridor phase set, ascending: all the host
  /// has to answer for, and all of the rows a device-resident executor downloads for it.
  std::vector<std::int32_t> asked;

  // Where the rows live. An executor may hold them in device memory between its phases (the
  // CUDA executor does); the host's copy of a row (polys, size, position, target, corners) is
  // then current only where `held` says so, and the host reads a row only after asking the
  // executor for it (Executor::fetch_corridor_rows), which downloads the rows not held. The
  // host marks what it writes (wrote()); the executor uploads those rows before its next
  // phase. The goals and the state bytes are the host's, uploaded whole: the goals when
  // goal_version changed, the state bytes before each phase that reads them. On the CPU
  // executor the host's rows are the rows: every row stays held.
  std::vector<std::uint8_t> held;  ///< [rows] the host's copy is current
  std::vector<std::uint8_t> dirty; ///< [rows] the host wrote it since the executor took it
  std::uint64_t goal_version = 0;  ///< Counts the host's writes of `goal`.

  /// The host wrote row i (after fetching it, or all of it): its copy is the current one.
  void wrote(int i) {
    held[static_cast<std::size_t>(i)] = 1;
    dirty[static_cast<std::size_t>(i)] = 1;
  }
  /// The host set agent i's goal: its polygon and the point in it.
  void set_goal(int i, std::int32_t polygon, const glm::vec3& point = glm::vec3(0.0f)) {
    goal[static_cast<std::size_t>(i)] = polygon;
    goal_point[static_cast<std::size_t>(i)] = point;
    ++goal_version;
  }

  int count() const { return static_cast<int>(size.size()); }

  /// Calls f(column, elements per row) for every per-row column: the one list that reserve,
  /// reorder_rows and memory_bytes walk (`asked` lists rows and is none).
  template <class F> void for_each_column(F&& f) { each_column(*this, f); }
  template <class F> void for_each_column(F&& f) const { each_column(*this, f); }

  /// Room for `rows` rows in all (AgentArrays::reserve). Takes the capacities as set.
  void reserve(std::size_t rows) {
    for_each_column([&](auto& column, int per_row) {
      column.reserve(rows * static_cast<std::size_t>(per_row));
    });
  }

  /// Whether the host holds every row (none is current only in an executor's device memory).
  bool all_held() const {
    return std::all_of(held.begin(), held.end(), [](std::uint8_t h) { return h != 0; });
  }

  /// Moves the rows as AgentArrays::reorder_rows moves the agents' (row r takes what row
  /// order[r] held; new_row[old row] says where each went, rows_after), `asked` naming the rows
  /// where its agents went, ascending again. Every row must be held (the host's copy current:
  /// Executor::fetch_corridor_rows first), and every row is then written, for an executor to
  /// take whole, and the goals too. AgentArrays::reorder_rows checks the order and calls this.
  void reorder_rows(const std::vector<std::int32_t>& order,
                    const std::vector<std::int32_t>& new_row) {
    for_each_column([&](auto& column, int per_row) { move_rows(column, per_row, order); });
    follow_rows(asked, new_row);
    std::sort(asked.begin(), asked.end());
    for (int i = 0; i < count(); ++i)
      wrote(i);
    ++goal_version;
  }

  /// Appends a row holding no polygon, at `pos`.
  void append(const glm::vec3& pos) {
    polys.resize(polys.size() + static_cast<std::size_t>(capacity), -1);
    size.push_back(0);
    position.push_back(pos);
    target.push_back(pos);
    corner_verts.resize(corner_verts.size() + static_cast<std::size_t>(corner_capacity),
                        glm::vec3(0.0f));
    corner_flags.resize(corner_flags.size() + static_cast<std::size_t>(corner_capacity), 0);
    corner_polys.resize(corner_polys.size() + static_cast<std::size_t>(corner_capacity), -1);
    corner_count.push_back(0);
    state.push_back(0);
    goal.push_back(-1);
    goal_point.push_back(pos);
    checks.push_back(0);
    held.push_back(1);
    dirty.push_back(1);
    ++goal_version;
  }

  std::int32_t* row(int i) { return polys.data() + static_cast<std::ptrdiff_t>(i) * capacity; }
  const std::int32_t* row(int i) const {
    return polys.data() + static_cast<std::ptrdiff_t>(i) * capacity;
  }
  /// Row i's first polygon (the agent's), -1 for an empty row.
  std::int32_t first_polygon(int i) const {
    return size[static_cast<std::size_t>(i)] > 0 ? row(i)[0] : -1;
  }

  /// The rows as the corridor phases' bodies read and write them (host pointers).
  CorridorView view() {
    CorridorView v;
    v.capacity = capacity;
    v.corner_capacity = corner_capacity;
    v.polys = polys.data();
    v.size = size.data();
    v.start = position.data();
    v.target = target.data();
    v.corner_verts = corner_verts.data();
    v.corner_flags = corner_flags.data();
    v.corner_polys = corner_polys.data();
    v.corner_count = corner_count.data();
    v.state = state.data();
    v.goal = goal.data();
    v.goal_point = goal_point.data();
    v.checks = checks.data();
    return v;
  }

  std::size_t memory_bytes() const {
    std::size_t bytes = asked.capacity() * sizeof(std::int32_t);
    for_each_column(
        [&](const auto& column, int) { bytes += column.capacity() * sizeof(column[0]); });
    return bytes;
  }

private:
  template <class Self, class F> static void each_column(Self& c, F& f) {
    const int polygons = c.capacity, corners = c.corner_capacity;
    f(c.polys, polygons), f(c.size, 1), f(c.position, 1), f(c.target, 1);
    f(c.corner_verts, corners), f(c.corner_flags, corners), f(c.corner_polys, corners);
    f(c.corner_count, 1), f(c.state, 1), f(c.goal, 1), f(c.goal_point, 1), f(c.checks, 1);
    f(c.held, 1), f(c.dirty, 1);
  }
};

} // namespace crowd

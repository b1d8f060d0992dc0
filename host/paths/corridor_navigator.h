// Stages 1-2 and 9 of a step on the host: path requests (shared path trees per goal polygon,
// host/paths/path_tree.h, and Detour A* where no tree reaches; budgeted per step), path
// corridors (dtPathCorridor), corners and the preferred velocity toward them; after the kernels,
// moving each corridor to the agent's new position, which keeps agents on the navmesh.
// This is the part of dtCrowd::update that uses navmesh queries (checkPathValidity,
// updateMoveRequest, updateTopologyOptimization, findCorners, steering, movePosition), run in
// parallel over agents with one dtNavMeshQuery per worker thread. Each agent's corridor is its
// row of the agent arrays (AgentArrays::corridors), followed by the corridor kernel bodies.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "cuda/core/solver_options.h"
#include "cuda/core/stage_timer.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/agent_target.h"

#include <DetourNavMesh.h>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <glm/glm.hpp>
#include <memory>
#include <oneapi/tbb/task_arena.h>
#include <optional>
#include <span>
#include <vector>

class dtQueryFilter;

namespace crowd {

class ArchiveWriter;
class PathTreePool;
class ArchiveReader;

/// Makes the host's copies of these agents' corridor rows current: Executor::fetch_corridor_rows
/// on the executor that runs the corridor phases.
using CorridorRowFetch = std::function<void(std::span<const std::int32_t>)>;
/// The first polygon of these agents' corridor rows (-1 for an empty row), without making the
/// rows current: Executor::fetch_corridor_starts on the executor that runs the corridor phases.
using CorridorStartFetch =
    std::function<void(std::span<const std::int32_t>, std::span<std::int32_t>)>;

class CorridorNavigator {
public:
  /// Works on `arrays` (which must outlive it): their corridor rows, positions, modes and the
  /// steering inputs it writes. It reads a row only after `fetch` made it current, and the
  /// path queue's start polygons through `fetch_starts` (both given rows); without them, the
  /// host's rows are taken to be the rows. Its calls name agents by id, and it keeps its own
  /// state by id: it finds an agent's row through AgentArrays::row_of, so the rows may be
  /// reordered between steps (AgentArrays::reorder_rows, every corridor row fetched first).
  CorridorNavigator(const NavMesh& navmesh, const SolverOptions& options, tbb::task_arena& arena,
                    AgentArrays& arrays, CorridorRowFetch fetch = {},
                    CorridorStartFetch fetch_starts = {});
  ~CorridorNavigator();
  CorridorNavigator(const CorridorNavigator&) = delete;
  CorridorNavigator& operator=(const CorridorNavigator&) = delete;

  /// Registers agent `index` (already appended to the arrays) and appends its corridor row:
  /// snaps its position onto the navmesh (written back to arrays.position) with query filter
  /// `filter_type`. Returns false when no navmesh is near.
  bool add_agent(int index, float max_speed, int filter_type = 0);
  /// A new goal: queues a path search.
  void set_target(int index, const glm::vec3& goal);
  /// No goal any more: the agent stands.
  void clear_target(int index);
  /// A velocity instead of a goal (dtCrowd::requestMoveVelocity): from the next step the
  /// agent's preferred velocity is (velocity.x, velocity.z) and its desired speed the length of
  /// `velocity` (m/s), whatever its speed limit; avoidance, collisions and the navmesh bound its
  /// moves as anyone's, and its corridor shrinks to the polygon it stands on after each move.
  void set_velocity(int index, const glm::vec3& velocity);
  /// The speed agent `index` walks its corridor at from the next step, m/s.
  void set_max_speed(int index, float max_speed);
  /// Which of the query filters agent `index`'s searches and corridor moves use from now on
  /// (DetourCrowd's dtCrowdAgentParams::queryFilterType), 0 to kQueryFilterTypes - 1.
  void set_filter_type(int index, int filter_type);
  /// Query filter `type` (DetourCrowd's getEditableFilter): the polygons its agents may enter
  /// (include and exclude flags) and what each area costs their searches. All of them start as
  /// the navmesh's filter (NavMesh::filter), which the navmesh tables are built with. Agents of
  /// a filter that lets through other polygons are followed by Detour on the host (their
  /// corners, shortcuts, moves and validity checks, kCorridorOwnFilter); a filter with other
  /// area costs searches by Detour's A* instead of the shared path trees and tile routes.
  void set_query_filter(int type, const dtQueryFilter& filter);
  const dtQueryFilter& query_filter(int type) const;
  /// Moves the goal of agent `index`, which follows a corridor (TargetState::Valid), to
  /// `target` without a search: the corridor's end moves along the navmesh surface
  /// (dtPathCorridor::moveTargetPosition), as for a target that moves a little each step.
  /// Returns whether the end reached `target` (within 1 cm); where a wall stopped it, or the
  /// agent has no corridor yet, the caller plans a path instead (set_target).
  bool move_target(int index, const glm::vec3& target);
  /// Puts agent `index` at the navmesh point nearest `position` (written to arrays.position):
  /// its corridor starts there, and an agent with a goal queues a new path search to it.
  /// Returns false, leaving the agent where it was, when no navmesh is near.
  bool move_agent(int index, const glm::vec3& position);

  /// The navmesh's tiles changed (NavMesh::update_obstacles): the tables are built again (the
  /// caller hands the executor tables() again), the cached path trees dropped, and every
  /// corridor kept up to the first polygon that is gone; those agents plan again, and an agent
  /// standing where the navmesh is gone moves to its nearest point.
  void navmesh_changed();
  /// The path trees a step builds split with other processes from now on (AgentShare's jobs;
  /// an MPI run's ranks), which must outlive the navigator; null: all built here.
  void set_agent_share(AgentShare* share);
  /// Before the kernels: validity checks, budgeted path searches, topology optimisation, and
  /// each agent's mode, desired speed and corridor state bits for the executor's corridor phases
  /// (cuda/kernels/corridor_following.h), which find the corners and the preferred velocity.
  void plan(float dt, StageTimes& times);
  /// After the executor's follow_corridors: corners, shortcuts and preferred velocities by
  /// Detour for the agents it flagged.
  void answer_following();
  /// After the executor's move_corridors: the corridor moves by Detour for the agents it
  /// flagged, their corrections added to `corrections`.
  void answer_moves(NavmeshCorrections& corrections);
  /// After the step: moves the agents crossing an off-mesh link along it by dt seconds (into
  /// arrays.position), as dtCrowd::update does; an agent at the end of its link walks on from
  /// the next step. plan() takes the links first, for agents whose last corners the host found
  /// (answer_following) end at a link's start within 2.25 radii.
  void advance_links(float dt);
  /// Links the last plan() took.
  int links_taken() const;
  /// Per agent: 1 while it crosses an off-mesh link.
  std::span<const std::uint8_t> on_links() const;
  /// The navmesh tables the corridor phases read (built once with the navigator).
  const NavmeshTablesView& tables() const;
  /// The cached path trees as the corridor phases read them, to top up the corridors of the
  /// agents plan() marked kCorridorFromTree (refreshed by plan() when the cache changed).
  const PathTreePool& path_trees() const;

  TargetState target_state(int index) const;
  /// Path searches waiting for their turn.
  std::size_t pending_path_requests() const;
  /// Searches run so far: path trees built plus A* searches (agents served from a cached tree
  /// cost none).
  std::size_t path_searches() const;
  /// Path requests answered so far, each from a tree or by A*: the host's path work, which an
  /// agent topped up from its tree (kCorridorFromTree) does not add to.
  std::size_t path_requests_served() const;
  /// The polygons of agent `index`'s corridor, its own polygon first.
  std::vector<dtPolyRef> corridor(int index) const;
  /// The corners of agent `index`'s straight path as the last step's corridor following found
  /// them (none for an agent that follows no corridor).
  std::vector<PathCorner> corners(int index) const;
  std::size_t memory_bytes() const;
  /// The part of memory_bytes() in tables of the whole navmesh (polygon graph, portals,
  /// polygon outlines).
  std::size_t navmesh_table_bytes() const;

  /// Checkpoints (host/checkpoint/archive.h): every agent's corridor and request state, the
  /// path search queue, and which goal polygons have a cached path tree (rebuilt on restore:
  /// a tree depends only on its goal polygon, and whether one is cached decides what a
  /// request costs of the budget). restore() adds the agents the checkpoint has beyond those
  /// registered.
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

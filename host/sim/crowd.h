// The crowd for a program that owns its navmesh and its frame loop, as it would use
// DetourCrowd's dtCrowd: built on the caller's dtNavMesh (tiled or not), agents added with
// their parameters, sent to targets, and advanced by the caller's dt. It is the engine: one
// backend (our CrowdSolver, corridors and the kernel stages on the CPU or CUDA executor, or
// DetourCrowd itself) on a navmesh, with targets, followers and obstacles, and no scenarios,
// outputs or metrics. A Simulation is a Crowd with a scenario's schedule, outputs and metrics
// around it.
//
//   crowd::Crowd crowd(my_navmesh);                   // const dtNavMesh&, kept by the caller
//   int id = crowd.add_agent({1, 0, 2});
//   crowd.request_move_target(id, {20, 0, 8});
//   while (running) crowd.update(frame_dt);
//   glm::vec3 p = crowd.position(id);
#pragma once

#include "cuda/core/solver_options.h"
#include "host/backends/backend_kind.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/scenario.h"
#include "host/sim/api_error.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <vector>

class dtNavMesh;
class dtTileCache;

namespace crowd {

class ArchiveWriter;
class ArchiveReader;
class AgentShare;
class Simulation;

struct CrowdOptions {
  /// Which engine runs the crowd: Auto takes our solver on the CUDA executor when this build
  /// has it and a device is present, else on the CPU executor over solver.threads threads (0:
  /// all cores); Detour runs DetourCrowd itself, to compare with through the same calls.
  BackendKind backend = BackendKind::Auto;
  SolverOptions solver;
  /// Moving targets (request_move_target again and again, request_follow): a target that moved
  /// more than target_replan_distance (m, > 0) since its path was planned gets a new path
  /// search, at most once per target_replan_delay (s, >= 0; DetourCrowd's replan interval is
  /// 1 s). In between, the corridor's end moves along the navmesh with the target, no search.
  float target_replan_distance = 1.0f;
  float target_replan_delay = 1.0f;
  /// The detour backend only, fixed at dtCrowd::init as DetourCrowd cannot grow: at most
  /// max_agents agents at once (1 to 16383, its proximity grid's 16-bit limit), and the radius
  /// (m, >= 0) its placement and neighbour grid are sized for, 0 for the navmesh's agent radius.
  int max_agents = 1024;
  float max_agent_radius = 0.0f;
  /// The device of the cuda backend, modulo the device count (an MPI rank's local rank, so that
  /// the ranks of a node share its GPUs); < 0: the current device (the first, unless the
  /// application chose another).
  int cuda_device = -1;
  /// The kernel stages split with other processes (cuda/core/agent_share.h; an MPI run's,
  /// host/distributed), which must outlive the crowd; null: this process computes every agent.
  /// The cpu and cuda backends. Positions, velocities and every other reading of the crowd are
  /// those of one process, but desired_velocity() and the debug views, which read what the split
  /// stages keep with the agent's owner, are current only for the agents this process owns (and its
  /// ghosts) until AgentShare::gather_everything().
  AgentShare* agent_share = nullptr;
};

/// Where an agent stands with its target (dtCrowdAgent::targetState).
enum class CrowdTargetState {
  None,       ///< No target: it stands (reset_move_target, or just added).
  Requesting, ///< Its path search is queued.
  Valid,      ///< It follows its corridor toward the target.
  Failed,     ///< No path from where it stands; it waits for a new target.
  Velocity,   ///< It moves at the velocity of request_move_velocity, no path.
};

/// A corner of an agent's straight path toward its target (dtCrowdAgent::cornerVerts), as its
/// last update's corridor following found it: where it steers next.
struct CrowdCorner {
  glm::vec3 position{0.0f};
  bool is_target = false;   ///< The path ends here: the target (DT_STRAIGHTPATH_END).
  bool enters_link = false; ///< An off-mesh link starts here (DT_STRAIGHTPATH_OFFMESH_CONNECTION).
};

class Crowd {
public:
  /// A crowd on `navmesh`, which must outlive it and change only between updates, told with
  /// navmesh_changed(). Throws
  /// ApiError when the navmesh has no polygon, when options ask for the CUDA backend in a
  /// build without it or on a machine without a device, or for solver options, a replan
  /// distance, a delay or a detour capacity out of range.
  explicit Crowd(const dtNavMesh& navmesh, const CrowdOptions& options = {});
  /// A crowd on a navmesh this library built (NavMesh::build, from a scenario's world or your
  /// own geometry), which it keeps. A dynamic one (NavmeshBuildSettings::dynamic) takes
  /// obstacles as a crowd on a tile cache does. Throws ApiError as above.
  explicit Crowd(NavMesh navmesh, const CrowdOptions& options = {});
  /// A crowd on `navmesh` and the DetourTileCache that builds its tiles (as RecastDemo's
  /// Sample_TempObstacles sets them up), for dynamic obstacles: add_obstacle, move_obstacle and
  /// remove_obstacle. Both must outlive it.
  Crowd(dtNavMesh& navmesh, dtTileCache& tile_cache, const CrowdOptions& options = {});
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) noexcept;
  ~Crowd();

  /// Adds an agent at the navmesh point nearest to `position` (within its query extents),
  /// standing without a target; returns its id (the number of agents added before it; ids are
  /// never reused). Throws ApiError for a non-finite position, parameters out of their ranges
  /// (host/scenario/param_table.h, the scenario format's) or no navmesh near.
  int add_agent(const glm::vec3& position, const AgentParams& params = {});
  /// Adds an agent as a scenario places it (host/scenario/population.h): at setup.position,
  /// already on the navmesh, heading for setup.goal from the next update, with setup.params;
  /// add_agent and request_path in one call, nothing projected again. Returns its id. Throws
  /// ApiError for a non-finite position or goal, parameters out of range, or no navmesh near
  /// the position (naming setup.json_path), the crowd unchanged.
  int add_agent(const AgentSetup& setup);
  /// Room for `agents` agents in all, for a caller that knows how many it will add (a scenario's
  /// run, host/sim/simulation.h): adding them then grows none of the per-agent arrays by
  /// doubling, which holds up to twice their need. Changes nothing else.
  void reserve_agents(std::size_t agents);
  /// Takes the agent out: it no longer moves or obstructs. Its id stays taken.
  void remove_agent(int id);
  /// Sends the agent to the navmesh point nearest `target` within its query extents; its path
  /// is searched on a later update, within the per-step budget. Called again as the target
  /// moves, the corridor's end follows it without a search, and the path is searched again
  /// only as CrowdOptions::target_replan_distance and _delay say. Ends a request_follow. Throws
  /// ApiError for an unknown or removed agent, a non-finite target or no navmesh near it.
  void request_move_target(int id, const glm::vec3& target);
  /// Sends the agent to `target` with a new path search from where it stands, as DetourCrowd's
  /// requestMoveTarget does, whatever request_move_target's replan rules would say, and without
  /// projecting the target first (the search heads for the navmesh point nearest it): for a
  /// target that jumped, such as a scenario's next waypoint, or an agent that is stuck. Ends a
  /// request_follow. Throws ApiError for an unknown or removed agent or a non-finite target.
  void request_path(int id, const glm::vec3& target);
  /// Moves the end of the agent's path to `target` without a search, along the navmesh from its
  /// old end (dtPathCorridor::moveTargetPosition); returns whether the path ends there now.
  /// False where it could not (no path yet, a wall between, the detour backend): request_path
  /// then. request_move_target does this by its own replan rules; this is for a caller with
  /// rules of its own. Throws ApiError for an unknown or removed agent or a non-finite target.
  bool adjust_move_target(int id, const glm::vec3& target);
  /// Puts the agent at the navmesh point nearest `position` between two updates, keeping its
  /// velocity and its target; a walking agent's path is searched again from there. Periodic
  /// worlds move agents across their seam this way. Throws ApiError for an unknown or removed
  /// agent or a non-finite position.
  void move_agent(int id, const glm::vec3& position);
  /// Makes the agent move at `velocity` ((vx, vy, vz), m/s) instead of toward a target, as
  /// dtCrowd::requestMoveVelocity: its desired speed is the velocity's length, whatever its
  /// max_speed; avoidance, collisions and the navmesh's edges bound its moves as anyone's. Ends
  /// a target or a request_follow; request_move_target or reset_move_target ends it. Throws
  /// ApiError for an unknown or removed agent or a non-finite velocity.
  void request_move_velocity(int id, const glm::vec3& velocity);
  /// Makes agent `id` follow agent `leader`: its target is the leader's position plus `offset`
  /// (m, world axes), moved with the leader every update as request_move_target moves a target.
  /// It arrives and stands when the leader stands. Ends when a request_move_target or
  /// reset_move_target replaces it, or the leader is removed (the follower then stands). Throws
  /// ApiError for an unknown or removed agent or leader, a leader that is the agent itself, or a
  /// non-finite offset.
  void request_follow(int id, int leader, const glm::vec3& offset);
  /// The agent's parameters from the next update on (dtCrowd::updateAgentParameters): radius,
  /// speed, acceleration, query range, separation, avoidance, standoff rule and query filter
  /// type; its target stays. Throws ApiError for an unknown or removed agent or parameters out of
  /// range.
  void update_agent_parameters(int id, const AgentParams& params);
  /// The parameters the agent was added or last updated with.
  AgentParams agent_parameters(int id) const;
  /// Drops the agent's target: it slows to a stop where it is and stays an obstacle.
  void reset_move_target(int id);

  /// Query filter `type` (0 to 15), for the agents whose AgentParams::query_filter_type is
  /// `type`, from the next update on (DetourCrowd's getEditableFilter): which polygons their
  /// path searches, corridor moves and placements may enter (the include and exclude flags
  /// against each polygon's flags) and what crossing each area costs their searches. Every
  /// type starts as the navmesh's filter (every flag, unit costs). Agents whose filter lets
  /// through other polygons than that one are followed by Detour on the host, and agents
  /// whose filter has other costs search alone (no shared path trees or tile routes): both
  /// cost more per agent. A corridor already planned is kept while its polygons still pass.
  /// Throws ApiError for a type out of range or an area cost that is negative or not finite.
  void set_query_filter(int type, const dtQueryFilter& filter);
  const dtQueryFilter& query_filter(int type) const;

  /// Puts an obstacle down (a crowd built with a tile cache): a cylinder or a box turned about
  /// the vertical, standing at `obstacle.position` (its foot's centre). The navmesh keeps the
  /// agent radius of its tiles (dtMeshHeader::walkableRadius) from it, as from walls, from the
  /// next update: the tiles it touches are rebuilt, the corridors that ran through them are cut
  /// there and planned again, and agents standing where it now is step out to the nearest
  /// navmesh point. Returns its id (0, 1, ...). Throws ApiError, the crowd unchanged, without a
  /// tile cache, for a size that is not positive or a position that is not finite, for an
  /// obstacle over more tiles than DetourTileCache rebuilds for one (8), or when the tile
  /// cache's obstacles are all taken.
  int add_obstacle(const NavObstacle& obstacle);
  /// Moves obstacle `obstacle` to `position`, turned by `yaw` (radians; a box's), from the
  /// next update. Throws ApiError, the crowd unchanged, for an id that names no standing
  /// obstacle or a place add_obstacle would refuse.
  void move_obstacle(int obstacle, const glm::vec3& position, float yaw = 0.0f);
  /// Takes obstacle `obstacle` away at the next update. Throws ApiError for an id that names
  /// no standing obstacle.
  void remove_obstacle(int obstacle);
  /// The caller changed the navmesh's tiles itself (its own dtTileCache::update, or
  /// dtNavMesh::removeTile and addTile) since the last update: what the crowd derived from them
  /// is built again, and its agents' corridors are kept up to the first polygon that is gone
  /// and planned again from there.
  void navmesh_changed();
  /// Rebuilds now the tiles that the obstacle calls since the last update touch, and has the
  /// agents follow, as update() does first; returns whether a tile changed. For a caller that
  /// reads the navmesh or moves targets between its obstacle calls and the next update.
  bool update_obstacles();
  /// Advances every agent by dt seconds (0 < dt <= 1), followers' targets first. Throws
  /// ApiError otherwise.
  void update(float dt);

  /// The options the crowd was made with.
  const CrowdOptions& options() const;
  /// Ids handed out so far (removed agents included).
  int agent_count() const;
  /// Whether agent `id` was added and not removed.
  bool is_active(int id) const;
  /// The agent's position (m) and velocity ((vx, vz), m/s) after the last update.
  glm::vec3 position(int id) const;
  glm::vec2 velocity(int id) const;
  /// Every agent's position and velocity, indexed by id, as position() and velocity() read
  /// them; a removed agent keeps its last.
  std::span<const glm::vec3> positions() const;
  std::span<const glm::vec2> velocities() const;
  /// The velocity it wanted after the last update ((vx, vz), m/s): toward its next corners (or
  /// its requested velocity) after the standoff breaker and separation, before avoidance
  /// (dtCrowdAgent::dvel).
  glm::vec2 desired_velocity(int id) const;
  /// The corners of its straight path as the last update found them, nearest first; none for
  /// an agent without a path to follow (standing, waiting for its path, or moving by velocity).
  std::vector<CrowdCorner> corners(int id) const;
  /// Whether it is crossing an off-mesh link of the navmesh (DT_CROWDAGENT_STATE_OFFMESH): moved
  /// along the link from the start of it to its end, at rest to the others meanwhile.
  bool is_on_link(int id) const;
  /// The point its last request_move_target asked for, as projected onto the navmesh.
  glm::vec3 target(int id) const;
  CrowdTargetState target_state(int id) const;
  /// Writes the crowd's whole state to `file` (a checkpoint, host/checkpoint/checkpoint_file.h,
  /// written atomically): every agent, its parameters, target, follow and velocity request,
  /// corridor and kernel state, the path search queue, and the options. Throws ApiError naming
  /// the file when it cannot be written.
  void save(const std::filesystem::path& file) const;
  /// Replaces the crowd's state with the one save() wrote to `file`, on this same navmesh (the
  /// same tiles, added in the same order); the crowd then steps on exactly as the saved one
  /// would have, on either executor. The options come from the file, but for the executor and
  /// the thread count, which do not change results. Throws ApiError naming the file and the
  /// problem when it cannot be read, is not a Crowd's checkpoint, was written by another build,
  /// is damaged, or was saved on another navmesh; the crowd is then unchanged.
  void restore(const std::filesystem::path& file);
  /// Path searches run so far (A* searches and shared path trees built).
  std::size_t path_searches() const;
  /// "cpu", "cuda" or "detour".
  std::string executor_name() const;
  /// The navmesh as the crowd reads it (the caller's, with the settings from its tiles).
  const NavMesh& navmesh() const;

  /// Half extents of the box searched for the navmesh around an agent's position or target:
  /// DetourCrowd's (2, 1.5, 2) x radius, but at least the navmesh's placement extents.
  glm::vec3 query_extents(const AgentParams& params) const;

private:
  /// The Simulation steps its scenario on a Crowd and reads its engine's stage times, health
  /// and memory, and saves it within its own checkpoints.
  friend class Simulation;
  /// A crowd on `navmesh` with options the caller checked; errors as the backend throws them.
  Crowd(std::shared_ptr<NavMesh> navmesh, const CrowdOptions& options);
  CrowdBackend& backend();
  const CrowdBackend& backend() const;
  /// Saves and restores what save() and restore() keep of a crowd, but for the options and the
  /// navmesh, within the caller's archive (host/checkpoint/archive.h); restore throws
  /// CheckpointError and must be called on a crowd with the caller's first agents only.
  void save_state(ArchiveWriter& out) const;
  void restore_state(ArchiveReader& in);

  /// The query filter of an agent with `params` (checked parameters).
  const dtQueryFilter& filter_of(const AgentParams& params) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

// The library's front: a crowd simulation built from a scenario (a file, or a Scenario made
// in code). Its engine is a Crowd (host/sim/crowd.h) on the scenario's navmesh, stepped by one
// backend; around it, the scenario's schedule (entries, waypoints, arrivals, followers,
// obstacle events), and the shared metrics observing it.
//
//   crowd::Simulation sim = crowd::Simulation::from_file("circle.json");
//   int id = sim.add_agent({0, 0, 5}, {0, 0, -5});
//   while (sim.step_index() < 100) sim.step();
//   glm::vec3 p = sim.position(id);
#pragma once

#include "cuda/core/solver_options.h"
#include "host/backends/backend_kind.h"
#include "host/navmesh/navmesh.h"
#include "host/output/metrics.h"
#include "host/scenario/population.h"
#include "host/scenario/scenario.h"
#include "host/sim/api_error.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {

class AgentShare;
class ObservationSplit;
class CrowdSolver;
class ArchiveWriter;
class ArchiveReader;

struct SimulationOptions {
  BackendKind backend = BackendKind::Auto;
  SolverOptions solver;
  /// An agent heading for a reachable goal that stays within its own diameter of one spot
  /// this long is stuck: its path is replanned, and again after each further interval (see
  /// host/sim/stuck_detector.h). 0 turns detection off.
  double stuck_seconds = 10.0;
  /// Given, every agent of the scenario gets this `standoff` / `arrival` parameter instead of
  /// its own (docs/scenario-extensions.md): `crowd run --standoff off --arrival radius` runs
  /// any scenario the way DetourCrowd and the version-1 format do.
  std::optional<StandoffRule> standoff;
  std::optional<ArrivalRule> arrival;
  /// Given, every agent avoids by this model (`crowd run --avoidance orca`), so that one scene
  /// can be compared under each: an agent already on it keeps its parameters, the others get
  /// the model's defaults ("good" for DetourCrowd's sampling). cpu and cuda backends.
  std::optional<AvoidanceModel> avoidance_model;
  /// CrowdOptions::agent_share: the kernel stages split with the other ranks of an MPI run.
  AgentShare* agent_share = nullptr;
  /// CrowdOptions::cuda_device.
  int cuda_device = -1;
  /// false: the metrics' per-step observers (positions, overlaps, walls, links, deadlocks,
  /// lane order) do not run, and metrics() holds only what the schedule records (arrivals,
  /// step times): for the ranks of an MPI run that write no metrics. The trajectory is the same
  /// either way: observers steer nothing.
  bool observe = true;
  /// The ranks of an MPI run measure the observers' costly per-agent parts (overlaps, walls,
  /// lane order) each for its share of the agents, combined on the rank that observes: every
  /// rank runs them, the others without the figures only the whole crowd gives (deadlocks).
  ObservationSplit* observation_split = nullptr;
};

/// Parses "keep_right", "keep_left", "off"; throws std::invalid_argument otherwise.
StandoffRule parse_standoff_rule(const std::string& name);
/// Parses "contact", "radius"; throws std::invalid_argument otherwise.
ArrivalRule parse_arrival_rule(const std::string& name);
/// Parses "detour", "ttc", "mass", "orca"; throws std::invalid_argument otherwise.
AvoidanceModel parse_avoidance_model(const std::string& name);

class Simulation {
public:
  /// Reads, validates and places the scenario; builds the navmesh; creates the backend.
  /// Throws ScenarioError, NavmeshError, or std::runtime_error (no CUDA device for `cuda`).
  static Simulation from_file(const std::filesystem::path& scenario_file,
                              const SimulationOptions& options = {});
  explicit Simulation(Scenario scenario, const SimulationOptions& options = {});
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();

  /// Adds an agent (placed on the navmesh) and returns its id, the next after every agent of
  /// the scenario. It enters at once; its arrival time (metrics) counts from now. Throws
  /// ApiError for non-finite input, a parameter out of the scenario format's range
  /// (agent_params_check.h) or a position with no navmesh near it.
  int add_agent(const glm::vec3& position, const glm::vec3& goal, const AgentParams& params = {});
  /// Removes the agent; its id is not reused. Throws ApiError for an unknown id.
  void remove_agent(int id);
  /// Sends the agent toward a new goal (an arrived agent walks again). Throws ApiError for an
  /// unknown, removed or frozen agent, or a non-finite goal.
  void set_goal(int id, const glm::vec3& goal);

  /// Advances one step of scenario().dt seconds.
  void step();

  int step_index() const;
  double time() const;
  int agent_count() const; ///< Ids handed out so far (removed agents included).
  glm::vec3 position(int id) const;
  glm::vec2 velocity(int id) const; ///< (vx, vz)
  AgentPhase phase(int id) const;
  /// True once the agent was frozen after a stage computed a non-finite value for it: it
  /// keeps its last finite position and stands (see faults()).
  bool frozen(int id) const;
  /// Every agent frozen so far, in the order it happened.
  std::span<const FaultRecord> faults() const;
  /// The agent's parameters as set up (its type label names it in outputs and exports), by
  /// value: the run holds them apart from its placements, their shared part once
  /// (host/scenario/agent_setup_table.h).
  AgentParams agent_params(int id) const;
  /// Its type label alone (agent_params(id).type), without assembling the rest: for what reads
  /// it per agent per frame (film exports' locomotion clips).
  const std::string& agent_type(int id) const;
  /// Positions, velocities and phases are indexed by agent id. An agent that has not entered
  /// yet (start delay, emitter) is AgentPhase::Pending and shows its spawn position.
  std::span<const glm::vec3> positions() const;
  std::span<const glm::vec2> velocities() const;
  std::span<const AgentPhase> phases() const;

  /// The ground direction (x, z) the agent is about to walk: toward the first corner of a
  /// path from where it stands to its next waypoint or goal (an A* search of at most 64
  /// polygons; for observers, such as the film export's first facing, not per step). Nothing
  /// when there is no way to go. Throws ApiError for an unknown id.
  std::optional<glm::vec2> walking_direction(int id) const;

  /// The height of the scenario's own ground under `point` (host/navmesh/ground_surface.h):
  /// where film exports stand characters, rather than on the navmesh above it. The ground is
  /// indexed on first use.
  float ground_height(const glm::vec3& point) const;

  const Scenario& scenario() const;
  const NavMesh& navmesh() const;
  std::string backend_name() const;
  /// The last step's stage times: the backend's, then "host" (the rest of the step on the
  /// host) and "observe" (the metrics and flow observers, outside last_step_ms).
  const StageTimes& last_step_stages() const;
  /// Wall time of the last step, observers left out.
  double last_step_ms() const;
  /// Adds `ms` to this step's "observe" time in the metrics: the caller's own observers (the
  /// outputs a run writes), timed by the caller.
  void record_observer_time(double ms);
  std::size_t host_memory_bytes() const;
  /// The part of host_memory_bytes() in the backend's tables of the navmesh (not counting the
  /// Detour navmesh itself: navmesh().detour_bytes()).
  std::size_t navmesh_table_bytes() const;
  /// Bytes of device memory the backend holds (0 unless it runs on a GPU).
  std::size_t device_memory_bytes() const;
  /// The metrics of the steps run so far.
  MetricsSummary metrics() const;
  /// Our solver's state for inspection (host/sim/agent_debug_view.h); null for the detour
  /// backend.
  const CrowdSolver* crowd_solver() const;
  /// The index by which the backend (and crowd_solver()'s arrays) knows agent `id`: agents
  /// enter the backend when they start, so with start delays and emitters it differs from
  /// `id`; -1 before the agent has entered. Throws ApiError for an unknown id.
  int backend_index(int id) const;
  /// The agent id of the backend's agent `index` (the inverse of backend_index).
  int agent_of_backend_index(int index) const;

  /// Checkpoints (host/checkpoint/archive.h): the whole state after the last step, so that a
  /// Simulation built from the same scenario and options, restored from it, steps exactly as
  /// this one would (bit for bit, for any thread count). The navmesh is rebuilt from the
  /// scenario, not saved. Throws CheckpointError for the detour backend (DetourCrowd's
  /// internal state cannot be saved).
  void save_checkpoint(ArchiveWriter& out) const;
  /// Replaces this simulation's state, which must be fresh from the same scenario and options.
  /// Throws CheckpointError when the checkpoint does not fit the scenario or is damaged.
  void restore_checkpoint(ArchiveReader& in);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

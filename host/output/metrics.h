// The run metrics of shared/spec/outputs.md, measured by the same code for every backend on
// the positions at the end of each step.
#pragma once

#include "cuda/core/stage_timer.h"
#include "host/output/deadlock_monitor.h"
#include "host/output/stuck_stats.h"
#include "host/paths/shortest_routes.h"
#include "host/scenario/agent_setup_table.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace crowd {

class NavMesh;
class ObservationSplit;
class ArchiveWriter;
class ArchiveReader;

/// Life of one agent as the simulation sees it.
enum class AgentPhase : std::uint8_t {
  Walking, ///< Heading for its goal (or its next waypoint).
  Arrived, ///< At its goal (within arrival_radius, or by contact); standing (on_arrival = stop).
  Removed, ///< Gone (on_arrival = remove, or removed through the API).
  Pending, ///< Not entered yet (start delay, emitter); not in the backend nor any output.
  Waiting, ///< Standing at a waypoint for its wait; present like a walking agent.
};

/// True for the phases in which an agent is in the scene: measured and written out.
constexpr bool is_present(AgentPhase phase) {
  return phase != AgentPhase::Removed && phase != AgentPhase::Pending;
}

/// The metrics of the agents of one type (scenario extension `types`).
struct TypeSummary {
  std::string type;
  int agents = 0;
  int arrived = 0;
  std::optional<double> mean_arrival_time;
};

/// An agent frozen because a stage computed a non-finite value for it.
struct FaultRecord {
  int agent = -1;
  int step = 0;      ///< The step that produced it (1 = the first step run).
  std::string stage; ///< Which stage (see AgentFault).
};

struct MetricsSummary {
  std::string scenario;
  std::string backend;
  int agents = 0;
  int steps = 0;
  float dt = 0.0f;
  int arrived = 0;
  int arrived_by_contact = 0; ///< Of `arrived`, outside arrival_radius (ArrivalRule::Contact).
  int unreachable = 0;
  std::optional<double> mean_arrival_time, max_arrival_time;
  long long overlap_events = 0;
  double max_overlap = 0.0;
  long long wall_events = 0;
  double max_wall_penetration = 0.0;
  std::optional<double> mean_path_ratio;
  /// Mean over arrived agents of the time to arrive over the free walking time (shortest
  /// path at max_speed, plus waits at waypoints); none when no arrived agent has one.
  std::optional<double> mean_time_ratio;
  double step_ms_mean = 0.0, step_ms_p95 = 0.0;
  std::vector<std::pair<std::string, double>> stage_ms; ///< Mean ms per step, pipeline order.

  // Beyond outputs.md's table: the health of the run.
  std::vector<FaultRecord> faults;     ///< Frozen agents, in the order they were frozen.
  StuckStats stuck;                    ///< Agents that made no progress (StuckDetector).
  DeadlockStats deadlocks;             ///< Stuck agents in each other's way (DeadlockMonitor).
  std::optional<double> lane_index;    ///< LaneOrder::index().
  long long navmesh_corrections = 0;   ///< Agent-steps put back onto the navmesh (StepHealth).
  double max_navmesh_correction = 0.0; ///< metres
  long long link_traversals = 0;       ///< Off-mesh links crossed (scenario `world.links`).
  /// Per agent type, in order of first appearance (by agent id), over the agents counted in
  /// `agents`.
  std::vector<TypeSummary> types;
};

/// The metrics object of outputs.md, keys in the order of that table and stage_ms in
/// pipeline order; then, when some agent has a type (scenario extension `types`), "types":
/// {"walker": {"agents", "arrived", "mean_arrival_time"}, ...}.
nlohmann::ordered_json to_json(const MetricsSummary& summary);

class MetricsCollector {
public:
  /// Measures walls against the scenario's obstacles and bounds (2D worlds) or against the
  /// navmesh boundary (mesh worlds, which have no obstacle polygons: the navmesh is the
  /// walkable area shrunk by the navmesh agent radius R, so the wall is taken to lie R beyond
  /// its edge: depth = r - (R + distance to the nearest boundary edge) on the navmesh,
  /// r - R + distance to the navmesh off it). `routes[i]` is agent i's shortest route as the
  /// solver measured it (host/paths/shortest_routes.h): the metrics search no paths of their
  /// own. `navmesh` must outlive this and stay where it is: a mesh world's walls are its
  /// boundary as it stands in each step observed (NavMesh::tiles_version), obstacles included.
  MetricsCollector(const Scenario& scenario, const NavMesh& navmesh, const AgentSetupTable& agents,
                   std::span<const ShortestRoute> routes);
  /// The same, of agents set up as a list.
  MetricsCollector(const Scenario& scenario, const NavMesh& navmesh,
                   std::span<const AgentSetup> agents, std::span<const ShortestRoute> routes);
  ~MetricsCollector();
  MetricsCollector(MetricsCollector&&) noexcept;

  /// An agent added after construction (through the API); its id is the next index.
  void add_agent(const AgentSetup& agent, const ShortestRoute& route);

  /// Counts overlap and wall events and accumulates walked distance for the agents that are
  /// present (is_present). Call once per step with the positions at the end of the step.
  /// `on_links[i]` (empty: none) is 1 while agent i crosses an off-mesh link: off the navmesh
  /// by design, over or through what it leads across, so not measured against the walls.
  /// `split`: a run split across processes, each measuring the overlaps and walls of its share of
  /// the agents (every process calls this at every step); the counts are then those of every
  /// agent on the process that combines them, partial on the others.
  void observe_step(std::span<const glm::vec3> positions, std::span<const AgentPhase> phases,
                    std::span<const std::uint8_t> on_links = {}, ObservationSplit* split = nullptr);
  /// The agent entered the run at `time` seconds (an agent whose setup has start_time 0 has
  /// entered at 0 without this call). Until it enters an agent is not counted in `agents`,
  /// and its arrival time is measured from here.
  void record_start(int agent, double time);
  /// The agent arrived at `time` seconds of the run; `by_contact`: outside its arrival_radius,
  /// by touching an agent that arrived there first (host/sim/contact_arrival.h).
  void record_arrival(int agent, double time, bool by_contact = false);
  /// Wall time of one step and of its stages.
  void record_step_time(double ms, const StageTimes& stages);
  /// Adds `ms` to stage `stage` of the step recorded last (an observer timed after it).
  void add_stage_time(const std::string& stage, double ms);

  long long overlap_events() const;
  long long wall_events() const;

  MetricsSummary summary(const std::string& backend, int steps_run) const;

  /// Checkpoints (host/checkpoint/archive.h): every agent's record (with the path lengths
  /// computed when it was added) and every count and time so far.
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

// What every crowd backend does: our solver (CPU or CUDA executor) and the unmodified
// DetourCrowd reference. The Simulation drives one of these; everything observable (outputs,
// metrics) is computed outside the backend from positions and velocities, by the same code.
#pragma once

#include "cuda/core/stage_timer.h"
#include "host/paths/agent_target.h"
#include "host/scenario/population.h"

#include <cstddef>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

class dtQueryFilter;

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// An agent a backend froze because one of its stages computed a non-finite value for it. The
/// agent keeps its last finite position, stands, and takes no new goals.
struct AgentFault {
  int agent = -1;
  std::string stage; ///< "steering", "integration", "collision" or "update" (detour).
};

/// What a backend noticed about its agents during the last step.
struct StepHealth {
  std::vector<AgentFault> new_faults; ///< Agents frozen this step, in id order.
  /// Agents the corridor move put back onto the navmesh from further away than 10% of their
  /// radius (pushed off it by the collision stage), and the largest such distance, metres.
  int navmesh_corrections = 0;
  float max_navmesh_correction = 0.0f;
  /// Agents that started crossing an off-mesh link this step (scenario `world.links`).
  int link_traversals = 0;
};

class AgentShare;

class CrowdBackend {
public:
  virtual ~CrowdBackend() = default;

  /// "cpu", "cuda" or "detour".
  virtual std::string name() const = 0;

  /// Adds an agent at setup.position heading for setup.goal; returns its id, which is the
  /// number of agents added before it (ids are never reused).
  virtual int add_agent(const AgentSetup& setup) = 0;
  /// Room for `agents` agents in all, when the caller knows how many it will add (a scenario's
  /// run): adding them then grows no per-agent array by doubling. Changes nothing else.
  virtual void reserve_agents(std::size_t /*agents*/) {}
  /// Takes the agent out of the simulation; it no longer moves or obstructs.
  virtual void remove_agent(int id) = 0;
  /// Sends the agent (again) toward `goal`; a path is planned on a later step.
  virtual void set_goal(int id, const glm::vec3& goal) = 0;
  /// Moves the goal of an agent that follows a path to `goal` without a new search, where the
  /// backend can (dtPathCorridor::moveTargetPosition); returns whether the path's end reached
  /// it. False by default: the caller then sets the goal, a new search.
  virtual bool move_goal(int /*id*/, const glm::vec3& /*goal*/) { return false; }
  /// Query filter `type` (0 to 15) for the agents whose AgentParams::query_filter_type is it,
  /// as dtCrowd::getEditableFilter: their searches and corridor moves from now on.
  virtual void set_query_filter(int type, const dtQueryFilter& filter) = 0;
  /// The query filter of `type` the agents of that type search with.
  virtual const dtQueryFilter& query_filter(int type) const = 0;
  /// The agent stops where it is and stays as a standing obstacle (can still be pushed).
  virtual void stop_agent(int id) = 0;
  /// The agent moves at `velocity` ((vx, vy, vz), m/s) instead of toward a goal
  /// (dtCrowd::requestMoveVelocity), until set_goal or stop_agent. A removed agent is left alone.
  virtual void set_velocity(int id, const glm::vec3& velocity) = 0;
  /// The agent's parameters from the next step on (dtCrowd::updateAgentParameters); its goal
  /// stays. A removed agent is left alone.
  virtual void set_agent_params(int id, const AgentParams& params) = 0;
  /// Puts the agent at `position` (snapped onto the navmesh) between two steps, keeping its
  /// velocity and its goal; a walking agent's path is planned again from there. Periodic
  /// worlds move agents across the seam this way (host/sim/periodic_wrap.h). A removed
  /// agent is left alone.
  virtual void move_agent(int id, const glm::vec3& position) = 0;

  /// The navmesh's tiles changed between two steps (NavMesh::update_obstacles): what the
  /// backend derived from them must follow. Nothing by default: DetourCrowd checks its agents'
  /// corridors and targets against the navmesh every update (dtCrowd's checkPathValidity).
  virtual void navmesh_changed() {}

  /// From now on the kernel stages and the path trees each step builds are split with other
  /// processes through `share` (cuda/core/agent_share.h), which must outlive the backend; null:
  /// this process alone.
  /// Throws std::runtime_error where the backend cannot (every backend but cpu).
  virtual void split_across_processes(AgentShare* share);

  /// Advances every agent by dt seconds.
  virtual void step(float dt) = 0;

  /// Indexed by id; a removed agent keeps its last values.
  virtual std::span<const glm::vec3> positions() const = 0;
  /// (vx, vz) per agent, m/s.
  virtual std::span<const glm::vec2> velocities() const = 0;
  /// Where the agent's movement request stands (dtCrowdAgent::targetState): None for a removed
  /// or standing agent.
  virtual TargetState target_state(int id) const = 0;
  /// The corners of its straight path as the last step found them, nearest first
  /// (dtCrowdAgent::cornerVerts); none without a path to follow.
  virtual std::vector<PathCorner> corners(int id) const = 0;
  /// The velocity it wanted in the last step ((vx, vz), m/s), before avoidance
  /// (dtCrowdAgent::dvel).
  virtual glm::vec2 desired_velocity(int id) const = 0;
  /// Path searches run so far.
  virtual std::size_t path_searches() const = 0;
  /// Per id: 1 while the agent crosses an off-mesh link (scenario `world.links`), moved along
  /// it off the navmesh; empty when no agent is on one.
  virtual std::span<const std::uint8_t> on_links() const { return {}; }

  /// Faults and corrections of the last step.
  virtual const StepHealth& last_step_health() const = 0;
  /// Wall time spent in each stage of the last step.
  virtual const StageTimes& last_step_stages() const = 0;
  /// Bytes of host memory held for the agents (state, corridors, buffers) and the tables
  /// built from the navmesh.
  virtual std::size_t host_memory_bytes() const = 0;
  /// The part of host_memory_bytes() in tables built from the navmesh (polygon graph, portal
  /// and outline tables, wall grid): it grows with the world, not with the agents.
  virtual std::size_t navmesh_table_bytes() const { return 0; }
  /// Bytes of device memory the backend holds (0 for backends that run on the host).
  virtual std::size_t device_memory_bytes() const { return 0; }

  /// Checkpoints (host/checkpoint/archive.h): everything a later step reads. restore() is
  /// called on a backend that has the scenario's first agents and replaces its whole state.
  /// A backend whose state cannot be saved says so by throwing CheckpointError.
  virtual void save(ArchiveWriter& out) const;
  virtual void restore(ArchiveReader& in);
};

} // namespace crowd

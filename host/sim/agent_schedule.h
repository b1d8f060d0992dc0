// When each agent of a run is in the simulation and where it is heading (scenario extensions,
// docs/scenario-extensions.md): an agent enters at its start time (start delay, emitter
// schedule) once its place is free, walks its waypoints in order, stands at each for the
// waypoint's wait, then walks to its goal, where its on_arrival applies.
//
// Agents that have not entered yet are not in the crowd, so the crowd numbers agents in
// the order they enter while every output numbers them in scenario order. The schedule keeps
// that map and shows positions and velocities by agent id: the crowd's own arrays when the
// two orders agree (every scenario without start delays or emitters), a copy otherwise.
#pragma once

#include "host/output/metrics.h"
#include "host/scenario/agent_setup_table.h"
#include "host/sim/contact_arrival.h"
#include "host/sim/crowd.h"

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

class AgentSchedule {
public:
  /// `agent_height`: an agent is at a point only within this height of it (other floors).
  explicit AgentSchedule(float agent_height);

  /// Makes setups[first..] known, with ids first, first + 1, ...; those whose start time is
  /// not after `now` enter the crowd at once (in id order, without a clearance test: their
  /// places were checked when they were placed), the others wait for after_step. When the
  /// backend throws, the agent it refused and those after it are not made known.
  void add_agents(const AgentSetupTable& setups, std::size_t first, Crowd& crowd, double now);

  /// Everything that happens at the end of a step that ended at `now`, in agent id order:
  /// arrivals (at a waypoint: stand for its wait, or walk on; at the goal: on_arrival, and
  /// the arrival recorded in `metrics`; a follower only once its leader is done, following()),
  /// waits that are over, then entries of agents whose
  /// start time has come and whose disc is clear of every agent present (one that is not
  /// clear tries again after the next step). An agent arrives at a waypoint or goal within
  /// its arrival_radius; at its goal, under the arrival rule Contact, also by touching an
  /// agent that arrived there before this step (host/sim/contact_arrival.h).
  void after_step(const AgentSetupTable& setups, Crowd& crowd, MetricsCollector& metrics,
                  double now);

  /// Takes the agent out (present or not yet entered).
  void remove_agent(int id, Crowd& crowd);
  /// The agent heads for setup.goal (its new goal), dropping the waypoints it has not
  /// reached; an agent that has not entered yet goes there once it enters.
  void set_goal(int id, const AgentPlacement& setup, Crowd& crowd);

  /// Sends a walking agent's current target (its next waypoint or its goal) to the crowd
  /// again, which plans a new path from where it stands (stuck agents).
  void replan(int id, const AgentPlacement& setup, Crowd& crowd);
  /// Where the agent is heading now: its next waypoint, or its goal.
  glm::vec3 current_target(int id, const AgentPlacement& setup) const {
    return target(setup, routes_.at(static_cast<std::size_t>(id)));
  }
  /// The crowd's id of agent `id`, -1 while it has not entered.
  int backend_of(int id) const { return routes_.at(static_cast<std::size_t>(id)).backend_id; }
  /// The agent id of the agent the crowd knows as `backend_id`.
  int agent_of_backend(int backend_id) const {
    return agent_of_backend_.at(static_cast<std::size_t>(backend_id));
  }

  /// Agents per worker chunk in the per-agent scans of a step (after_step's, the stuck test's).
  static constexpr int kScanGrain = 4096;

  std::span<const AgentPhase> phases() const { return phases_; }
  /// Whether the agent follows a leader that is still on its way (scenario extension `follow`):
  /// it cannot arrive until its leader has arrived or left.
  bool following(const AgentPlacement& setup) const {
    if (setup.leader < 0)
      return false;
    const AgentPhase leader = phases_.at(static_cast<std::size_t>(setup.leader));
    return leader != AgentPhase::Arrived && leader != AgentPhase::Removed;
  }
  /// Each agent's current target by id: its next waypoint, or its goal.
  void targets(const AgentSetupTable& setups, std::vector<glm::vec3>& out) const;
  /// By agent id. An agent that has not entered shows its spawn position and no velocity.
  std::span<const glm::vec3> positions(const Crowd& crowd) const;
  std::span<const glm::vec2> velocities(const Crowd& crowd) const;

  /// Checkpoints (host/checkpoint/archive.h): routes, phases, entries to come, the id maps.
  void save(ArchiveWriter& out) const;
  /// Restores, then checks that the state fits `setups` and a crowd of `backend_agents`
  /// agents (ids in range, the two id maps each other's inverse, waypoints that exist), so
  /// that a damaged checkpoint is refused here rather than read out of bounds on the next step.
  void restore(ArchiveReader& in, const AgentSetupTable& setups, std::size_t backend_agents);

private:
  struct Route {
    int backend_id = -1;           ///< -1 until the agent enters.
    std::size_t next_waypoint = 0; ///< == waypoints.size(): heading for the goal.
    double wait_until = 0.0;       ///< While Waiting.
  };

  bool identity() const;
  /// Whether agent `id`, at `at`, is within its arrival radius of its current target.
  bool within_arrival_radius(const AgentSetupTable& setups, std::size_t id,
                             const glm::vec3& at) const;
  /// Fills by_contact_: the walking agents that arrive at their goal by contact this step.
  void find_contact_arrivals(const AgentSetupTable& setups, std::span<const glm::vec3> at);
  glm::vec3 target(const AgentPlacement& setup, const Route& route) const;
  void enter(int id, const AgentSetupTable& setups, Crowd& crowd);
  bool place_is_free(const AgentSetupTable& setups, int id,
                     std::span<const glm::vec3> positions) const;
  void refresh_views(const AgentSetupTable& setups, const Crowd& crowd);

  float agent_height_;
  std::vector<Route> routes_;
  std::vector<AgentPhase> phases_;
  std::vector<int> waiting_to_enter_; ///< Ids, by start time then id.
  std::vector<int> agent_of_backend_; ///< Agent id by backend id.
  int entered_ = 0;                   ///< Agents added to the crowd.
  bool in_entry_order_ = true;        ///< Every backend id so far equals its agent id.
  std::vector<glm::vec3> positions_;  ///< By agent id, when not identity().
  std::vector<glm::vec2> velocities_;
  ContactArrival contact_arrival_;
  std::vector<std::uint8_t> contact_candidates_, by_contact_; ///< Scratch of after_step.
  std::vector<std::uint8_t> may_act_;                         ///< Scratch of after_step.
};

} // namespace crowd

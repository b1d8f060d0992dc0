// The reference backend: the unmodified DetourCrowd library (Debian librecast-dev
// 1.5.1+git20210215) driven through its public API, the way RecastDemo's crowd tool does.
// Everything observable (positions, velocities) is copied out after each dtCrowd::update so
// that the shared metrics and outputs measure it with the same code as our solver.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "host/backends/backend.h"

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

class dtCrowd;
struct dtCrowdAgent;
struct dtCrowdAgentParams;
struct dtObstacleAvoidanceParams;

namespace crowd {

class NavMesh;

/// Our avoidance parameters as DetourCrowd's (gridSize 33, dtCrowd::init's value: unused,
/// since dtCrowd::update always samples adaptively; divs, rings and depth clamped to a byte).
dtObstacleAvoidanceParams to_detour_params(const AvoidanceParams& params);

class DetourCrowdBackend final : public CrowdBackend {
public:
  /// The largest capacity DetourCrowd can hold: its proximity grid (dtProximityGrid) keeps
  /// item ids and pool links as `unsigned short` (0xffff = empty) in a pool of 4 x maxAgents
  /// items (DetourCrowd.cpp, dtCrowd::init; field notes 1a), so 4 x capacity must stay below
  /// 65535.
  static constexpr int kMaxCapacity = 65535 / 4;

  /// dtCrowd::init(capacity, max_agent_radius, navmesh). `capacity` is the number of agents
  /// that can be in the crowd at once (the scenario's agent count). Throws std::runtime_error
  /// when capacity exceeds kMaxCapacity, when max_agent_radius is not > 0, or when DetourCrowd
  /// fails to initialise. The navmesh must outlive the backend.
  DetourCrowdBackend(const NavMesh& navmesh, int capacity, float max_agent_radius);
  ~DetourCrowdBackend() override;
  DetourCrowdBackend(const DetourCrowdBackend&) = delete;
  DetourCrowdBackend& operator=(const DetourCrowdBackend&) = delete;

  std::string name() const override { return "detour"; }

  /// Throws std::runtime_error when `capacity` agents are already in the crowd, or when the
  /// agent uses a ninth distinct set of avoidance parameters (DetourCrowd has 8 slots).
  int add_agent(const AgentSetup& setup) override;
  /// The following throw std::out_of_range for an id never handed out; on a removed agent
  /// they do nothing.
  void remove_agent(int id) override;
  void set_goal(int id, const glm::vec3& goal) override;
  void set_query_filter(int type, const dtQueryFilter& filter) override;
  const dtQueryFilter& query_filter(int type) const override;
  void stop_agent(int id) override;
  void set_velocity(int id, const glm::vec3& velocity) override;
  /// dtCrowd::updateAgentParameters. Throws std::runtime_error for a ninth distinct set of
  /// avoidance parameters, as add_agent.
  void set_agent_params(int id, const AgentParams& params) override;
  /// Moves the dtCrowdAgent's position and corridor (what dtCrowd::addAgent sets up for a new
  /// agent), keeps vel, and asks for a path to the agent's goal again.
  void move_agent(int id, const glm::vec3& position) override;

  void step(float dt) override;

  /// dtCrowdAgent::targetState: requesting, waiting for the queue or for the path read as
  /// WaitingForPath; a zero velocity request that stands the agent (stop_agent) as None.
  TargetState target_state(int id) const override;
  std::vector<PathCorner> corners(int id) const override;
  glm::vec2 desired_velocity(int id) const override;
  /// The path requests DetourCrowd answered (an agent's target state going from requesting or
  /// waiting to valid or failed in an update). A replan DetourCrowd starts and answers within
  /// one update is not seen from outside and not counted.
  std::size_t path_searches() const override { return path_searches_; }

  std::span<const glm::vec3> positions() const override { return positions_; }
  std::span<const glm::vec2> velocities() const override { return velocities_; }
  const StageTimes& last_step_stages() const override { return stages_; }
  /// Non-finite agents are frozen at their last finite position and reported. DetourCrowd
  /// itself has no such guard, so within the step that produced the value its neighbours may
  /// already have read it; corrections are not measured (dtCrowd moves its corridors inside
  /// update) and stay zero.
  const StepHealth& last_step_health() const override { return health_; }
  std::span<const std::uint8_t> on_links() const override { return on_link_; }
  /// An estimate of DetourCrowd's own allocations for `capacity` agents plus our arrays.
  std::size_t host_memory_bytes() const override;

  int capacity() const { return capacity_; }
  /// Number of distinct avoidance parameter sets in use (dtObstacleAvoidanceParams slots).
  int avoidance_slots_used() const { return static_cast<int>(avoidance_slots_.size()); }

private:
  struct CrowdDeleter {
    void operator()(dtCrowd* crowd) const;
  };

  int crowd_index(int id) const; ///< Throws std::out_of_range; -1 when removed.
  int avoidance_slot(const AvoidanceParams& params);
  /// DetourCrowd's parameters for an agent with `params`, as RecastDemo's crowd tool sets them.
  dtCrowdAgentParams detour_params(const AgentParams& params);
  /// The live agent of `id`, or null once removed.
  const dtCrowdAgent* agent_of(int id) const;
  void request_goal(int index, const glm::vec3& goal);

  const NavMesh* navmesh_;
  int capacity_;
  std::unique_ptr<dtCrowd, CrowdDeleter> crowd_;
  int active_agents_ = 0;
  std::vector<int> crowd_index_; ///< Our id -> dtCrowd agent index, -1 once removed.
  /// The goal last requested per id; nothing while the agent stands (stop_agent).
  std::vector<std::optional<glm::vec3>> goals_;
  std::vector<glm::vec3> positions_;
  std::vector<glm::vec2> velocities_;
  std::vector<AvoidanceParams> avoidance_slots_; ///< Slot k of dtCrowd holds entry k.
  StageTimes stages_;
  StepHealth health_;
  std::vector<std::uint8_t> frozen_; ///< Per id: 1 once frozen after a fault.
  /// Per id: 1 while it moves by set_velocity (not a stop_agent's zero velocity request).
  std::vector<std::uint8_t> velocity_request_;
  std::size_t path_searches_ = 0;
  std::vector<std::uint8_t> searching_; ///< step()'s scratch: per id, waiting for a path.
  /// Per id: 1 while DetourCrowd moves the agent along an off-mesh link
  /// (DT_CROWDAGENT_STATE_OFFMESH), so that each crossing is counted once, when it starts.
  std::vector<std::uint8_t> on_link_;
};

} // namespace crowd

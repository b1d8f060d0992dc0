// A run's agents as the scenario (or the API) set them up: each agent's placement, and its
// parameters with their shared part held once (agent_params_table.h).
//
// A run keeps every agent's setup for as long as it runs: the schedule reads it to let an agent
// enter and to walk its waypoints, the metrics and the stuck detector to measure it, a checkpoint
// to save it. Held as AgentSetups they took 368 bytes an agent, 264 of them the parameters,
// beside the crowd's own record of them (docs/distributed-model.md, "Memory per rank").
#pragma once

#include "host/scenario/agent_params_table.h"
#include "host/scenario/population.h"

#include <cstddef>
#include <span>
#include <vector>

namespace crowd {

class AgentSetupTable {
public:
  AgentSetupTable() = default;
  explicit AgentSetupTable(std::span<const AgentSetup> setups);

  /// Appends the next agent's setup (its id: the size before).
  void push_back(const AgentSetup& setup);
  /// Drops the last agent's setup.
  void pop_back();
  std::size_t size() const { return placements_.size(); }

  /// Agent `id`'s placement.
  const AgentPlacement& operator[](std::size_t id) const { return placements_[id]; }
  /// Agent `id`'s placement, to change where it heads (its goal, waypoints, leader).
  AgentPlacement& placement(std::size_t id) { return placements_[id]; }
  /// Every agent's parameters, by id.
  const AgentParamsTable& params() const { return params_; }
  /// Agent `id`'s whole setup, as given (its parameters assembled: for what an agent does once,
  /// such as entering the crowd, not for a scan of every agent).
  AgentSetup setup(std::size_t id) const;

private:
  std::vector<AgentPlacement> placements_;
  AgentParamsTable params_;
};

} // namespace crowd

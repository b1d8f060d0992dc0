// A run's agents' setups, their parameters held apart (agent_setup_table.h).
#include "host/scenario/agent_setup_table.h"

namespace crowd {

AgentSetupTable::AgentSetupTable(std::span<const AgentSetup> setups) {
  placements_.reserve(setups.size());
  params_.reserve(setups.size());
  for (const AgentSetup& setup : setups)
    push_back(setup);
}

void AgentSetupTable::push_back(const AgentSetup& setup) {
  placements_.push_back(setup);
  try {
    params_.push_back(setup.params);
  } catch (...) {
    placements_.pop_back();
    throw;
  }
}

void AgentSetupTable::pop_back() {
  placements_.pop_back();
  params_.pop_back();
}

AgentSetup AgentSetupTable::setup(std::size_t id) const {
  AgentSetup whole;
  static_cast<AgentPlacement&>(whole) = placements_[id];
  whole.params = params_[id];
  return whole;
}

} // namespace crowd

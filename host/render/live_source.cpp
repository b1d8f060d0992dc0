#include "host/render/live_source.h"

namespace crowd {

LiveSource::LiveSource(Scenario scenario, const SimulationOptions& options,
                       std::optional<int> steps)
    : simulation_(std::move(scenario), options),
      scene_(make_scene(simulation_.scenario(), simulation_.navmesh(),
                        populate(simulation_.scenario(), simulation_.navmesh()))),
      last_step_(steps.value_or(simulation_.scenario().step_count())) {
  capture();
}

void LiveSource::advance() {
  simulation_.step();
  capture();
}

void LiveSource::capture() {
  const auto positions = simulation_.positions();
  const auto velocities = simulation_.velocities();
  const auto phases = simulation_.phases();
  frame_.step = simulation_.step_index();
  frame_.time = simulation_.time();
  frame_.positions.assign(positions.begin(), positions.end());
  frame_.velocities.assign(velocities.begin(), velocities.end());
  frame_.present.resize(phases.size());
  for (std::size_t i = 0; i < phases.size(); ++i)
    frame_.present[i] = is_present(phases[i]);
  if (frame_.step > 0)
    frame_.ms_per_step = simulation_.last_step_ms();
}

std::optional<AgentDebugView> LiveSource::inspect(int agent) const {
  if (agent < 0 || agent >= simulation_.agent_count())
    return std::nullopt;
  return inspect_agent(simulation_, agent);
}

std::string LiveSource::debug_unavailable() const {
  return simulation_.crowd_solver() == nullptr
             ? "no debug overlays on detour (its state is inside DetourCrowd)"
             : "";
}

std::string LiveSource::description() const {
  return "live, backend " + simulation_.backend_name();
}

} // namespace crowd

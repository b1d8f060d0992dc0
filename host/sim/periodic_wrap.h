// The step of a periodic world (scenario extension `world.periodic`,
// host/scenario/periodic_world.h) that makes it periodic: after the crowd has moved the
// agents, every agent past an end of the periodic axis is put back one period away, with its
// velocity and goal, through Crowd::move_agent. The same on every backend.
#pragma once

#include "host/scenario/periodic_world.h"
#include "host/sim/agent_schedule.h"
#include "host/sim/crowd.h"

#include <optional>

namespace crowd {

class PeriodicWrap {
public:
  /// Does nothing for a scenario that is not periodic.
  explicit PeriodicWrap(const Scenario& scenario) : frame_(periodic_frame(scenario)) {}

  /// Moves the present agents (schedule phases Walking, Arrived, Waiting) that are past an
  /// end. Returns how many were moved.
  int apply(const AgentSchedule& schedule, Crowd& crowd) const;

  const std::optional<PeriodicFrame>& frame() const { return frame_; }

private:
  std::optional<PeriodicFrame> frame_;
};

} // namespace crowd

// Scenario extension `events` as a timeline: every placement of every obstacle the events put
// down, its outline on the ground and the time span it stands there. What observers read (the
// metrics' wall contacts, the viewer's drawing), apart from the navmesh the simulation changes.
#pragma once

#include "host/scenario/scenario.h"

#include <algorithm>
#include <glm/glm.hpp>
#include <limits>
#include <vector>

namespace crowd {

struct TimedObstacle {
  double from = 0.0;                                      ///< The event that put it there, s.
  double until = std::numeric_limits<double>::infinity(); ///< The one that moved or removed it.
  std::vector<glm::vec2> outline; ///< Convex (x, z): a cylinder's 24-gon or the turned box.

  /// Whether it stands during the step that starts at `step_start` (s): an event applies before
  /// the first step that starts at or after its time, within the float slack the simulation
  /// allows (1e-6 relative, obstacle_events.h).
  bool stands_at(double step_start) const {
    const double slack = 1e-6 * std::max(1.0, step_start);
    return from <= step_start + slack && step_start + slack < until;
  }
};

/// The placements of the events of `scenario`, replayed in the order they apply.
std::vector<TimedObstacle> obstacle_timeline(const Scenario& scenario);

} // namespace crowd

#include "host/sim/periodic_wrap.h"

namespace crowd {

int PeriodicWrap::apply(const AgentSchedule& schedule, Crowd& crowd) const {
  if (!frame_)
    return 0;
  const auto phases = schedule.phases();
  int moved = 0;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    if (!is_present(phases[i]))
      continue;
    const int b = schedule.backend_of(static_cast<int>(i));
    // The crowd's own array, by its id: the schedule's copied view is refreshed only after
    // this (AgentSchedule::after_step).
    glm::vec3 p = crowd.positions()[static_cast<std::size_t>(b)];
    float& along = frame_->axis == 0 ? p.x : p.z;
    const float shift = frame_->wrap_shift(along);
    if (shift == 0.0f)
      continue;
    along += shift;
    crowd.move_agent(b, p);
    ++moved;
  }
  return moved;
}

} // namespace crowd

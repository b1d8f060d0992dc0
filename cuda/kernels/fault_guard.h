// Keeps one agent's bad arithmetic from reaching anyone else. Every kernel output that other
// agents read (desired velocity in steering; velocity and position in integration; position in
// the collision passes) goes through these checks before it is stored: a non-finite result is
// not stored, the agent's state stays as it was with zero velocity, and a sticky status bit
// names the stage. The host freezes such an agent and reports it (host/sim/crowd_solver.cpp).
// Neighbours therefore only ever read finite values, whatever one agent computes.
#pragma once

#include "cuda/kernels/agent_view.h"

namespace crowd {

/// True for a finite float. x - x is 0 for every finite x and NaN for NaN and +-inf; it is
/// exact without fast-math (the project never enables it), and it is the same expression in
/// host and device code, where std::isfinite is not available in both.
CROWD_HD bool is_finite(float x) {
  return x - x == 0.0f;
}
CROWD_HD bool is_finite(const glm::vec2& v) {
  return is_finite(v.x) && is_finite(v.y);
}
CROWD_HD bool is_finite(const glm::vec3& v) {
  return is_finite(v.x) && is_finite(v.y) && is_finite(v.z);
}

/// Records that `stage_bit` (one of kFault*) produced a non-finite value for agent i.
CROWD_HD void mark_fault(int i, const AgentView& v, std::uint8_t stage_bit) {
  v.status[i] = static_cast<std::uint8_t>(v.status[i] | stage_bit);
}

} // namespace crowd

// Stage 7, integrate: move toward the chosen velocity within the acceleration limit, then move
// (dtCrowd's integrate(), "fake dynamic constraint").
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/fault_guard.h"

namespace crowd {

CROWD_HD void integrate_agent(int i, const AgentView& v, float dt) {
  if (!kernels_move(v.mode[i])) {
    if (v.mode[i] == kAgentOnLink) // at rest while the host moves it along the link
      v.velocity[i] = glm::vec2(0.0f);
    return;
  }
  const float max_delta = v.max_accel[i] * dt;
  glm::vec2 dv = v.new_velocity[i] - v.velocity[i];
  const float ds = sqrtf(dv.x * dv.x + dv.y * dv.y);
  if (ds > max_delta)
    dv *= max_delta / ds;
  glm::vec2 vel = v.velocity[i] + dv;
  glm::vec3 pos = v.position[i];
  if (sqrtf(vel.x * vel.x + vel.y * vel.y) > 0.0001f) {
    pos.x += vel.x * dt;
    pos.z += vel.y * dt;
  } else {
    vel = glm::vec2(0.0f);
  }
  // new_velocity is checked too: a NaN there makes vel NaN, which the rest test above turns
  // into a silent standstill.
  if (!is_finite(v.new_velocity[i]) || !is_finite(vel) || !is_finite(pos)) {
    // Stays where it was, at rest; the host freezes it.
    mark_fault(i, v, kFaultIntegration);
    v.velocity[i] = glm::vec2(0.0f);
    v.new_velocity[i] = glm::vec2(0.0f);
    return;
  }
  v.position[i] = pos;
  v.velocity[i] = vel;
}

} // namespace crowd

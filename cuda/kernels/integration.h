// Stage 7, integrate: move toward the chosen velocity within the acceleration limit, then move
// (dtCrowd's integrate(), "fake dynamic constraint").
#pragma once

#include "cuda/kernels/agent_view.h"

namespace crowd {

CROWD_HD void integrate_agent(int i, const AgentView& v, float dt) {
  if (v.mode[i] == kAgentInactive)
    return;
  const float max_delta = v.max_accel[i] * dt;
  glm::vec2 dv = v.new_velocity[i] - v.velocity[i];
  const float ds = sqrtf(dv.x * dv.x + dv.y * dv.y);
  if (ds > max_delta)
    dv *= max_delta / ds;
  glm::vec2 vel = v.velocity[i] + dv;
  if (sqrtf(vel.x * vel.x + vel.y * vel.y) > 0.0001f) {
    v.position[i].x += vel.x * dt;
    v.position[i].z += vel.y * dt;
  } else {
    vel = glm::vec2(0.0f);
  }
  v.velocity[i] = vel;
}

} // namespace crowd

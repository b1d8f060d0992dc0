// Stage 5, steering: the preferred velocity from the corridor, turned aside by the standoff
// breaker (standoff.h) when the agent is caught in a standoff, plus separation from the
// neighbours, clamped to the desired speed (dtCrowd::update, "Separation").
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/fault_guard.h"
#include "cuda/kernels/standoff.h"

namespace crowd {

CROWD_HD void steer_with_separation(int i, const AgentView& v, const StandoffParams& standoff,
                                    float dt) {
  if (!kernels_move(v.mode[i])) {
    v.desired_velocity[i] = glm::vec2(0.0f);
    return;
  }
  glm::vec2 dvel = standoff_preferred_velocity(i, v, standoff, dt);
  // An agent in a standoff manoeuvre presses on: the separation of the agents around it is
  // what holds it short of a goal that arrived agents stand around, or apart from an agent it
  // has to pass.
  const float separation_weight = in_standoff_manoeuvre(i, v) ? 0.0f : v.separation_weight[i];
  if (separation_weight > 0.0f) {
    const float separation_dist = v.query_range[i];
    const float inv_separation_dist = 1.0f / separation_dist;
    const glm::vec3 p = v.position[i];
    const std::int32_t* neighbors = v.neighbor_index + static_cast<long long>(i) * v.max_neighbors;
    float w = 0.0f;
    glm::vec2 disp{0.0f};
    for (int k = 0; k < v.neighbor_count[i]; ++k) {
      const glm::vec3 q = v.position[neighbors[k]];
      const glm::vec2 diff{p.x - q.x, p.z - q.z};
      const float dist_sq = diff.x * diff.x + diff.y * diff.y;
      if (dist_sq < 0.00001f || dist_sq > separation_dist * separation_dist)
        continue;
      const float dist = sqrtf(dist_sq);
      const float s = dist * inv_separation_dist;
      const float weight = separation_weight * (1.0f - s * s);
      disp += diff * (weight / dist);
      w += 1.0f;
    }
    if (w > 0.0001f) {
      dvel += disp * (1.0f / w);
      // Clamp to the desired speed (the reference scales by desired^2 / speed^2, which
      // shrinks more than a clamp would; kept for agreement).
      const float speed_sq = dvel.x * dvel.x + dvel.y * dvel.y;
      const float desired_sq = v.desired_speed[i] * v.desired_speed[i];
      if (speed_sq > desired_sq)
        dvel *= desired_sq / speed_sq;
    }
  }
  if (!is_finite(dvel)) {
    mark_fault(i, v, kFaultSteering);
    dvel = glm::vec2(0.0f);
  }
  v.desired_velocity[i] = dvel;
}

} // namespace crowd

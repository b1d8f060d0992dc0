// Stage 8, collisions: push overlapping neighbours apart. One pass computes every agent's
// displacement from the positions of the previous pass, then applies them all (Jacobi), as
// dtCrowd::update's "Handle collisions" does; the executor runs `iterations` passes.
#pragma once

#include "cuda/kernels/agent_view.h"

namespace crowd {

CROWD_HD void collision_displacement(int i, const AgentView& v, float resolve_factor) {
  glm::vec2 disp{0.0f};
  if (v.mode[i] != kAgentInactive) {
    const glm::vec3 p = v.position[i];
    const float r = v.radius[i];
    const std::int32_t* neighbors = v.neighbor_index + static_cast<long long>(i) * v.max_neighbors;
    float w = 0.0f;
    for (int k = 0; k < v.neighbor_count[i]; ++k) {
      const int j = neighbors[k];
      glm::vec2 diff{p.x - v.position[j].x, p.z - v.position[j].z};
      float dist = diff.x * diff.x + diff.y * diff.y;
      const float reach = r + v.radius[j];
      if (dist > reach * reach)
        continue;
      dist = sqrtf(dist);
      float pen = reach - dist;
      if (dist < 0.0001f) {
        // On top of each other: diverge sideways of the desired velocity, opposite ways.
        const glm::vec2 dvel = v.desired_velocity[i];
        diff = i > j ? glm::vec2{-dvel.y, dvel.x} : glm::vec2{dvel.y, -dvel.x};
        pen = 0.01f;
      } else {
        pen = (1.0f / dist) * (pen * 0.5f) * resolve_factor;
      }
      disp += diff * pen;
      w += 1.0f;
    }
    if (w > 0.0001f)
      disp *= 1.0f / w;
  }
  v.displacement[i] = disp;
}

CROWD_HD void apply_displacement(int i, const AgentView& v) {
  if (v.mode[i] == kAgentInactive)
    return;
  v.position[i].x += v.displacement[i].x;
  v.position[i].z += v.displacement[i].y;
}

} // namespace crowd

// Stage 6 for the agents of the force model (kAvoidanceMass): pushes bend the desired velocity,
// the way Unreal's Mass crowds steer (MassNavigation's moving-avoidance processor): separation
// from neighbours nearer than the sum of the radii plus a buffer, growing with the square of the
// penetration; predictive avoidance away from the closest point of approach of the agent's
// desired motion and each neighbour's motion within a time horizon, fading with the time to it;
// both scaled down for standing neighbours, so that a moving agent can make its way through a
// standing crowd; and walls taking away the velocity into them, with a light push along their
// normal. The new velocity is the desired one plus the pushes, held off the walls, no faster
// than the desired speed; the integration stage then limits the turn to the agent's
// acceleration. One agent per thread, on the same neighbour and wall rows as
// DetourCrowd's sampler.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/common/hd.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/geometry.h"

#include <cmath>

namespace crowd {

/// A unit vector along `v`, or `fallback` when `v` is too short to have a direction.
CROWD_HD glm::vec2 direction_or(const glm::vec2& v, float length, const glm::vec2& fallback) {
  return length > 1e-5f ? v / length : fallback;
}

/// The share of full strength at `gap` metres inside a band of `width`: the squared penetration
/// ratio, clamped to [0, 1] (0 outside the band).
CROWD_HD float quadratic_falloff(float gap, float width) {
  const float ratio = fminf(gap / width, 1.0f);
  return ratio > 0.0f ? ratio * ratio : 0.0f;
}

/// The pushes on agent i from its neighbours (m/s).
CROWD_HD glm::vec2 mass_push(int i, const AgentView& v, const MassAvoidanceParams& p) {
  const glm::vec2 pos = ground(v.position[i]);
  const glm::vec2 desired = v.desired_velocity[i];
  const float radius = v.radius[i];
  // Where two agents stand on one spot, or an approach passes dead centre: push to the right of
  // the desired motion, the same way on every executor.
  const float speed = sqrtf(desired.x * desired.x + desired.y * desired.y);
  const glm::vec2 right =
      direction_or(glm::vec2(desired.y, -desired.x), speed, glm::vec2(1.0f, 0.0f));
  glm::vec2 push(0.0f);

  const long long row_k = static_cast<long long>(i) * v.max_neighbors;
  for (int k = 0; k < v.neighbor_count[i]; ++k) {
    const int j = v.neighbor_index[row_k + k];
    const glm::vec2 rel = pos - ground(v.position[j]);
    const float dist = sqrtf(rel.x * rel.x + rel.y * rel.y);
    const float reach = radius + v.radius[j];
    const glm::vec2 other_velocity = v.velocity[j];
    const bool standing =
        v.mode[j] != kAgentMoving ||
        other_velocity.x * other_velocity.x + other_velocity.y * other_velocity.y < 0.01f;
    const float scale = standing ? p.standing_obstacle_scale : 1.0f;

    // Separation.
    const float apart =
        quadratic_falloff(reach + p.separation_distance - dist, p.separation_distance);
    if (apart > 0.0f)
      push += direction_or(rel, dist, right) * (p.separation_stiffness * scale * apart);

    // Predictive avoidance: the closest approach of the desired motion to the neighbour's.
    const glm::vec2 rel_velocity = desired - other_velocity;
    const float closing = rel_velocity.x * rel_velocity.x + rel_velocity.y * rel_velocity.y;
    if (!(closing > 1e-6f))
      continue;
    const float t = -(rel.x * rel_velocity.x + rel.y * rel_velocity.y) / closing;
    if (!(t > 0.0f) || !(t < p.predictive_time))
      continue; // moving apart, or meeting beyond the horizon
    const glm::vec2 approach = rel + rel_velocity * t;
    const float miss = sqrtf(approach.x * approach.x + approach.y * approach.y);
    const float ahead =
        quadratic_falloff(reach + p.predictive_distance - miss, p.predictive_distance);
    if (ahead > 0.0f)
      push += direction_or(approach, miss, right) *
              (p.predictive_stiffness * scale * (1.0f - t / p.predictive_time) * ahead);
  }

  return push;
}

/// Agent i's velocity `velocity` held off its wall segments: within wall_distance of a segment
/// (the navmesh's boundary, already inset by the agent radius) the part of the velocity heading
/// into it is taken away, all of it at the segment, and a push of up to wall_stiffness along its
/// normal is added, so that an agent slides along a wall instead of pressing into it.
CROWD_HD glm::vec2 held_off_walls(int i, const AgentView& v, const MassAvoidanceParams& p,
                                  glm::vec2 velocity) {
  const glm::vec2 pos = ground(v.position[i]);
  const long long row_s = static_cast<long long>(i) * v.max_segments;
  for (int s = 0; s < v.segment_count[i]; ++s) {
    const glm::vec4 seg = v.segment[row_s + s];
    const glm::vec2 a(seg.x, seg.y), b(seg.z, seg.w);
    float t = 0.0f;
    const float dist = sqrtf(distance_point_segment_sqr_2d(pos, a, b, t));
    // The walkable side of a boundary edge p->q is where dtTriArea2D(point, p, q) >= 0
    // (geometry.h): along (q - p) rotated a quarter turn clockwise in x/z.
    const glm::vec2 edge = b - a;
    const float edge_length = sqrtf(edge.x * edge.x + edge.y * edge.y);
    if (!(edge_length > 1e-5f))
      continue;
    const glm::vec2 normal(edge.y / edge_length, -edge.x / edge_length);
    const glm::vec2 from_closest = pos - (a + edge * t);
    const float side = from_closest.x * normal.x + from_closest.y * normal.y;
    glm::vec2 away = normal;
    float gap = p.wall_distance - side; // across the edge: along its normal, even when past it
    if (!(t > 0.0f && t < 1.0f)) {
      // Beside an end: away from the end point, unless behind the edge's line (the next edge's
      // side of a corner).
      if (side < 0.0f)
        continue;
      away = direction_or(from_closest, dist, normal);
      gap = p.wall_distance - dist;
    }
    if (!(gap > 0.0f))
      continue;
    const float closeness = fminf(gap / p.wall_distance, 1.0f);
    const float into = -(velocity.x * away.x + velocity.y * away.y);
    if (into > 0.0f)
      velocity += away * (into * closeness);
    velocity += away * (p.wall_stiffness * closeness * closeness);
  }
  return velocity;
}

/// Agent i's new velocity under the force model: the desired velocity plus the neighbours'
/// pushes, held off the walls, no faster than its desired speed.
CROWD_HD glm::vec2 mass_velocity(int i, const AgentView& v, const MassAvoidanceParams& p) {
  const glm::vec2 velocity = held_off_walls(i, v, p, v.desired_velocity[i] + mass_push(i, v, p));
  const float speed = sqrtf(velocity.x * velocity.x + velocity.y * velocity.y);
  const float max_speed = v.desired_speed[i];
  if (speed > max_speed)
    return speed > 0.0f ? velocity * (max_speed / speed) : glm::vec2(0.0f);
  return velocity;
}

} // namespace crowd

// From straight-path corners to a preferred velocity, as dtCrowd::update's "Calculate steering"
// does it (DetourCrowd.cpp, recastnavigation): calcSmoothSteerDirection (anticipate the turn at
// the next corner) and the slow-down within 2 x radius of the end of the path
// (getDistanceToGoal). On the corners as the corners kernel writes them
// (corridor_corners.h: x y z per corner, findStraightPath's flags).
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/corridor_corners.h"

#include <cstdint>

namespace crowd {

/// Unit steering direction in x/z (y = 0), aiming past the first corner toward the second so
/// the agent rounds corners instead of touching them; zero without corners.
CROWD_HD glm::vec2 smooth_steer_direction(const glm::vec3& position, const float* corners,
                                          int count) {
  if (count <= 0)
    return glm::vec2(0.0f);
  const float* p0 = &corners[0];
  const float* p1 = &corners[(count > 1 ? 1 : 0) * 3];
  glm::vec2 dir0{p0[0] - position.x, p0[2] - position.z};
  glm::vec2 dir1{p1[0] - position.x, p1[2] - position.z};
  const float len0 = sqrtf(dir0.x * dir0.x + dir0.y * dir0.y);
  const float len1 = sqrtf(dir1.x * dir1.x + dir1.y * dir1.y);
  if (len1 > 0.001f)
    dir1 *= 1.0f / len1;
  glm::vec2 dir{dir0.x - dir1.x * len0 * 0.5f, dir0.y - dir1.y * len0 * 0.5f};
  // dtVnormalize divides by the length unconditionally; a zero direction stays zero here.
  const float len = sqrtf(dir.x * dir.x + dir.y * dir.y);
  return len > 0.0f ? dir * (1.0f / len) : glm::vec2(0.0f);
}

/// Distance to the end of the path when the last corner is the end, capped at `range`.
CROWD_HD float distance_to_goal(const glm::vec3& position, const float* corners,
                                const std::uint8_t* flags, int count, float range) {
  if (count <= 0 || (flags[count - 1] & kCornerEnd) == 0)
    return range;
  const float* end = &corners[(count - 1) * 3];
  const float d = sqrtf((end[0] - position.x) * (end[0] - position.x) +
                        (end[2] - position.z) * (end[2] - position.z));
  return d < range ? d : range;
}

/// The preferred velocity: max_speed along the smoothed direction, scaled down linearly
/// within 2 x radius of the end of the path.
CROWD_HD glm::vec2 preferred_velocity(const glm::vec3& position, const float* corners,
                                      const std::uint8_t* flags, int count, float radius,
                                      float max_speed) {
  const float slow_down_radius = radius * 2.0f;
  const float speed_scale =
      distance_to_goal(position, corners, flags, count, slow_down_radius) / slow_down_radius;
  return smooth_steer_direction(position, corners, count) * (max_speed * speed_scale);
}

} // namespace crowd

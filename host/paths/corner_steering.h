// From straight-path corners to a preferred velocity, as dtCrowd::update's "Calculate steering"
// does it: calcSmoothSteerDirection (anticipate the turn at the next corner) and the slow-down
// within 2 x radius of the end of the path (getDistanceToGoal). DetourCrowd.cpp, recastnavigation.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <span>

namespace crowd {

struct Corner {
  glm::vec3 position{0.0f};
  bool end_of_path = false; ///< DT_STRAIGHTPATH_END: the corridor's target.
};

/// Unit steering direction in x/z (y = 0), aiming past the first corner toward the second so
/// the agent rounds corners instead of touching them; zero without corners.
inline glm::vec2 smooth_steer_direction(const glm::vec3& position,
                                        std::span<const Corner> corners) {
  if (corners.empty())
    return glm::vec2(0.0f);
  const glm::vec3 p0 = corners[0].position;
  const glm::vec3 p1 = corners[corners.size() > 1 ? 1 : 0].position;
  glm::vec2 dir0{p0.x - position.x, p0.z - position.z};
  glm::vec2 dir1{p1.x - position.x, p1.z - position.z};
  const float len0 = std::sqrt(dir0.x * dir0.x + dir0.y * dir0.y);
  const float len1 = std::sqrt(dir1.x * dir1.x + dir1.y * dir1.y);
  if (len1 > 0.001f)
    dir1 *= 1.0f / len1;
  glm::vec2 dir{dir0.x - dir1.x * len0 * 0.5f, dir0.y - dir1.y * len0 * 0.5f};
  // dtVnormalize divides by the length unconditionally; a zero direction stays zero here.
  const float len = std::sqrt(dir.x * dir.x + dir.y * dir.y);
  return len > 0.0f ? dir * (1.0f / len) : glm::vec2(0.0f);
}

/// Distance to the end of the path when the last corner is the end, capped at `range`.
inline float distance_to_goal(const glm::vec3& position, std::span<const Corner> corners,
                              float range) {
  if (corners.empty() || !corners.back().end_of_path)
    return range;
  const glm::vec3 end = corners.back().position;
  const float d = std::sqrt((end.x - position.x) * (end.x - position.x) +
                            (end.z - position.z) * (end.z - position.z));
  return d < range ? d : range;
}

/// The preferred velocity: max_speed along the smoothed direction, scaled down linearly
/// within 2 x radius of the end of the path.
inline glm::vec2 preferred_velocity(const glm::vec3& position, std::span<const Corner> corners,
                                    float radius, float max_speed) {
  const float slow_down_radius = radius * 2.0f;
  const float speed_scale =
      distance_to_goal(position, corners, slow_down_radius) / slow_down_radius;
  return smooth_steer_direction(position, corners) * (max_speed * speed_scale);
}

} // namespace crowd

// When a target that moves costs a path search: DetourCrowd's way with a moving goal. The
// corridor's end follows a target that moved a little (dtPathCorridor::moveTargetPosition, no
// search); a target that moved far since the last search, or that the corridor's end cannot
// reach, is searched for again, at most once per replan delay (dtCrowd's 1 s between replans of
// a path). Shared by the library's Crowd (request_move_target again and again, request_follow)
// and the scenarios' followers (Simulation, scenario extension `follow`), as is where a
// follower aims.
#pragma once

#include <glm/glm.hpp>

namespace crowd {

/// Whether agent's request aimed at `target` needs a new path search now. Its last search was
/// for `planned`, `since_plan` seconds ago. `has_request`: it has a path or a search under way
/// (else the search is due at once). `move_end()` moves the corridor's end to `target` without
/// a search and returns whether it got there; it is called only when the target has not moved
/// further than `replan_distance` (m) since the last search or the `replan_delay` (s) has not
/// passed.
template <class MoveEnd>
bool target_search_due(const glm::vec3& target, const glm::vec3& planned, float since_plan,
                       float replan_distance, float replan_delay, bool has_request,
                       MoveEnd&& move_end) {
  if (!has_request)
    return true;
  const bool delay_over = since_plan >= replan_delay;
  const glm::vec3 moved = target - planned;
  if (glm::dot(moved, moved) > replan_distance * replan_distance && delay_over)
    return true;
  return !move_end() && delay_over;
}

/// Where a follower aims: its leader's position plus `offset`, ahead by the leader's velocity
/// over the time the follower (of `radius` and `max_speed`) takes to cross its slow-down
/// distance (twice its radius, DetourCrowd's slowDownRadius). An agent closing on its target
/// slows in proportion, so aiming at the offset point itself would leave it that far behind a
/// walking leader; a standing leader's offset point is the target.
inline glm::vec3 follow_point(const glm::vec3& leader_position, const glm::vec2& leader_velocity,
                              const glm::vec3& offset, float radius, float max_speed) {
  const float lead = 2.0f * radius / max_speed;
  return leader_position + offset + glm::vec3(leader_velocity.x, 0.0f, leader_velocity.y) * lead;
}

} // namespace crowd

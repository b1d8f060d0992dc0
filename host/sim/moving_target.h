// When a target that moves costs a path search: DetourCrowd's way with a moving goal. The
// corridor's end follows a target that moved a little (dtPathCorridor::moveTargetPosition, no
// search); a target that moved far since the last search, or that the corridor's end cannot
// reach, is searched for again, at most once per replan delay (dtCrowd's 1 s between replans of
// a path). Shared by the library's Crowd (request_move_target again and again, request_follow)
// and the scenarios' followers (Simulation, scenario extension `follow`).
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

} // namespace crowd

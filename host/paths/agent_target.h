// What an agent's movement request is and where it leads: its target state and the corners
// of its straight path, as every backend reports them (DetourCrowd's targetState, cornerVerts
// and cornerFlags).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

namespace crowd {

/// Where an agent's movement request stands (dtCrowd's targetState, simplified: our path
/// requests are complete A* searches, so there is no sliced "waiting for queue" state).
enum class TargetState : std::uint8_t {
  None,           ///< No goal: stands (a zero velocity request).
  WaitingForPath, ///< Has a goal; its A* search is queued.
  Valid,          ///< Follows its corridor.
  Failed,         ///< No path could be found from where it stands; waits for a new goal.
  Velocity,       ///< Moves at a requested velocity, no path (DT_CROWDAGENT_TARGET_VELOCITY).
};

/// A corner of an agent's straight path, as its last corridor following found it
/// (dtCrowdAgent::cornerVerts and cornerFlags).
struct PathCorner {
  glm::vec3 position{0.0f};
  std::uint8_t flags = 0; ///< DT_STRAIGHTPATH_START / _END / _OFFMESH_CONNECTION bits
};

} // namespace crowd

// One agent's corridor following in a step, on its row of the agent arrays: the part of
// dtCrowd::update (DetourCrowd.cpp) between the path requests and the velocity planning
// ("find next corner", DT_CROWD_OPTIMIZE_VIS, "calculate steering"), and its last stage
// ("move along navmesh": dtPathCorridor::movePosition). The bodies of the executors'
// follow_corridors and move_corridors phases, one agent per thread. Where the navmesh tables
// cannot answer (cuda/kernels/navmesh_tables.h: an off-mesh connection, a partial tile-border
// link) the agent is flagged and the host answers for it with Detour.
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/corner_steering.h"
#include "cuda/kernels/corridor_corners.h"
#include "cuda/kernels/corridor_move.h"
#include "cuda/kernels/corridor_validity.h"
#include "cuda/kernels/corridor_visibility.h"
#include "cuda/kernels/path_trees.h"

#include <cmath>
#include <cstdint>

namespace crowd {

/// Per-agent corridor state bits. Set by the host: follow the corridor (the agent has a path),
/// and keep the path after the move (it has or awaits one; else the corridor shrinks to the
/// polygon it stands on, as dtCrowd resets it).
inline constexpr std::uint8_t kCorridorFollow = 0x01;
inline constexpr std::uint8_t kCorridorKeepPath = 0x02;
/// Set by the host for an agent whose query filter lets through other polygons than the
/// tables' filter (DetourCrowd's per-type filters): the bodies ask Detour for its corners and
/// its move, which the host answers with the agent's own filter.
inline constexpr std::uint8_t kCorridorOwnFilter = 0x04;
/// Set by the host for an agent whose searches are the shared trees' and whose goal polygon has
/// a cached tree: after its move, a corridor near its end short of the goal is topped up from
/// the tree (extend_along_tree) instead of the host searching again.
inline constexpr std::uint8_t kCorridorFromTree = 0x08;
/// Set by the bodies for the host: Detour must find the corners (and then shortcut and steer),
/// shortcut the corridor, or move it.
inline constexpr std::uint8_t kCorridorAskCorners = 0x10;
inline constexpr std::uint8_t kCorridorAskVisibility = 0x20;
inline constexpr std::uint8_t kCorridorAskMove = 0x40;
inline constexpr std::uint8_t kCorridorAskBits = 0x70;

/// The corridor rows of the agent arrays (cuda/core/corridor_arrays.h) as the bodies read and
/// write them.
struct CorridorView {
  int capacity = 0;        ///< polygons per row
  int corner_capacity = 0; ///< corners per row
  std::int32_t* polys = nullptr;
  std::int32_t* size = nullptr;
  glm::vec3* start = nullptr;
  glm::vec3* target = nullptr;
  glm::vec3* corner_verts = nullptr;
  std::uint8_t* corner_flags = nullptr;
  std::int32_t* corner_polys = nullptr;
  std::int32_t* corner_count = nullptr;
  std::uint8_t* state = nullptr;
  std::int32_t* goal = nullptr;    ///< dense index of the goal's polygon, -1 for none
  glm::vec3* goal_point = nullptr; ///< where in it the agent heads
  std::uint8_t* checks = nullptr;  ///< check_corridor's findings (cuda/kernels/corridor_validity.h)

  CROWD_HD std::int32_t* row(int i) const { return polys + i * capacity; }
  CROWD_HD CornerBuffer corners(int i) const {
    const int at = i * corner_capacity;
    return CornerBuffer{&corner_verts[at].x, corner_flags + at, corner_polys + at, corner_capacity};
  }
};

/// The validity look-ahead of agent i's corridor (check_corridor), into c.checks[i].
CROWD_HD void check_corridor_of_agent(int i, const NavmeshTablesView& nav, const CorridorView& c) {
  c.checks[i] = check_corridor(nav, c.row(i), c.size[i], c.goal[i]);
}

/// What corridor following writes per agent into arrays the agent view holds read-only.
struct SteeringRow {
  glm::vec2* preferred_velocity = nullptr; ///< [agents] toward the corners, m/s
  glm::vec2* corridor_direction = nullptr; ///< [agents] corridor_section_direction, unit or 0
};

/// The direction across the corridor section between the current two portals of the corridor
/// `path` (`size` polygons) from `position`: toward the middle of its next portal, turning
/// toward the middle of the one after, as smooth_steer_direction rounds the first two corners.
/// Zero where the corridor has no portal left (its goal's polygon) or its next portal is not in
/// the tables (an off-mesh connection). The time-to-collision model's corridor reference.
CROWD_HD glm::vec2 corridor_section_direction(const NavmeshTablesView& nav,
                                              const std::int32_t* path, int size,
                                              const glm::vec3& position) {
  float middles[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  int n = 0;
  for (int k = 0; k + 1 < size && n < 2; ++k) {
    const NavPortal* portal = nav.find_portal(path[k], path[k + 1]);
    if (portal == nullptr)
      break;
    for (int axis = 0; axis < 3; ++axis)
      middles[n * 3 + axis] = 0.5f * (portal->left[axis] + portal->right[axis]);
    ++n;
  }
  return smooth_steer_direction(position, middles, n);
}

/// Agent i's steering from the `n` corners of its corner row and its corridor: its preferred
/// velocity toward the corners at its desired speed, and the direction across its corridor
/// section (into `steering`).
CROWD_HD void steer_along_corridor(int i, const NavmeshTablesView& nav, const CorridorView& c,
                                   const AgentView& agents, const SteeringRow& steering, int n) {
  const CornerBuffer corners = c.corners(i);
  steering.preferred_velocity[i] =
      crowd::preferred_velocity(agents.position[i], corners.verts, corners.flags, n,
                                agents.radius[i], agents.desired_speed[i]);
  steering.corridor_direction[i] =
      corridor_section_direction(nav, c.row(i), c.size[i], agents.position[i]);
}

/// The part of agent i's corridor following after its corners are found (`n` of them, in its
/// corner row): its visibility shortcut toward the corner after next (within range_factor x
/// radius), its preferred velocity toward the corners at its desired speed, and the direction
/// across its corridor section (into `steering`). Returns false when the tables cannot answer
/// for the shortcut, which is then left to the caller.
CROWD_HD bool shortcut_and_steer(int i, const NavmeshTablesView& nav, const CorridorView& c,
                                 const AgentView& agents, const SteeringRow& steering,
                                 float range_factor, int n) {
  c.corner_count[i] = n;
  const CornerBuffer corners = c.corners(i);
  bool answered = true;
  // Shortcut to the corner after next when it is visible (DT_CROWD_OPTIMIZE_VIS).
  if (n > 0) {
    const float* next = &corners.verts[(n > 1 ? 1 : 0) * 3];
    const float range = range_factor * agents.radius[i];
    const int shortened =
        optimize_visibility(nav, c.row(i), c.size[i], c.capacity, &c.start[i].x, next, range);
    if (shortened >= 0)
      c.size[i] = shortened;
    else
      answered = false;
  }
  steer_along_corridor(i, nav, c, agents, steering, n);
  return answered;
}

/// The corners of agent i's corridor, then shortcut_and_steer. What the tables cannot answer
/// for is flagged (kCorridorAsk*) for the host.
CROWD_HD void follow_corridor(int i, const NavmeshTablesView& nav, const CorridorView& c,
                              const AgentView& agents, const SteeringRow& steering,
                              float range_factor) {
  std::uint8_t state = c.state[i] & static_cast<std::uint8_t>(~kCorridorAskBits);
  c.corner_count[i] = 0;
  if (!(state & kCorridorFollow)) {
    c.state[i] = state;
    return;
  }
  CornerBuffer corners = c.corners(i);
  const int n = (state & kCorridorOwnFilter) ? -1
                                             : find_corners(nav, &c.start[i].x, &c.target[i].x,
                                                            c.row(i), c.size[i], corners);
  if (n < 0) {
    c.state[i] = state | kCorridorAskCorners; // the host does the rest of this agent's part
    return;
  }
  if (!shortcut_and_steer(i, nav, c, agents, steering, range_factor, n))
    state |= kCorridorAskVisibility;
  c.state[i] = state;
}

/// Whether an agent of `radius` put back `put_back` by its corridor move counts as corrected by
/// the navmesh: further than 10% of its radius (NavmeshCorrections, cuda/core/executor.h).
CROWD_HD bool is_navmesh_correction(float put_back, float radius) {
  return put_back > 0.1f * radius;
}

/// The end of agent i's corridor move, once its corridor start is where the move left it: the
/// agent is put there (`position`, its entry of the agent arrays), a corridor it is not to keep
/// shrinks to the polygon it stands on, as dtCrowd resets it, and one that follows a tree is
/// topped up from it. Returns how far the agent was put back (x/z).
CROWD_HD float finish_corridor_move(int i, const CorridorView& c, const PathTreesView& trees,
                                    glm::vec3& position) {
  const glm::vec3 wanted = position;
  const glm::vec3 p = c.start[i];
  position = p;
  if (!(c.state[i] & kCorridorKeepPath)) {
    c.size[i] = 1;
    c.target[i] = p;
  } else if (c.state[i] & kCorridorFromTree) {
    // Near the end of a path that stops short of its goal, where the validity look-ahead would
    // ask the host to search again (kCorridorNearEnd): the tree's way on instead. The corridor
    // ends at the goal point; short of the goal polygon the corners end where the last
    // polygon's boundary comes nearest it (findStraightPath's clamp).
    const int t = trees.tree_of(c.goal[i]);
    if (t >= 0) {
      bool reached = false;
      const int before = c.size[i];
      c.size[i] = extend_along_tree(trees, t, c.goal[i], c.row(i), before, c.capacity,
                                    kCorridorCheckLookahead, reached);
      if (c.size[i] != before)
        c.target[i] = c.goal_point[i];
    }
  }
  return hypotf(p.x - wanted.x, p.z - wanted.z);
}

/// Moves agent i's corridor to where the kernels moved the agent (agents.position), constrained
/// to the navmesh, and puts the agent at the constrained position. Returns how far it was put
/// back (x/z); 0 for an agent without a corridor, and for one flagged kCorridorAskMove, which
/// is left untouched for the host.
CROWD_HD float move_corridor_of_agent(int i, const NavmeshTablesView& nav, const CorridorView& c,
                                      const PathTreesView& trees, const AgentView& agents) {
  if (!kernels_move(agents.mode[i]) || c.size[i] == 0)
    return 0.0f;
  if (c.state[i] & kCorridorOwnFilter) {
    c.state[i] |= kCorridorAskMove;
    return 0.0f;
  }
  // A copy: the move writes the corridor through other pointers, which the compiler cannot
  // tell apart from the agent arrays'.
  const glm::vec3 wanted = agents.position[i];
  float pos[3] = {c.start[i].x, c.start[i].y, c.start[i].z};
  const int moved = move_corridor(nav, c.row(i), c.size[i], c.capacity, pos, &wanted.x);
  if (moved < 0) {
    c.state[i] |= kCorridorAskMove;
    return 0.0f;
  }
  if (moved > 0) { // 0: moveAlongSurface failed, and movePosition leaves the corridor as it was
    c.size[i] = moved;
    c.start[i] = glm::vec3(pos[0], pos[1], pos[2]);
  }
  return finish_corridor_move(i, c, trees, agents.position[i]);
}

} // namespace crowd

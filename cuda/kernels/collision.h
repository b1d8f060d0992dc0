// Stage 8, collisions: push overlapping neighbours apart and keep agents off the walls. One pass
// computes every agent's displacement from the positions of the previous pass, then applies
// them all (Jacobi), as dtCrowd::update's "Handle collisions" does; the executor runs
// `iterations` passes. The CPU applies them in place (collision_displacement for all, then
// apply_displacement for all); the GPU reads one position buffer and writes the other
// (collision_pass_into), one launch a pass.
//
// Each contact is a position constraint (Position Based Dynamics): a pair of overlapping discs
// wants its distance to be the radius sum, and the two agents split the correction; a wall
// segment wants the agent's centre on its inner side, and the agent takes all of it (the wall
// does not move). Jacobi passes average the corrections of an agent's
// contacts, which never overshoots but converges slowly in dense contact; Macklin et al., "Unified
// Particle Physics for Real-Time Applications" (SIGGRAPH 2014), section 4.2, scale the average by
// an over-relaxation factor omega in (1, 2) to recover the convergence. DetourCrowd's own pass is
// this with omega = COLLISION_RESOLVE_FACTOR = 0.7 (under-relaxed) and without walls.
//
// Walls: the navmesh is eroded by the agent radius, so its boundary edges are where an agent's
// centre must stay. Without wall contacts the passes push agents over the boundary, and the
// host's corridor move (dtPathCorridor::movePosition) then slides them back along it, on top of
// the neighbours they were pushed away from. With them, the passes settle the crowd against the
// walls, and movePosition has (almost) nothing left to undo.
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/fault_guard.h"
#include "cuda/kernels/geometry.h"

namespace crowd {

struct CollisionParams {
  /// omega: scale of the averaged correction (DetourCrowd: 0.7).
  float relaxation = 0.7f;
  /// Resolve contacts with the agent's wall segments (found by the proximity stage) too.
  bool walls = false;
  /// Asymmetry of contact shares: 0 = halves, 1 = the agent behind takes it all.
  float yield = 0.0f;
};

/// The correction that moves a centre at `p` back to the inner side of the boundary edge
/// (a, b). Proximity keeps only edges that face the agent (tri_area_2d(p, a, b) >= 0 before
/// the step); their inner side is the left of a->b seen from above. Zero when already inside
/// or when the closest point is an endpoint (a convex corner: the neighbouring edge owns it).
CROWD_HD glm::vec2 wall_correction(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len_sq = ab.x * ab.x + ab.y * ab.y;
  if (len_sq < 1e-12f)
    return glm::vec2(0.0f);
  const glm::vec2 ap = p - a;
  const float t = (ap.x * ab.x + ap.y * ab.y) / len_sq;
  if (t <= 0.0f || t >= 1.0f)
    return glm::vec2(0.0f);
  const float len = sqrtf(len_sq);
  // Unit normal pointing to the facing side: tri_area_2d(p, a, b) = ap x ab >= 0 there.
  const glm::vec2 n{ab.y / len, -ab.x / len};
  const float signed_distance = ap.x * n.x + ap.y * n.y;
  if (signed_distance >= 0.0f)
    return glm::vec2(0.0f);
  return n * -signed_distance;
}

/// Agent i's share of the correction of its contact with j (j's share is 1 minus it).
/// diff = p_i - p_j, dist = |diff| > 0.
///
/// Why not halves: in a queue or at a door, the agents behind walk into the ones ahead every
/// step, and an even split hands half of each push forward, compressing the front until it
/// jams (an arch at the door). Position Based Dynamics splits a correction by inverse mass
/// (Mueller et al., "Position Based Dynamics", 2007, eq. 9); here the "mass" follows intent: the
/// agent whose preferred velocity points into the other is lighter, one that is walked into
/// from behind heavier, so followers absorb their own push. Head-on pairs (both walk into each
/// other) and standing pairs still split evenly, and the shares always sum to 1, so a pass
/// removes the same overlap. yield scales the asymmetry: 0 gives DetourCrowd's halves.
CROWD_HD float contact_share(int i, int j, const glm::vec2& diff, float dist, const AgentView& v,
                             float yield) {
  if (yield <= 0.0f)
    return 0.5f;
  const auto ahead = [&](const glm::vec2& pv, float sign) {
    const float len = sqrtf(pv.x * pv.x + pv.y * pv.y);
    if (len < 1e-4f)
      return 0.0f;
    const float c = sign * -(pv.x * diff.x + pv.y * diff.y) / (len * dist);
    return c > 0.0f ? c : 0.0f;
  };
  const float a_i = ahead(v.preferred_velocity[i], 1.0f);  // j lies ahead of i
  const float a_j = ahead(v.preferred_velocity[j], -1.0f); // i lies ahead of j
  return 0.5f + 0.5f * yield * (a_i - a_j);
}

CROWD_HD void collision_displacement(int i, const AgentView& v, const CollisionParams& params) {
  glm::vec2 disp{0.0f};
  if (kernels_move(v.mode[i])) {
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
        // On top of each other: diverge sideways of the desired velocity, opposite ways (which
        // way by agent id, not row).
        const glm::vec2 dvel = v.desired_velocity[i];
        diff = agent_of_row(v, i) > agent_of_row(v, j) ? glm::vec2{-dvel.y, dvel.x}
                                                       : glm::vec2{dvel.y, -dvel.x};
        pen = 0.01f;
      } else {
        pen = (1.0f / dist) * (pen * contact_share(i, j, diff, dist, v, params.yield)) *
              params.relaxation;
      }
      disp += diff * pen;
      w += 1.0f;
    }
    if (params.walls) {
      // Wall contacts join the average like agent contacts, but the agent takes all of each
      // (the wall does not move). Averaged, they are soft: a crowd pressing on the wall can
      // leave a centre a little behind it for the host's corridor move to clamp. A hard
      // projection applied after the average was measured too: it changed pillars' arrivals
      // at 90 s from 58 to 38 (DetourCrowd 42) with no other gain.
      const glm::vec4* segments = v.segment + static_cast<long long>(i) * v.max_segments;
      for (int k = 0; k < v.segment_count[i]; ++k) {
        const glm::vec4 s = segments[k];
        const glm::vec2 c = wall_correction({p.x, p.z}, {s.x, s.y}, {s.z, s.w});
        if (c.x == 0.0f && c.y == 0.0f)
          continue;
        disp += c * params.relaxation;
        w += 1.0f;
      }
    }
    if (w > 0.0001f)
      disp *= 1.0f / w;
  }
  v.displacement[i] = disp;
}

/// Agent i's position moved by its displacement; its position unchanged where it is inactive
/// or the moved one is not finite (then the collision fault bit is set: neighbours keep
/// reading a finite position).
CROWD_HD glm::vec3 displaced_position(int i, const AgentView& v) {
  const glm::vec3 before = v.position[i];
  if (!kernels_move(v.mode[i]))
    return before;
  glm::vec3 pos = before;
  pos.x += v.displacement[i].x;
  pos.z += v.displacement[i].y;
  if (!is_finite(pos)) {
    mark_fault(i, v, kFaultCollision);
    return before;
  }
  return pos;
}

/// Second half of a pass on one position buffer: every agent's displacement applied in place
/// (after every agent's collision_displacement: a grid-wide barrier between the two).
CROWD_HD void apply_displacement(int i, const AgentView& v) {
  v.position[i] = displaced_position(i, v);
}

/// Whether agent i's displacement must be computed again in a pass after the first, given
/// which agents the pass before displaced (`displaced`, per agent). An agent's displacement
/// depends only on its own and its neighbours' positions (and on inputs the passes do not
/// change), so unless one of those moved it is still the zero it was (had it not been zero,
/// the agent itself would have been displaced). Both executors skip the others: the same result
/// as computing every agent, and in a sparse crowd the later passes touch only the agents in
/// contact.
CROWD_HD bool displacement_may_change(int i, const AgentView& v, const std::uint8_t* displaced) {
  if (displaced[i])
    return true;
  const std::int32_t* neighbors = v.neighbor_index + static_cast<long long>(i) * v.max_neighbors;
  for (int k = 0; k < v.neighbor_count[i]; ++k) {
    if (displaced[neighbors[k]])
      return true;
  }
  return false;
}

/// Whether the pass displaced agent i (what displacement_may_change reads in the next pass).
CROWD_HD std::uint8_t was_displaced(int i, const AgentView& v) {
  return v.displacement[i].x != 0.0f || v.displacement[i].y != 0.0f ? 1 : 0;
}

/// A whole pass for agent i on two position buffers: its displacement from v.position (the
/// positions before the pass; skipped where displacement_may_change says it is still zero,
/// `displaced_before` null in the first pass) and its moved position written to `moved[i]`,
/// and whether it was displaced to `displaced_after[i]`. The same arithmetic as
/// collision_displacement then apply_displacement, without the barrier between them, so an
/// executor that keeps two buffers runs a pass as one launch.
CROWD_HD void collision_pass_into(int i, const AgentView& v, const CollisionParams& params,
                                  glm::vec3* moved, const std::uint8_t* displaced_before,
                                  std::uint8_t* displaced_after) {
  if (displaced_before == nullptr || displacement_may_change(i, v, displaced_before))
    collision_displacement(i, v, params);
  moved[i] = displaced_position(i, v);
  displaced_after[i] = was_displaced(i, v);
}

} // namespace crowd

// Stage 6 for the agents of ORCA (kAvoidanceOrca): optimal reciprocal collision avoidance
// (van den Berg, Guy, Lin, Manocha, "Reciprocal n-body collision avoidance", ISRR 2009), as the
// RVO2 library computes it (RVO2 2.0, src/Agent.cc: computeNewVelocity, linearProgram1-3).
// Each neighbour gives a half-plane of velocities that, taking half of the avoidance effort,
// keep the pair apart for time_horizon seconds; each wall segment of the agent's wall row gives
// one that keeps the agent off it for time_horizon_obstacles seconds. A 2D linear program picks
// the velocity in all the half-planes nearest the desired one, within the desired speed; when
// the half-planes leave no room (a dense crowd), a 3D linear program picks the velocity that
// violates the agent half-planes least, keeping the wall half-planes hard.
//
// Differences from RVO2, each for a reason of this solver:
// - Walls are the navmesh's boundary segments, which Recast has already inset by the agent's
//   radius (the erosion of the walkable area), so the agent meets them with radius 0, not its
//   radius. Each segment is an obstacle of its own with both ends convex (RVO2's two-vertex
//   obstacle), since a wall row holds segments without their neighbours on the outline, and,
//   as in RVO2's obstacle query, only a segment whose walkable side the agent stands on counts.
// - Degenerate directions (agents on one spot with no relative motion, an agent exactly on a
//   segment's end) take a fixed fallback instead of a division by zero, the same on every
//   executor.
// One thread per agent, on the neighbour and wall rows the sampler reads; the half-planes are
// kept in the block's scratch (shared memory on the GPU).
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/common/hd.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/geometry.h"

namespace crowd {

/// A directed line; the permitted half-plane is on its left: det(direction, point - v) <= 0.
struct OrcaLine {
  glm::vec2 point{0.0f};
  glm::vec2 direction{0.0f};
};

/// RVO_EPSILON (RVO2's Definitions.h).
inline constexpr float kOrcaEpsilon = 0.00001f;

/// Half-planes one agent can hold: one per neighbour and one per wall segment.
CROWD_HD constexpr int orca_line_capacity(int max_neighbors, int max_segments) {
  return max_neighbors + max_segments;
}

CROWD_HD float orca_det(const glm::vec2& a, const glm::vec2& b) {
  return a.x * b.y - a.y * b.x;
}
CROWD_HD float orca_dot(const glm::vec2& a, const glm::vec2& b) {
  return a.x * b.x + a.y * b.y;
}
/// `v / |v|`, or `fallback` when v has no length.
CROWD_HD glm::vec2 orca_unit_or(const glm::vec2& v, const glm::vec2& fallback) {
  const float length = sqrtf(orca_dot(v, v));
  return length > 0.0f ? v / length : fallback;
}

/// RVO2's linearProgram1: the best point on line `line_no` within the speed circle and the
/// half-planes of lines [0, line_no); false when they leave none.
CROWD_HD bool orca_program_1(const OrcaLine* lines, int line_no, float radius,
                             const glm::vec2& opt_velocity, bool direction_opt, glm::vec2& result) {
  const OrcaLine& line = lines[line_no];
  const float dot_product = orca_dot(line.point, line.direction);
  const float discriminant =
      dot_product * dot_product + radius * radius - orca_dot(line.point, line.point);
  if (discriminant < 0.0f)
    return false; // the speed circle misses the line
  const float sqrt_discriminant = sqrtf(discriminant);
  float t_left = -dot_product - sqrt_discriminant;
  float t_right = -dot_product + sqrt_discriminant;
  for (int i = 0; i < line_no; ++i) {
    const float denominator = orca_det(line.direction, lines[i].direction);
    const float numerator = orca_det(lines[i].direction, line.point - lines[i].point);
    if (fabsf(denominator) <= kOrcaEpsilon) {
      if (numerator < 0.0f)
        return false; // parallel, and line i excludes all of this one
      continue;
    }
    const float t = numerator / denominator;
    if (denominator >= 0.0f)
      t_right = fminf(t_right, t); // line i bounds this one on the right
    else
      t_left = fmaxf(t_left, t); // on the left
    if (t_left > t_right)
      return false;
  }
  if (direction_opt) {
    result = line.point +
             (orca_dot(opt_velocity, line.direction) > 0.0f ? t_right : t_left) * line.direction;
  } else {
    const float t = orca_dot(line.direction, opt_velocity - line.point);
    const float clamped = t < t_left ? t_left : (t > t_right ? t_right : t);
    result = line.point + clamped * line.direction;
  }
  return true;
}

/// RVO2's linearProgram2: the point of all `count` half-planes within the speed circle nearest
/// `opt_velocity` (or furthest along it when `direction_opt`, opt_velocity then a unit vector).
/// Returns `count` when it exists, otherwise the line that left no room (`result` then holds
/// the best point before it).
CROWD_HD int orca_program_2(const OrcaLine* lines, int count, float radius,
                            const glm::vec2& opt_velocity, bool direction_opt, glm::vec2& result) {
  if (direction_opt)
    result = opt_velocity * radius;
  else if (orca_dot(opt_velocity, opt_velocity) > radius * radius)
    result = orca_unit_or(opt_velocity, glm::vec2(0.0f)) * radius;
  else
    result = opt_velocity;
  for (int i = 0; i < count; ++i) {
    if (orca_det(lines[i].direction, lines[i].point - result) > 0.0f) {
      const glm::vec2 before = result;
      if (!orca_program_1(lines, i, radius, opt_velocity, direction_opt, result)) {
        result = before;
        return i;
      }
    }
  }
  return count;
}

/// RVO2's linearProgram3: from line `begin_line` on, where the 2D program found no room, the
/// velocity that least violates the agent half-planes (lines from `obstacle_lines` on), keeping
/// the obstacle half-planes [0, obstacle_lines) hard. `projected` has room for `count` lines.
CROWD_HD void orca_program_3(const OrcaLine* lines, int count, int obstacle_lines, int begin_line,
                             float radius, OrcaLine* projected, glm::vec2& result) {
  float distance = 0.0f;
  for (int i = begin_line; i < count; ++i) {
    if (!(orca_det(lines[i].direction, lines[i].point - result) > distance))
      continue; // satisfied within the violation reached so far
    int projected_count = 0;
    for (int j = 0; j < obstacle_lines; ++j)
      projected[projected_count++] = lines[j];
    for (int j = obstacle_lines; j < i; ++j) {
      OrcaLine line;
      const float determinant = orca_det(lines[i].direction, lines[j].direction);
      if (fabsf(determinant) <= kOrcaEpsilon) {
        if (orca_dot(lines[i].direction, lines[j].direction) > 0.0f)
          continue; // parallel, same way
        line.point = 0.5f * (lines[i].point + lines[j].point);
      } else {
        line.point = lines[i].point +
                     (orca_det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                         lines[i].direction;
      }
      line.direction = orca_unit_or(lines[j].direction - lines[i].direction, glm::vec2(0.0f));
      projected[projected_count++] = line;
    }
    const glm::vec2 before = result;
    if (orca_program_2(projected, projected_count, radius,
                       glm::vec2(-lines[i].direction.y, lines[i].direction.x), true,
                       result) < projected_count) {
      // In principle impossible (the result is feasible by construction): float rounding.
      result = before;
    }
    distance = orca_det(lines[i].direction, lines[i].point - result);
  }
}

/// Leg directions of a vertex at `relative_position` seen by a disc of `radius`
/// (RVO2's leftLegDirection and rightLegDirection of one vertex).
CROWD_HD glm::vec2 orca_left_leg(const glm::vec2& p, float dist_sq, float radius) {
  const float leg = sqrtf(dist_sq - radius * radius);
  return glm::vec2(p.x * leg - p.y * radius, p.x * radius + p.y * leg) / dist_sq;
}
CROWD_HD glm::vec2 orca_right_leg(const glm::vec2& p, float dist_sq, float radius) {
  const float leg = sqrtf(dist_sq - radius * radius);
  return glm::vec2(p.x * leg + p.y * radius, -p.x * radius + p.y * leg) / dist_sq;
}

/// The half-plane of a neighbour at `relative_position` (its centre minus the agent's) with
/// `relative_velocity` (the agent's velocity minus its), discs of `combined_radius`
/// (RVO2's computeNewVelocity, agent part). `fallback` is the direction to push apart when the
/// two stand on one spot with no relative motion.
CROWD_HD OrcaLine orca_agent_line(const glm::vec2& velocity, const glm::vec2& relative_position,
                                  const glm::vec2& relative_velocity, float combined_radius,
                                  float inv_time_horizon, float inv_time_step,
                                  const glm::vec2& fallback) {
  const float dist_sq = orca_dot(relative_position, relative_position);
  const float combined_radius_sq = combined_radius * combined_radius;
  OrcaLine line;
  glm::vec2 u;
  if (dist_sq > combined_radius_sq) {
    // No collision. w: from the cut-off centre to the relative velocity.
    const glm::vec2 w = relative_velocity - inv_time_horizon * relative_position;
    const float w_length_sq = orca_dot(w, w);
    const float dot_product_1 = orca_dot(w, relative_position);
    if (dot_product_1 < 0.0f && dot_product_1 * dot_product_1 > combined_radius_sq * w_length_sq) {
      // Project on the cut-off circle.
      const float w_length = sqrtf(w_length_sq);
      const glm::vec2 unit_w = w / w_length;
      line.direction = glm::vec2(unit_w.y, -unit_w.x);
      u = (combined_radius * inv_time_horizon - w_length) * unit_w;
    } else {
      // Project on a leg.
      line.direction = orca_det(relative_position, w) > 0.0f
                           ? orca_left_leg(relative_position, dist_sq, combined_radius)
                           : -orca_right_leg(relative_position, dist_sq, combined_radius);
      const float dot_product_2 = orca_dot(relative_velocity, line.direction);
      u = dot_product_2 * line.direction - relative_velocity;
    }
  } else {
    // Already overlapping: project on the cut-off circle of one time step.
    const glm::vec2 w = relative_velocity - inv_time_step * relative_position;
    const float w_length = sqrtf(orca_dot(w, w));
    const glm::vec2 unit_w = w_length > 0.0f ? w / w_length : fallback;
    line.direction = glm::vec2(unit_w.y, -unit_w.x);
    u = (combined_radius * inv_time_step - w_length) * unit_w;
  }
  line.point = velocity + 0.5f * u;
  return line;
}

/// Whether the velocity obstacle of the segment with ends at `relative_1` and `relative_2` is
/// already covered by one of `lines` (RVO2's alreadyCovered test).
CROWD_HD bool orca_segment_covered(const OrcaLine* lines, int count, const glm::vec2& relative_1,
                                   const glm::vec2& relative_2, float inv_time_horizon,
                                   float radius) {
  for (int j = 0; j < count; ++j) {
    if (orca_det(inv_time_horizon * relative_1 - lines[j].point, lines[j].direction) -
                inv_time_horizon * radius >=
            -kOrcaEpsilon &&
        orca_det(inv_time_horizon * relative_2 - lines[j].point, lines[j].direction) -
                inv_time_horizon * radius >=
            -kOrcaEpsilon)
      return true;
  }
  return false;
}

/// The half-plane of wall segment a->b (walkable side to the right of a->b, where the agent
/// stands) for an agent at `position` with `velocity` (RVO2's computeNewVelocity, obstacle
/// part, for a two-vertex obstacle: both ends convex, each end's neighbour the other end).
/// Returns false when the segment adds no half-plane.
CROWD_HD bool orca_segment_line(const glm::vec2& position, const glm::vec2& velocity,
                                const glm::vec2& a, const glm::vec2& b, float inv_time_horizon,
                                const OrcaLine* lines, int count, OrcaLine& line) {
  constexpr float radius = 0.0f; // the navmesh boundary is inset by the agent's radius already
  const glm::vec2 edge = b - a;
  const float edge_length_sq = orca_dot(edge, edge);
  if (!(edge_length_sq > 0.0f))
    return false;
  const glm::vec2 relative_1 = a - position;
  const glm::vec2 relative_2 = b - position;
  const float s = orca_dot(-relative_1, edge) / edge_length_sq;
  // RVO2's obstacle query: only an edge the agent stands to the right of (leftOf < 0), or on:
  // with radius 0, the corridor move leaves agents exactly on the boundary, where RVO2's
  // collision case below must still hold them off it. Not an edge whose line merely passes
  // through the agent beyond its end: the far face of a door, in line with the face the agent
  // stands on, would otherwise bar the way into the door (its end-on velocity obstacle, a ray
  // at radius 0, becomes a half-plane).
  const float side = orca_det(relative_1, edge);
  if (!(side < 0.0f || (side == 0.0f && s >= 0.0f && s <= 1.0f)))
    return false;
  if (orca_segment_covered(lines, count, relative_1, relative_2, inv_time_horizon, radius))
    return false;

  const glm::vec2 unit_dir = edge / sqrtf(edge_length_sq); // a's direction to its next vertex
  const glm::vec2 unit_dir_2 = -unit_dir;                  // b's, back to a
  const float dist_sq_1 = orca_dot(relative_1, relative_1);
  const float dist_sq_2 = orca_dot(relative_2, relative_2);
  const float radius_sq = radius * radius;
  const glm::vec2 off_line = -relative_1 - s * edge;
  const float dist_sq_line = orca_dot(off_line, off_line);

  // On the segment (radius 0: exactly on it): no velocity into the wall.
  if (s < 0.0f && dist_sq_1 <= radius_sq) {
    line.point = glm::vec2(0.0f);
    line.direction = orca_unit_or(glm::vec2(-relative_1.y, relative_1.x), -unit_dir);
    return true;
  }
  if (s > 1.0f && dist_sq_2 <= radius_sq) {
    if (!(orca_det(relative_2, unit_dir_2) >= 0.0f))
      return false;
    line.point = glm::vec2(0.0f);
    line.direction = orca_unit_or(glm::vec2(-relative_2.y, relative_2.x), -unit_dir);
    return true;
  }
  if (s >= 0.0f && s < 1.0f && dist_sq_line <= radius_sq) {
    line.point = glm::vec2(0.0f);
    line.direction = -unit_dir;
    return true;
  }

  // No collision: the legs. Seen end-on, both come from one vertex (RVO2 then makes obstacle1
  // and obstacle2 that vertex). The unit directions RVO2 reads, for a two-vertex obstacle a, b
  // (a.next = a.prev = b): obstacle1's own, its previous vertex's, and obstacle2's own.
  bool single_vertex = false;
  glm::vec2 left_vertex = relative_1, right_vertex = relative_2;
  glm::vec2 obstacle1_dir = unit_dir, left_neighbor_dir = unit_dir_2, obstacle2_dir = unit_dir_2;
  glm::vec2 left_leg, right_leg;
  if (s < 0.0f && dist_sq_line <= radius_sq) {
    single_vertex = true; // a alone
    right_vertex = relative_1;
    obstacle2_dir = unit_dir;
    left_leg = orca_left_leg(relative_1, dist_sq_1, radius);
    right_leg = orca_right_leg(relative_1, dist_sq_1, radius);
  } else if (s > 1.0f && dist_sq_line <= radius_sq) {
    single_vertex = true; // b alone
    left_vertex = relative_2;
    obstacle1_dir = unit_dir_2;
    left_neighbor_dir = unit_dir;
    left_leg = orca_left_leg(relative_2, dist_sq_2, radius);
    right_leg = orca_right_leg(relative_2, dist_sq_2, radius);
  } else {
    left_leg = orca_left_leg(relative_1, dist_sq_1, radius);
    right_leg = orca_right_leg(relative_2, dist_sq_2, radius);
  }
  // A leg never points into the neighbouring edge of a convex vertex: that edge's cut-off line
  // is taken instead, and a velocity projected on such a foreign leg adds no half-plane.
  bool left_foreign = false, right_foreign = false;
  if (orca_det(left_leg, -left_neighbor_dir) >= 0.0f) {
    left_leg = -left_neighbor_dir;
    left_foreign = true;
  }
  if (orca_det(right_leg, obstacle2_dir) <= 0.0f) {
    right_leg = obstacle2_dir;
    right_foreign = true;
  }

  // Project the current velocity on the velocity obstacle: on a cut-off circle (a point of the
  // cut-off segment's ends), on the cut-off segment, or on a leg, whichever is nearest.
  const glm::vec2 left_cutoff = inv_time_horizon * left_vertex;
  const glm::vec2 right_cutoff = inv_time_horizon * right_vertex;
  const glm::vec2 cutoff_vec = right_cutoff - left_cutoff;
  const float t = single_vertex ? 0.5f
                                : orca_dot(velocity - left_cutoff, cutoff_vec) /
                                      orca_dot(cutoff_vec, cutoff_vec);
  const float t_left = orca_dot(velocity - left_cutoff, left_leg);
  const float t_right = orca_dot(velocity - right_cutoff, right_leg);
  // Where the velocity sits on a cut-off centre (radius 0): turn away from the wall.
  const glm::vec2 into_wall = -glm::vec2(unit_dir.y, -unit_dir.x);
  if ((t < 0.0f && t_left < 0.0f) || (single_vertex && t_left < 0.0f && t_right < 0.0f)) {
    const glm::vec2 unit_w = orca_unit_or(velocity - left_cutoff, -into_wall);
    line.direction = glm::vec2(unit_w.y, -unit_w.x);
    line.point = left_cutoff + radius * inv_time_horizon * unit_w;
    return true;
  }
  if (t > 1.0f && t_right < 0.0f) {
    const glm::vec2 unit_w = orca_unit_or(velocity - right_cutoff, -into_wall);
    line.direction = glm::vec2(unit_w.y, -unit_w.x);
    line.point = right_cutoff + radius * inv_time_horizon * unit_w;
    return true;
  }
  const glm::vec2 off_cutoff = velocity - (left_cutoff + t * cutoff_vec);
  const glm::vec2 off_left = velocity - (left_cutoff + t_left * left_leg);
  const glm::vec2 off_right = velocity - (right_cutoff + t_right * right_leg);
  const float dist_sq_cutoff =
      (t < 0.0f || t > 1.0f || single_vertex) ? INFINITY : orca_dot(off_cutoff, off_cutoff);
  const float dist_sq_left = t_left < 0.0f ? INFINITY : orca_dot(off_left, off_left);
  const float dist_sq_right = t_right < 0.0f ? INFINITY : orca_dot(off_right, off_right);
  glm::vec2 cutoff_point = left_cutoff;
  if (dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right) {
    line.direction = -obstacle1_dir;
  } else if (dist_sq_left <= dist_sq_right) {
    if (left_foreign)
      return false;
    line.direction = left_leg;
  } else {
    if (right_foreign)
      return false;
    line.direction = -right_leg;
    cutoff_point = right_cutoff;
  }
  line.point =
      cutoff_point + radius * inv_time_horizon * glm::vec2(-line.direction.y, line.direction.x);
  return true;
}

/// Agent i's half-planes into `lines` (room for orca_line_capacity): the wall segments' first,
/// then the neighbours'. Returns their count; `obstacle_lines` receives how many are walls'.
CROWD_HD int orca_lines(int i, const AgentView& v, const OrcaAvoidanceParams& p, float dt,
                        OrcaLine* lines, int& obstacle_lines) {
  const glm::vec2 position = ground(v.position[i]);
  const glm::vec2 velocity = v.velocity[i];
  int count = 0;
  const float inv_time_horizon_obstacles = 1.0f / p.time_horizon_obstacles;
  const long long row_s = static_cast<long long>(i) * v.max_segments;
  for (int s = 0; s < v.segment_count[i]; ++s) {
    const glm::vec4 seg = v.segment[row_s + s];
    OrcaLine line;
    if (orca_segment_line(position, velocity, glm::vec2(seg.x, seg.y), glm::vec2(seg.z, seg.w),
                          inv_time_horizon_obstacles, lines, count, line))
      lines[count++] = line;
  }
  obstacle_lines = count;

  const float inv_time_horizon = 1.0f / p.time_horizon;
  const float inv_time_step = 1.0f / dt;
  const long long row_k = static_cast<long long>(i) * v.max_neighbors;
  for (int k = 0; k < v.neighbor_count[i]; ++k) {
    const int j = v.neighbor_index[row_k + k];
    // Two agents on one spot push apart along x, the lower id toward -x.
    const glm::vec2 fallback(agent_of_row(v, i) < agent_of_row(v, j) ? 1.0f : -1.0f, 0.0f);
    lines[count++] =
        orca_agent_line(velocity, ground(v.position[j]) - position, velocity - v.velocity[j],
                        v.radius[i] + v.radius[j], inv_time_horizon, inv_time_step, fallback);
  }
  return count;
}

/// Agent i's new velocity under ORCA: the velocity nearest its desired velocity, within its
/// desired speed, in every half-plane, or the least violation of the agents' when there is
/// none. `lines` and `projected` each have room for orca_line_capacity lines.
CROWD_HD glm::vec2 orca_velocity(int i, const AgentView& v, const OrcaAvoidanceParams& p, float dt,
                                 OrcaLine* lines, OrcaLine* projected) {
  int obstacle_lines = 0;
  const int count = orca_lines(i, v, p, dt, lines, obstacle_lines);
  const float max_speed = v.desired_speed[i];
  glm::vec2 result(0.0f);
  const int failed = orca_program_2(lines, count, max_speed, v.desired_velocity[i], false, result);
  if (failed < count)
    orca_program_3(lines, count, obstacle_lines, failed, max_speed, projected, result);
  return result;
}

} // namespace crowd

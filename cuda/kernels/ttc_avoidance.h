// Stage 6 for the agents of the time-to-collision model (kAvoidanceTtc): a fan of velocity
// samples around a reference direction, each scored by how soon it would collide with the
// agent's colliders and walls, by how close it stays to the desired and to the previous
// velocity, the way the middleware navigation of many shipped games steers its crowds. The
// safety of a sample is smoothed with its neighbours' in the fan, so that a safe sample a few
// degrees from an unsafe one is not picked; an agent about to collide stops and waits, and one
// blocked too long forces its way for a while.
//
// Shape: one block per agent, one thread per sample, through the block interface of
// cuda/kernels/avoidance.h: the colliders, walls and fan directions are prepared in the block's
// scratch, each thread computes its samples' time-to-collision ratios into shared memory, then
// their smoothed ratios from its neighbours', and the best score is the block's argmin. The
// per-agent state (collider list, stop and passage clocks) is TtcState.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/common/hd.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/avoidance_sampler.h"
#include "cuda/kernels/corridor_sides.h"
#include "cuda/kernels/geometry.h"

#include <cfloat>

namespace crowd {

/// Directions of the fan (sample_count, clamped to [1, kMaxTtcDirections]).
CROWD_HD int ttc_direction_count(const TtcAvoidanceParams& p) {
  return p.sample_count < 1
             ? 1
             : (p.sample_count > kMaxTtcDirections ? kMaxTtcDirections : p.sample_count);
}

/// Speed rings of the fan: the desired speed, and its half when slowing down is on.
CROWD_HD int ttc_ring_count(const TtcAvoidanceParams& p) {
  return p.enable_slowing_down ? kTtcSpeedRings : 1;
}

/// Samples of the fan: ring after ring of directions, then the zero velocity when stopping is
/// on. At most kMaxTtcSamples.
CROWD_HD int ttc_sample_count(const TtcAvoidanceParams& p) {
  return ttc_direction_count(p) * ttc_ring_count(p) + (p.enable_stop ? 1 : 0);
}

/// The share of the desired speed of speed ring `ring`: 1, 1/2.
CROWD_HD float ttc_ring_speed(int ring) {
  return ring == 0 ? 1.0f : 0.5f;
}

/// Whether the fan goes all round, so that its first and last directions are neighbours.
CROWD_HD bool ttc_full_circle(const TtcAvoidanceParams& p) {
  return p.angle_span >= 360.0f;
}

/// The angle between neighbouring directions of the fan, degrees.
CROWD_HD float ttc_direction_step_degrees(const TtcAvoidanceParams& p) {
  const int n = ttc_direction_count(p);
  if (ttc_full_circle(p))
    return 360.0f / static_cast<float>(n);
  return n > 1 ? p.angle_span / static_cast<float>(n - 1) : 0.0f;
}

/// The angle of the fan's first direction from the reference direction, degrees (negative:
/// clockwise seen from above, +y up, in x/z).
CROWD_HD float ttc_first_direction_degrees(const TtcAvoidanceParams& p) {
  return -0.5f * static_cast<float>(ttc_direction_count(p) - 1) * ttc_direction_step_degrees(p);
}

/// A unit vector along the first of `candidates` longer than 1e-4, or +x.
CROWD_HD glm::vec2 first_direction(const glm::vec2* candidates, int count) {
  for (int k = 0; k < count; ++k) {
    const glm::vec2 c = candidates[k];
    const float length = sqrtf(c.x * c.x + c.y * c.y);
    if (length > 1e-4f)
      return c * (1.0f / length);
  }
  return glm::vec2(1.0f, 0.0f);
}

/// The direction agent i's fan is centred on: in corridor mode, across the corridor section
/// between its current two portals (AgentView::corridor_direction, zero where the corridor has
/// no portal left); along the path toward the next corner (the preferred velocity's direction);
/// then the desired velocity's, the current velocity's, +x.
CROWD_HD glm::vec2 ttc_reference_direction(int i, const AgentView& v, const TtcAvoidanceParams& p) {
  const glm::vec2 corridor = p.reference == kTtcCorridor && v.corridor_direction != nullptr
                                 ? v.corridor_direction[i]
                                 : glm::vec2(0.0f);
  const glm::vec2 candidates[] = {corridor, v.preferred_velocity[i], v.desired_velocity[i],
                                  v.velocity[i]};
  return first_direction(candidates, 4);
}

/// The fan's unit directions into `directions` [ttc_direction_count]: the reference turned to
/// the first direction, then turned by the step again and again. `rotation` holds the cosines
/// and sines of those two angles, computed once per parameter set on the host
/// (pattern_rotation, cuda/core/avoidance_pattern.h), so that both executors use the same floats.
CROWD_HD void build_ttc_fan(glm::vec2 reference, const PatternRotation& rotation, int count,
                            glm::vec2* directions) {
  const auto turn = [](glm::vec2 d, float c, float s) {
    return glm::vec2(d.x * c - d.y * s, d.x * s + d.y * c);
  };
  glm::vec2 d = turn(reference, rotation.cos_half_div, rotation.sin_half_div);
  for (int k = 0; k < count; ++k) {
    directions[k] = d;
    d = turn(d, rotation.cos_div, rotation.sin_div);
  }
}

/// The colliders are met kTtcColliderLanes at a time, read from one array per field (a
/// structure of arrays in the block's scratch), so that the CPU's compiler computes a group in
/// one SSE vector: the sample loop was four fifths of the model's time with one collider at a
/// time. A row is padded to whole groups with entries that are never met (offset 0: nothing
/// lies ahead). The GPU's thread runs the same group loop.
inline constexpr int kTtcColliderLanes = 4;

/// The fields of a collider in the table, each an array of ttc_collider_capacity floats.
enum TtcColliderField : int {
  kTtcOffsetX,   ///< Its offset from the agent, x: SamplerCircle::offset
  kTtcOffsetY,   ///< and z.
  kTtcVelocityX, ///< Its velocity, x
  kTtcVelocityY, ///< and z.
  kTtcGapSq,     ///< Squared offset minus squared reach; within the reach, minus touch instead.
  kTtcStanding,  ///< 1 for a standing agent, else 0.
  kTtcColliderFields
};

/// One field's length in the colliders' table: max_neighbors rounded up to whole groups.
CROWD_HD constexpr int ttc_collider_capacity(int max_neighbors) {
  return (max_neighbors + kTtcColliderLanes - 1) / kTtcColliderLanes * kTtcColliderLanes;
}

/// Field `field` of the colliders' table `table` whose fields are `capacity` long.
CROWD_HD float* ttc_collider_field(float* table, int capacity, TtcColliderField field) {
  return table + static_cast<int>(field) * capacity;
}
CROWD_HD const float* ttc_collider_field(const float* table, int capacity, TtcColliderField field) {
  return table + static_cast<int>(field) * capacity;
}

/// Everything a sample's score reads besides its velocity.
struct TtcContext {
  const TtcAvoidanceParams* params = nullptr;
  glm::vec2 desired_velocity{0.0f};
  glm::vec2 previous_velocity{0.0f};
  float speed = 0.0f;       ///< The fan's speed: the desired speed.
  float inv_speed = 0.0f;   ///< 1 / speed
  float inv_horizon = 0.0f; ///< 1 / time_horizon
  float dt = 0.0f;
  const glm::vec2* directions = nullptr; ///< [ttc_direction_count]
  const float* wall_time = nullptr;      ///< [ttc_direction_count] ttc_wall_time at full speed
  /// The colliders' table (ttc_collider_field), and how many of its entries the sample loop
  /// reads: the collider count rounded up to whole groups of lanes.
  const float* colliders = nullptr;
  int collider_capacity = 0; ///< ttc_collider_capacity(max_neighbors): one field's length
  int collider_count = 0;
  const SamplerSegment* segments = nullptr;
  int segment_count = 0;

  /// Sample s's velocity.
  CROWD_HD glm::vec2 velocity(int s) const {
    const int n = ttc_direction_count(*params);
    if (s >= n * ttc_ring_count(*params))
      return glm::vec2(0.0f);
    return directions[s % n] * (speed * ttc_ring_speed(s / n));
  }
};

/// The earliest time velocity `vc` collides, capped at the horizon; the same leaving out
/// standing colliders; and whether it crosses a wall within the step (it would leave the
/// navmesh).
struct TtcTime {
  float time = 0.0f;
  float time_with_movers = 0.0f;
  bool leaves = false;
};

/// Time to collision of velocity `vc` against the colliders ahead of it (prepared with the radius
/// of a moving one enlarged by safety_distance, a standing one's not, so that an agent may walk
/// up to a standing one as to the end of a queue; a collider keeps its velocity; within the
/// enlarged reach, the time to touching: 0 when touching and closing, none when touching and not),
/// capped at the horizon; the walls are ttc_wall_time's.
CROWD_HD TtcTime ttc_time(const TtcContext& ctx, glm::vec2 vc) {
  const float horizon = ctx.params->time_horizon;
  TtcTime result{horizon, horizon, false};
  const int capacity = ctx.collider_capacity;
  const float* offset_x = ttc_collider_field(ctx.colliders, capacity, kTtcOffsetX);
  const float* offset_y = ttc_collider_field(ctx.colliders, capacity, kTtcOffsetY);
  const float* velocity_x = ttc_collider_field(ctx.colliders, capacity, kTtcVelocityX);
  const float* velocity_y = ttc_collider_field(ctx.colliders, capacity, kTtcVelocityY);
  const float* gap = ttc_collider_field(ctx.colliders, capacity, kTtcGapSq);
  const float* standing = ttc_collider_field(ctx.colliders, capacity, kTtcStanding);
  for (int group = 0; group < ctx.collider_count; group += kTtcColliderLanes) {
    float time[kTtcColliderLanes];
    float walker[kTtcColliderLanes];
    // Branch-free, and each lane alone, so that the compiler makes one vector of the lanes
    // (which colliders a sample meets is data the branch predictor cannot learn besides).
    CROWD_SIMD_LOOP
    for (int lane = 0; lane < kTtcColliderLanes; ++lane) {
      const int k = group + lane;
      const float rx = vc.x - velocity_x[k];
      const float ry = vc.y - velocity_y[k];
      // Only what lies ahead of the sample: a collider behind it that would run into the agent
      // is for that collider to avoid (it would otherwise spoil every sample of an agent with
      // someone faster behind, the standing one too). And only while closing.
      const float ahead = vc.x * offset_x[k] + vc.y * offset_y[k];
      const float closing = rx * offset_x[k] + ry * offset_y[k]; // b
      const float gap_sq = gap[k];
      const float speed_sq = rx * rx + ry * ry; // a
      const float discriminant = closing * closing - speed_sq * gap_sq;
      const bool touching = gap_sq < 0.0f;
      // tmin = (b - sqrt(d)) / a, in [0, b / a] when not touching (gap_sq >= 0). Computed in
      // every lane, unguarded, for the vector: where d < 0 or a = 0 it is NaN or infinite, but
      // there the lane does not meet (a = 0 leaves b = 0), or touches, and takes another value.
      const float first_touch = (closing - sqrtf(discriminant)) / speed_sq;
      const bool meets = (ahead > 0.0f) & (closing > 0.0f) & (touching | (discriminant >= 0.0f));
      time[lane] = meets ? (touching ? 0.0f : first_touch) : horizon;
      walker[lane] = standing[k] != 0.0f ? horizon : time[lane];
    }
    for (int lane = 0; lane < kTtcColliderLanes; ++lane) {
      result.time = time[lane] < result.time ? time[lane] : result.time;
      result.time_with_movers =
          walker[lane] < result.time_with_movers ? walker[lane] : result.time_with_movers;
    }
  }
  return result;
}

/// The first time velocity `vc` (a direction of the fan at the fan's speed) reaches a wall of
/// the agent's wall row: the ray of vc over the horizon, as DetourCrowd's sampler tests walls
/// (within 1 cm of a wall and not moving away from it: 0); FLT_MAX when it reaches none. A
/// slower sample in the same direction reaches the same wall after this time over its share of
/// the speed (ttc_sample_time), so the walls are met once per direction.
CROWD_HD float ttc_wall_time(const TtcContext& ctx, glm::vec2 vc) {
  const float horizon = ctx.params->time_horizon;
  const glm::vec2 ray = vc * horizon;
  float nearest = FLT_MAX;
  for (int k = 0; k < ctx.segment_count; ++k) {
    const SamplerSegment& seg = ctx.segments[k];
    if (seg.touch) {
      const glm::vec2 away{-seg.direction.y, seg.direction.x};
      if (!(away.x * vc.x + away.y * vc.y < 0.0f))
        nearest = 0.0f;
      continue;
    }
    // The ray hits the segment where t = perp(w, v) / d and s = perp(ray, w) / d are both in
    // [0, 1], d = perp(ray, v) (intersect_ray_segment_from).
    const float d = perp_2d(ray, seg.direction);
    if (fabsf(d) < 1e-6f)
      continue;
    const float along_ray = seg.perp_direction_from_p;
    const float along_segment = perp_2d(ray, seg.from_p);
    const bool hits =
        d > 0.0f
            ? (along_ray >= 0.0f && along_ray <= d && along_segment >= 0.0f && along_segment <= d)
            : (along_ray <= 0.0f && along_ray >= d && along_segment <= 0.0f && along_segment >= d);
    if (hits) {
      const float t = along_ray / d * horizon;
      nearest = t < nearest ? t : nearest;
    }
  }
  return nearest;
}

/// Sample s's times to collision: ttc_time against the colliders, and the walls from its
/// direction's wall time (ctx.wall_time) scaled by its speed ring; a sample that reaches a wall
/// within the step leaves the navmesh (in corridor mode, or the corridor: its sides are walls
/// too). The zero sample reaches no wall.
CROWD_HD TtcTime ttc_sample_time(const TtcContext& ctx, int s) {
  TtcTime result = ttc_time(ctx, ctx.velocity(s));
  const int n = ttc_direction_count(*ctx.params);
  if (s >= n * ttc_ring_count(*ctx.params))
    return result;
  const float wall = ctx.wall_time[s % n] / ttc_ring_speed(s / n);
  if (wall <= ctx.params->time_horizon) {
    result.leaves = wall <= ctx.dt;
    result.time = wall < result.time ? wall : result.time;
    result.time_with_movers = wall < result.time_with_movers ? wall : result.time_with_movers;
  }
  return result;
}

/// The ratio of a sample whose velocity leaves the navmesh: never taken, 0 for its neighbours.
inline constexpr float kTtcLeaves = -1.0f;

/// A sample's time-to-collision ratio from its times (ttc_sample_time): its time over the
/// horizon, in [0, 1] (1 safest), or kTtcLeaves.
CROWD_HD float ttc_ratio(const TtcContext& ctx, const TtcTime& t) {
  return t.leaves ? kTtcLeaves : t.time * ctx.inv_horizon;
}

/// Sample s's smoothed ratio: the mean of its own ratio and its neighbours' in its speed ring
/// (the directions either side; round the end of a full circle), a neighbour that leaves the
/// navmesh counting 0; the zero sample keeps its own, and a sample that leaves stays kTtcLeaves.
CROWD_HD float ttc_smoothed_ratio(const TtcAvoidanceParams& p, const float* ratio, int s) {
  const int n = ttc_direction_count(p);
  if (s >= n * ttc_ring_count(p) || ratio[s] < 0.0f)
    return ratio[s];
  const int ring = s / n;
  const int k = s % n;
  const bool wrap = ttc_full_circle(p) && n > 2;
  float sum = ratio[s];
  int terms = 1;
  const int left = k > 0 ? k - 1 : (wrap ? n - 1 : -1);
  const int right = k < n - 1 ? k + 1 : (wrap ? 0 : -1);
  if (left >= 0) {
    const float r = ratio[ring * n + left];
    sum += r > 0.0f ? r : 0.0f;
    ++terms;
  }
  if (right >= 0) {
    const float r = ratio[ring * n + right];
    sum += r > 0.0f ? r : 0.0f;
    ++terms;
  }
  // Times the reciprocal, not divided: a division is a call on the GPU, and the registers live
  // across it spilled.
  return sum * (terms == 3 ? 1.0f / 3.0f : (terms == 2 ? 0.5f : 1.0f));
}

/// How close `velocity` is to `target`, from 1 (equal) down to 0 at `speed` apart (standing
/// instead of walking on at the desired speed: 0); `inv_speed` is 1 / speed.
CROWD_HD float ttc_closeness(glm::vec2 velocity, glm::vec2 target, float inv_speed) {
  const float c = 1.0f - distance_2d(velocity, target) * inv_speed;
  return c > 0.0f ? c : 0.0f;
}

/// Sample s's score from its smoothed ratio: the three influences' weighted sum.
CROWD_HD float ttc_score(const TtcContext& ctx, int s, float smoothed) {
  const TtcAvoidanceParams& p = *ctx.params;
  const glm::vec2 vc = ctx.velocity(s);
  return p.time_to_collision_influence * smoothed +
         p.desired_velocity_influence * ttc_closeness(vc, ctx.desired_velocity, ctx.inv_speed) +
         p.previous_velocity_influence * ttc_closeness(vc, ctx.previous_velocity, ctx.inv_speed);
}

/// The fan's samples for the block's argmin (cuda/kernels/avoidance.h), scored from their
/// smoothed ratios in shared memory: the penalty is the negated score, so the argmin is the
/// first sample of highest score; a sample that leaves the navmesh is skipped (FLT_MAX). No
/// early exits: every sample is taken whenever reached if it beats the best so far.
struct TtcSamples {
  const TtcContext* ctx = nullptr;
  const float* smoothed = nullptr;

  CROWD_HD bool velocity(int s, glm::vec2& vc) const {
    vc = ctx->velocity(s);
    return smoothed[s] >= 0.0f;
  }
  CROWD_HD float penalty(int s, float) const {
    return smoothed[s] < 0.0f ? FLT_MAX : -ttc_score(*ctx, s, smoothed[s]);
  }
  CROWD_HD float full_penalty(int s, SampleTerms&) const { return penalty(s, FLT_MAX); }
  CROWD_HD bool taken_at(float full, const SampleTerms&, float bound) const { return full < bound; }
  CROWD_HD bool taken_whenever_reached(float full, const SampleTerms&) const {
    return full < FLT_MAX;
  }
};

/// Rounds a clock of whole steps: a clock still runs while more than half a step is left.
CROWD_HD bool ttc_clock_running(float remaining, float dt) {
  return remaining > 0.5f * dt;
}

/// The end of agent i's step on the model: its new velocity, and its clocks. A wanted move
/// that ends in standing still counts as blocked; blocked long enough, with forced passage on,
/// the next steps ignore the colliders.
CROWD_HD void finish_ttc_step(int i, const AgentView& v, const TtcAvoidanceParams& p,
                              TtcState state, glm::vec2 chosen, float dt) {
  if (chosen.x == 0.0f && chosen.y == 0.0f)
    state.blocked_time += dt;
  else
    state.blocked_time = 0.0f;
  if (p.enable_force_passage && !ttc_clock_running(state.force_time, dt) &&
      state.blocked_time >= p.wait_passage_time_limit - 0.5f * dt) {
    state.force_time = p.force_passage_time_limit;
    state.stop_time = 0.0f;
    state.blocked_time = 0.0f;
  }
  v.ttc_state[i] = state;
  v.new_velocity[i] = chosen;
}

/// `state` with its running forced passage's clock run down by a step (to 0 at its end).
CROWD_HD TtcState run_down_force_clock(TtcState state, float dt) {
  state.force_time -= dt;
  if (!ttc_clock_running(state.force_time, dt))
    state.force_time = 0.0f;
  return state;
}

/// Entry t of the colliders' table (fields `capacity` long) for agent j as the agent sees it:
/// its offset and velocity, its reach (radii plus the safety distance for a moving agent; a
/// standing one's without, so that an agent may walk up to it as to the end of a queue) as the
/// squared gap, or within that reach the gap to touching. j < 0 (padding) and an agent gone
/// since it was collected get offset 0, which the sample loop never meets.
CROWD_HD void write_ttc_collider(float* table, int capacity, int t, int j,
                                 const SamplerAgent& agent, const AgentView& v,
                                 const TtcAvoidanceParams& p) {
  float offset_x = 0.0f, offset_y = 0.0f, velocity_x = 0.0f, velocity_y = 0.0f, gap_sq = 0.0f;
  bool standing = false;
  if (j >= 0 && v.mode[j] != kAgentInactive) {
    standing = v.mode[j] == kAgentStanding;
    const glm::vec3 position = v.position[j];
    offset_x = position.x - agent.position.x;
    offset_y = position.z - agent.position.z;
    velocity_x = v.velocity[j].x;
    velocity_y = v.velocity[j].y;
    const float offset_sq = offset_x * offset_x + offset_y * offset_y;
    const float reach = agent.radius + (v.radius[j] + (standing ? 0.0f : p.safety_distance));
    const float touch = agent.radius + v.radius[j];
    const float reach_gap = offset_sq - reach * reach;
    gap_sq = reach_gap < 0.0f ? offset_sq - touch * touch : reach_gap;
  }
  ttc_collider_field(table, capacity, kTtcOffsetX)[t] = offset_x;
  ttc_collider_field(table, capacity, kTtcOffsetY)[t] = offset_y;
  ttc_collider_field(table, capacity, kTtcVelocityX)[t] = velocity_x;
  ttc_collider_field(table, capacity, kTtcVelocityY)[t] = velocity_y;
  ttc_collider_field(table, capacity, kTtcGapSq)[t] = gap_sq;
  ttc_collider_field(table, capacity, kTtcStanding)[t] = standing ? 1.0f : 0.0f;
}

/// Chooses agent i's new velocity by time-to-collision sampling. Every thread of the block
/// calls this with the same i; `p` are the agent's parameters where they are stored (read in
/// place: a copy costs the kernel registers), `rotation` their fan rotations.
template <class Block, class Scratch>
CROWD_HD void ttc_choose_velocity(Block& block, int i, const AgentView& v, const Scratch& scratch,
                                  const TtcAvoidanceParams& p, const PatternRotation& rotation,
                                  float dt) {
  TtcState state = v.ttc_state[i];
  const bool forced = ttc_clock_running(state.force_time, dt);
  if (forced) {
    state = run_down_force_clock(state, dt);
  } else if (ttc_clock_running(state.stop_time, dt)) {
    // Stopped: wait out the clock.
    block.for_each_thread(1, [&](int) {
      state.stop_time -= dt;
      finish_ttc_step(i, v, p, state, glm::vec2(0.0f), dt);
    });
    return;
  }
  const glm::vec2 desired = v.desired_velocity[i];
  const float desired_length = sqrtf(desired.x * desired.x + desired.y * desired.y);
  const float speed = desired_length < v.desired_speed[i] ? desired_length : v.desired_speed[i];
  if (!(speed > 0.0f)) {
    // Nowhere to go: stand, and not as one blocked.
    block.for_each_thread(1, [&](int) {
      state.blocked_time = 0.0f;
      v.ttc_state[i] = state;
      v.new_velocity[i] = glm::vec2(0.0f);
    });
    return;
  }

  TtcContext ctx;
  ctx.params = &p;
  ctx.desired_velocity = desired;
  ctx.previous_velocity = v.velocity[i];
  ctx.speed = speed;
  ctx.inv_speed = 1.0f / speed;
  ctx.inv_horizon = 1.0f / p.time_horizon;
  ctx.dt = dt;
  ctx.directions = scratch.pattern;
  ctx.wall_time = scratch.ttc_wall_time;
  ctx.colliders = scratch.ttc_colliders;
  ctx.collider_capacity = ttc_collider_capacity(v.max_neighbors);
  const int colliders = forced ? 0 : state.collider_count; // a forced passage ignores them
  ctx.collider_count = ttc_collider_capacity(colliders);   // whole groups, padding included
  ctx.segments = scratch.segments;
  // The wall row, then in corridor mode the sides of the corridor section: a sample that
  // leaves the corridor is judged as one that leaves the navmesh.
  const int walls = v.segment_count[i];
  ctx.segment_count =
      walls + (p.reference == kTtcCorridor ? corridor_side_count(v.corridors, i) : 0);

  // Colliders (radii enlarged by the safety distance), walls and the fan's directions, shared
  // by all samples.
  SamplerAgent agent; // what write_ttc_collider and prepare_segment read of it
  agent.position = v.position[i];
  agent.radius = v.radius[i];
  const long long row_k = static_cast<long long>(i) * v.max_neighbors;
  const long long row_s = static_cast<long long>(i) * v.max_segments;
  block.for_each_thread(ctx.collider_count + ctx.segment_count + 1, [&](int t) {
    if (t < ctx.collider_count) {
      write_ttc_collider(scratch.ttc_colliders, ctx.collider_capacity, t,
                         t < colliders ? static_cast<int>(v.collider_index[row_k + t]) : -1, agent,
                         v, p);
    } else if (t < ctx.collider_count + walls) {
      const glm::vec4 s = v.segment[row_s + (t - ctx.collider_count)];
      scratch.segments[t - ctx.collider_count] = prepare_segment(agent, {s.x, s.y}, {s.z, s.w});
    } else if (t < ctx.collider_count + ctx.segment_count) {
      const int side = t - ctx.collider_count - walls;
      for_each_corridor_side(v.corridors, i, [&](int k, glm::vec2 a, glm::vec2 b) {
        if (k == side)
          scratch.segments[walls + k] = prepare_segment(agent, a, b);
      });
    } else {
      build_ttc_fan(ttc_reference_direction(i, v, p), rotation, ttc_direction_count(p),
                    scratch.pattern);
    }
  });

  // One thread per direction: its wall time; then one per sample: its ratio, then its smoothed
  // ratio, then the best score.
  block.for_each_thread(ttc_direction_count(p), [&](int d) {
    scratch.ttc_wall_time[d] = ttc_wall_time(ctx, scratch.pattern[d] * speed);
  });
  const int samples = ttc_sample_count(p);
  block.for_each_thread(samples, [&](int s) {
    const TtcTime t = ttc_sample_time(ctx, s);
    scratch.ttc_ratio[s] = ttc_ratio(ctx, t);
    scratch.ttc_walker_time[s] = t.time_with_movers;
  });
  block.for_each_thread(samples, [&](int s) {
    scratch.ttc_smoothed[s] = ttc_smoothed_ratio(p, scratch.ttc_ratio, s);
  });
  const auto best = block.argmin(samples, TtcSamples{&ctx, scratch.ttc_smoothed});

  block.for_each_thread(1, [&](int) {
    glm::vec2 chosen(0.0f);
    float walker_time = p.time_horizon;
    if (best.index >= 0) {
      chosen = ctx.velocity(best.index);
      walker_time = scratch.ttc_walker_time[best.index];
    }
    // Its best move collides with a walker or a wall all the same (before smoothing): stop and
    // wait (the step it stops counts). Not for a standing agent ahead, which cannot come at it:
    // it walks up to it. A winner that stands already stops, without waiting: what comes at a
    // standing agent is for the others to avoid.
    const bool moving = chosen.x != 0.0f || chosen.y != 0.0f;
    if (!forced && p.enable_stop && moving && walker_time < p.stop_collision_time) {
      chosen = glm::vec2(0.0f);
      state.stop_time = p.stop_wait_time - dt;
    }
    finish_ttc_step(i, v, p, state, chosen, dt);
  });
}

} // namespace crowd

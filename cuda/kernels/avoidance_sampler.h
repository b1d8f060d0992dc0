// DetourCrowd's adaptive velocity sampling, one sample at a time, for one thread per sample.
// Port of dtObstacleAvoidanceQuery::prepare, processSample and the pattern of
// sampleVelocityAdaptive (DetourCrowd/Source/DetourObstacleAvoidance.cpp, recastnavigation).
// The sequential loop there keeps the first sample of lowest penalty; the kernel reproduces it
// by a block argmin whose ties go to the lowest sample index.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/common/hd.h"
#include "cuda/kernels/geometry.h"

namespace crowd {

/// A neighbour agent as an obstacle, with the side-selection vectors of `prepare`.
struct SamplerCircle {
  glm::vec3 position{0.0f};
  float radius = 0.0f;
  glm::vec2 velocity{0.0f};         ///< Its current velocity (x, z).
  glm::vec2 desired_velocity{0.0f}; ///< Its desired velocity (x, z).
  glm::vec2 direction{0.0f};        ///< dp: unit vector from the agent to this circle.
  glm::vec2 side_normal{0.0f};      ///< np: the side the agent prefers to pass on.
  /// sweep_circle_circle's velocity-free terms against the agent: the offset from the agent
  /// and its squared length minus the squared radius sum.
  glm::vec2 offset{0.0f};
  float offset_sq_minus_reach_sq = 0.0f;
};

/// A wall segment as an obstacle.
struct SamplerSegment {
  glm::vec2 p{0.0f}, q{0.0f};
  bool touch = false; ///< The agent is within 1 cm of it (special case of processSample).
  /// intersect_ray_segment's ray-free terms for a ray from the agent: q - p, the agent's
  /// position - p, and their perp_2d.
  glm::vec2 direction{0.0f}, from_p{0.0f};
  float perp_direction_from_p = 0.0f;
};

/// Everything processSample reads besides the candidate velocity.
struct SamplerAgent {
  glm::vec3 position{0.0f};
  float radius = 0.0f;
  float max_speed = 0.0f; ///< vmax of the query: the agent's desired speed this step.
  glm::vec2 velocity{0.0f};
  glm::vec2 desired_velocity{0.0f};
};

struct SamplerContext {
  SamplerAgent agent;
  AvoidanceParams params;
  float inv_max_speed = 0.0f;
  float inv_horiz_time = 0.0f;
  const SamplerCircle* circles = nullptr;
  int circle_count = 0;
  const SamplerSegment* segments = nullptr;
  int segment_count = 0;
};

CROWD_HD SamplerContext make_sampler_context(const SamplerAgent& agent,
                                             const AvoidanceParams& params) {
  SamplerContext ctx;
  ctx.agent = agent;
  ctx.params = params;
  ctx.inv_horiz_time = 1.0f / params.horiz_time;
  ctx.inv_max_speed = agent.max_speed > 0 ? 1.0f / agent.max_speed : FLT_MAX;
  return ctx;
}

/// dtObstacleAvoidanceQuery::prepare for one circle: the direction to it and the preferred
/// side, from the agent's position and desired velocity.
CROWD_HD SamplerCircle prepare_circle(const SamplerAgent& agent, glm::vec3 position, float radius,
                                      glm::vec2 velocity, glm::vec2 desired_velocity) {
  SamplerCircle c;
  c.position = position;
  c.radius = radius;
  c.velocity = velocity;
  c.desired_velocity = desired_velocity;
  // dtVnormalize is 3D, so a height difference shortens the ground direction; kept for
  // agreement with the reference. Detour divides by zero for coincident agents (NaN penalty,
  // the agent stops); we leave the direction zero instead, so the side term is simply 0.
  const glm::vec3 d = position - agent.position;
  const float len_sq = d.x * d.x + d.y * d.y + d.z * d.z;
  if (len_sq > 0.0f) {
    const float inv = 1.0f / sqrtf(len_sq);
    c.direction = {d.x * inv, d.z * inv};
  }
  c.offset = {position.x - agent.position.x, position.z - agent.position.z};
  const float reach = agent.radius + radius;
  c.offset_sq_minus_reach_sq = (c.offset.x * c.offset.x + c.offset.y * c.offset.y) - reach * reach;
  const glm::vec2 dv = desired_velocity - agent.desired_velocity;
  const float a = tri_area_2d(glm::vec2(0.0f), c.direction, dv);
  if (a < 0.01f)
    c.side_normal = {-c.direction.y, c.direction.x};
  else
    c.side_normal = {c.direction.y, -c.direction.x};
  return c;
}

/// dtObstacleAvoidanceQuery::prepare for one segment.
CROWD_HD SamplerSegment prepare_segment(const SamplerAgent& agent, glm::vec2 p, glm::vec2 q) {
  SamplerSegment s;
  s.p = p;
  s.q = q;
  constexpr float kTouchRadius = 0.01f;
  float t = 0.0f;
  s.touch =
      distance_point_segment_sqr_2d(ground(agent.position), p, q, t) < kTouchRadius * kTouchRadius;
  s.direction = {q.x - p.x, q.y - p.y};
  s.from_p = {agent.position.x - p.x, agent.position.z - p.y};
  s.perp_direction_from_p = perp_2d(s.direction, s.from_p);
  return s;
}

/// What processSample's early exits depend on, besides the bound: the sample's two velocity
/// terms and its earliest time of impact over all obstacles.
struct SampleTerms {
  float vpen = 0.0f;  ///< Penalty for straying from the desired velocity.
  float vcpen = 0.0f; ///< Penalty for straying from the current velocity.
  float tmin = 0.0f;  ///< Earliest time of impact, capped at horiz_time.
};

/// processSample's early exits at best-so-far penalty `bound`: stop before the obstacles, or
/// else stop at the first obstacle that brings the time of impact below t_threshold.
struct BoundTest {
  bool stop_now = false;
  float t_threshold = 0.0f;
};

CROWD_HD BoundTest bound_test(const AvoidanceParams& prm, float bound, float vpen, float vcpen) {
  // The time of impact below which the sample cannot beat the bound.
  const float min_pen = bound - vpen - vcpen;
  // The velocity terms alone exceed the bound. The reference goes on with a negative
  // threshold that no obstacle passes, to a full penalty that cannot beat the bound:
  // min_pen < 0 in floats means vpen + vcpen > bound exactly (rounding is monotonic), and the
  // other terms are >= 0. Stopping here gives the same argmin (~3% of the samples the
  // reference evaluates in full at the good preset).
  if (min_pen < 0.0f)
    return {true, 0.0f};
  const float t_threshold = (prm.weight_toi / min_pen - 0.1f) * prm.horiz_time;
  // "Already too much" in the reference.
  return {t_threshold - prm.horiz_time > -FLT_EPSILON, t_threshold};
}

/// processSample: the penalty of candidate velocity `vcand`. When the sample cannot score
/// below `min_penalty` by the reference's tests it returns min_penalty early (its early
/// exits); with min_penalty = FLT_MAX it never exits early and returns the full penalty, and
/// then `terms`, when given, receives what the exits would have tested (see
/// stopped_by_bound).
CROWD_HD float sample_penalty(const SamplerContext& ctx, glm::vec2 vcand, float min_penalty,
                              SampleTerms* terms = nullptr) {
  const AvoidanceParams& prm = ctx.params;
  const SamplerAgent& ag = ctx.agent;
  // Penalty for straying away from the desired and current velocities.
  const float vpen =
      prm.weight_des_vel * (distance_2d(vcand, ag.desired_velocity) * ctx.inv_max_speed);
  const float vcpen = prm.weight_cur_vel * (distance_2d(vcand, ag.velocity) * ctx.inv_max_speed);

  const BoundTest bound = bound_test(prm, min_penalty, vpen, vcpen);
  if (bound.stop_now)
    return min_penalty;
  const float t_threshold = bound.t_threshold;

  float tmin = prm.horiz_time;
  float side = 0.0f;
  int nside = 0;

  for (int i = 0; i < ctx.circle_count; ++i) {
    const SamplerCircle& cir = ctx.circles[i];
    // Reciprocal velocity obstacle: each agent takes half the avoidance.
    const glm::vec2 vab = vcand * 2.0f - ag.velocity - cir.velocity;
    // Side preference.
    const float along = (cir.direction.x * vab.x + cir.direction.y * vab.y) * 0.5f + 0.5f;
    const float across = (cir.side_normal.x * vab.x + cir.side_normal.y * vab.y) * 2.0f;
    // dtClamp(dtMin(along, across), 0, 1) as Detour writes it: comparisons, which compilers
    // inline (fminf/fmaxf were library calls on the host, 10% of this function's cost).
    const float nearer = along < across ? along : across;
    side += nearer < 0.0f ? 0.0f : (nearer > 1.0f ? 1.0f : nearer);
    nside++;

    float htmin = 0.0f, htmax = 0.0f;
    if (!sweep_circle_circle_from(cir.offset, cir.offset_sq_minus_reach_sq, vab, htmin, htmax))
      continue;
    // Overlapping obstacles: avoid more.
    if (htmin < 0.0f && htmax > 0.0f)
      htmin = -htmin * 0.5f;
    if (htmin >= 0.0f && htmin < tmin) {
      tmin = htmin;
      if (tmin < t_threshold)
        return min_penalty;
    }
  }

  for (int i = 0; i < ctx.segment_count; ++i) {
    const SamplerSegment& seg = ctx.segments[i];
    float htmin = 0.0f;
    if (seg.touch) {
      // Very close to the segment: moving away from it is free, anything else hits now.
      const glm::vec2 snorm{-seg.direction.y, seg.direction.x};
      if (snorm.x * vcand.x + snorm.y * vcand.y < 0.0f)
        continue;
      htmin = 0.0f;
    } else if (!intersect_ray_segment_from(seg.direction, seg.from_p, seg.perp_direction_from_p,
                                           vcand, htmin)) {
      continue;
    }
    // Avoid less when facing walls.
    htmin *= 2.0f;
    if (htmin < tmin) {
      tmin = htmin;
      if (tmin < t_threshold)
        return min_penalty;
    }
  }

  if (terms != nullptr)
    *terms = {vpen, vcpen, tmin};
  // Normalise the side bias so it does not dominate.
  if (nside)
    side /= static_cast<float>(nside);
  const float spen = prm.weight_side * side;
  const float tpen = prm.weight_toi * (1.0f / (0.1f + tmin * ctx.inv_horiz_time));
  return vpen + vcpen + spen + tpen;
}

/// Whether sample_penalty(ctx, v, bound) stops early, given the sample's terms from a full
/// evaluation (sample_penalty(ctx, v, FLT_MAX, &terms)). The exits are the reference's and not
/// strict bounds (the FLT_EPSILON slack, the side term left out of the threshold, rounding), so
/// now and then they turn away a sample whose full penalty is below the bound; an executor that
/// scores every sample at once must apply them in sample order to choose what the reference
/// chooses. Inside the obstacle loops the reference stops when tmin, which only decreases,
/// falls below the threshold: that happens exactly when the final tmin is below it.
CROWD_HD bool stopped_by_bound(const SamplerContext& ctx, const SampleTerms& terms, float bound) {
  const BoundTest test = bound_test(ctx.params, bound, terms.vpen, terms.vcpen);
  return test.stop_now || terms.tmin < test.t_threshold;
}

/// The adaptive pattern of sampleVelocityAdaptive: the zero sample, then `rings` rings of
/// `divs` unit directions aligned to the desired velocity (odd rings rotated by half a div).
/// `rotation` holds the cosines and sines the reference computes here with cosf/sinf
/// (PatternRotation). Writes up to kMaxPatternSamples points to `pattern` and returns how many.
CROWD_HD int build_sample_pattern(const AvoidanceParams& params, const PatternRotation& rotation,
                                  glm::vec2 desired_velocity, glm::vec2* pattern) {
  const int nd = params.adaptive_divs < 1                 ? 1
                 : params.adaptive_divs > kMaxPatternDivs ? kMaxPatternDivs
                                                          : params.adaptive_divs;
  const int nr = params.adaptive_rings < 1                  ? 1
                 : params.adaptive_rings > kMaxPatternRings ? kMaxPatternRings
                                                            : params.adaptive_rings;
  const float ca = rotation.cos_div;
  const float sa = rotation.sin_div;

  // Desired direction, and the same rotated by da/2.
  glm::vec2 ddir[2];
  ddir[0] = desired_velocity;
  const float d = sqrtf(ddir[0].x * ddir[0].x + ddir[0].y * ddir[0].y);
  if (d != 0.0f) {
    const float inv = 1.0f / d;
    ddir[0] = {ddir[0].x * inv, ddir[0].y * inv};
  }
  const float c = rotation.cos_half_div;
  const float s = rotation.sin_half_div;
  ddir[1] = {ddir[0].x * c - ddir[0].y * s, ddir[0].x * s + ddir[0].y * c};

  int npat = 0;
  pattern[npat++] = glm::vec2(0.0f); // always sample zero
  for (int j = 0; j < nr; ++j) {
    const float r = static_cast<float>(nr - j) / static_cast<float>(nr);
    pattern[npat] = ddir[j % 2] * r;
    int last1 = npat;
    int last2 = npat;
    npat++;
    for (int i = 1; i < nd - 1; i += 2) {
      // Next point on the right (rotate CW) and on the left (rotate CCW).
      const glm::vec2 a = pattern[last1];
      const glm::vec2 b = pattern[last2];
      pattern[npat] = {a.x * ca + a.y * sa, -a.x * sa + a.y * ca};
      pattern[npat + 1] = {b.x * ca - b.y * sa, b.x * sa + b.y * ca};
      last1 = npat;
      last2 = npat + 1;
      npat += 2;
    }
    if ((nd & 1) == 0) {
      // The reference writes this point one slot too far (pat[npat*2+2]) and counts the
      // uninitialised slot instead; only even `divs` are affected (every preset is odd).
      const glm::vec2 b = pattern[last2];
      pattern[npat] = {b.x * ca - b.y * sa, b.x * sa + b.y * ca};
      npat++;
    }
  }
  return npat;
}

/// The candidate velocity of pattern point `pattern_point` at the current refinement level,
/// or false when it is faster than the agent may go (the reference skips it).
CROWD_HD bool candidate_velocity(const SamplerContext& ctx, glm::vec2 centre, float radius,
                                 glm::vec2 pattern_point, glm::vec2& vcand) {
  vcand = {centre.x + pattern_point.x * radius, centre.y + pattern_point.y * radius};
  const float limit = ctx.agent.max_speed + 0.001f;
  return vcand.x * vcand.x + vcand.y * vcand.y <= limit * limit;
}

} // namespace crowd

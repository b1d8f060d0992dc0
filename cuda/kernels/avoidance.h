// Stage 6, avoidance: one block per agent, one thread per velocity sample
// (dtObstacleAvoidanceQuery::sampleVelocityAdaptive, DetourObstacleAvoidance.cpp).
//
// The body is written against a block interface, so the CUDA executor (cuda/executor) and the
// CPU executor (host/sim/cpu_block.h) run the same code:
//   block.for_each_thread(n, f)  f(i) for every i in [0, n), spread over the threads, then a
//                                barrier;
//   block.argmin(n, samples)     the sample the reference's loop keeps: it evaluates samples
//                                in order, each with the best penalty so far as the bound of
//                                processSample's early exits, and keeps the first strictly
//                                lower one. The CPU does exactly that (samples.penalty); the
//                                GPU scores every sample in full at once
//                                (samples.full_penalty), takes the lowest when the exits
//                                would pass it whenever reached (samples.taken_whenever_
//                                reached), and otherwise replays the loop's choices on one
//                                thread (samples.taken_at). The exits are not strict bounds,
//                                so a plain argmin of the full penalties would now and then
//                                choose another sample than DetourCrowd.
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/avoidance_sampler.h"
#include "cuda/kernels/mass_avoidance.h"
#include "cuda/kernels/orca_avoidance.h"
#include "cuda/kernels/standoff.h"
#include "cuda/kernels/ttc_avoidance.h"

namespace crowd {

/// Room for the segments an avoidance block prepares: the agent's wall row, and the sides of
/// its corridor section that the ttc model's corridor mode adds (corridor_sides.h).
CROWD_HD constexpr int avoidance_segment_capacity(int max_segments) {
  return max_segments + kMaxCorridorSides;
}

/// Where a block keeps what its threads share (shared memory on the GPU).
struct AvoidanceScratch {
  SamplerCircle* circles = nullptr;   // [max_neighbors]
  SamplerSegment* segments = nullptr; // [avoidance_segment_capacity(max_segments)]
  glm::vec2* pattern = nullptr;       // [kMaxPatternSamples]
  OrcaLine* orca_lines = nullptr;     // [orca_line_capacity(max_neighbors, max_segments)]
  OrcaLine* orca_projected = nullptr; // [orca_line_capacity(max_neighbors, max_segments)]
  float* ttc_ratio = nullptr;         // [kMaxTtcSamples]
  float* ttc_smoothed = nullptr;      // [kMaxTtcSamples]
  float* ttc_walker_time = nullptr;   // [kMaxTtcSamples] TtcTime::time_with_movers
  float* ttc_wall_time = nullptr;     // [kMaxTtcDirections] ttc_wall_time
  float* ttc_colliders = nullptr;     // [kTtcColliderFields * ttc_collider_capacity(max_neighbors)]
};

struct ArgMin {
  float value = FLT_MAX;
  int index = -1;
};

/// The samples of one refinement level: pattern point s scaled by `radius` around `centre`.
struct LevelSamples {
  const SamplerContext* ctx = nullptr;
  const glm::vec2* pattern = nullptr; // [samples]
  glm::vec2 centre{0.0f};
  float radius = 0.0f;

  /// The candidate velocity of sample s; false when faster than the agent may go (the
  /// reference skips it).
  CROWD_HD bool velocity(int s, glm::vec2& vcand) const {
    return candidate_velocity(*ctx, centre, radius, pattern[s], vcand);
  }
  /// processSample at best-so-far `bound`, early exits included; FLT_MAX for a skipped sample.
  CROWD_HD float penalty(int s, float bound) const {
    glm::vec2 vcand;
    if (!velocity(s, vcand))
      return FLT_MAX;
    return sample_penalty(*ctx, vcand, bound);
  }
  /// The full penalty, and in `terms` what the early exits test; FLT_MAX for a skipped sample.
  CROWD_HD float full_penalty(int s, SampleTerms& terms) const {
    glm::vec2 vcand;
    if (!velocity(s, vcand))
      return FLT_MAX;
    return sample_penalty(*ctx, vcand, FLT_MAX, &terms);
  }
  /// Whether the reference's loop, with `bound` the best penalty so far, takes a sample of full
  /// penalty `full` and early-exit terms `terms`.
  CROWD_HD bool taken_at(float full, const SampleTerms& terms, float bound) const {
    return full < bound && !stopped_by_bound(*ctx, terms, bound);
  }
  /// Whether the loop takes such a sample whatever best it holds when it reaches it, as long as
  /// that best is higher: the early exits pass it at the lowest such bound, the next float above
  /// `full`, and only get laxer as the bound grows (min_pen grows, so the time threshold falls).
  /// Then the first sample of lowest full penalty is the loop's choice: everything before it is
  /// higher, so its best is higher; it is taken; nothing after it is lower.
  CROWD_HD bool taken_whenever_reached(float full, const SampleTerms& terms) const {
    return full < FLT_MAX && !stopped_by_bound(*ctx, terms, nextafterf(full, FLT_MAX));
  }
};

/// The most samples a block of an agent with `params` scores at once: one level of
/// DetourCrowd's pattern, or the time-to-collision model's fan; one thread each.
CROWD_HD int block_sample_count(const AvoidanceParams& params) {
  return params.model == kAvoidanceTtc ? ttc_sample_count(params.ttc) : params.samples_per_level();
}

/// The block's agent as the sampler sees it.
CROWD_HD SamplerAgent sampler_agent(int i, const AgentView& v) {
  SamplerAgent a;
  a.position = v.position[i];
  a.radius = v.radius[i];
  a.max_speed = v.desired_speed[i];
  a.velocity = v.velocity[i];
  a.desired_velocity = v.desired_velocity[i];
  return a;
}

/// Chooses agent i's new velocity, by its avoidance model: DetourCrowd's sampling here, the
/// force model (mass_avoidance.h), ORCA (orca_avoidance.h; `dt` is the step, which it reads
/// for agents already overlapping) or time-to-collision sampling (ttc_avoidance.h, whose clocks
/// run in steps of `dt`). Every thread of the block calls this with the same i. An
/// agent in a standoff manoeuvre (standoff.h) samples with its time horizon scaled by
/// standoff.horizon_scale: it avoids only what it would meet soon, and presses on past what
/// a long horizon makes it stop for.
template <class Block>
CROWD_HD void choose_velocity(Block& block, int i, const AgentView& v,
                              const AvoidanceScratch& scratch, const StandoffParams& standoff,
                              float dt) {
  if (!kernels_move(v.mode[i])) {
    if (v.mode[i] == kAgentOnLink) // at rest while the host moves it along the link
      block.for_each_thread(1, [&](int) { v.new_velocity[i] = glm::vec2(0.0f); });
    return;
  }
  const SamplerAgent agent = sampler_agent(i, v);
  // A zero top speed only admits the zero velocity (the reference reaches the same answer
  // through infinite penalties).
  if (!(agent.max_speed > 0.0f)) {
    block.for_each_thread(1, [&](int) { v.new_velocity[i] = glm::vec2(0.0f); });
    return;
  }
  // The parameters where they are stored: each model copies what it reads (a copy of the
  // whole set, every model's fields, costs registers the kernel has not got).
  const AvoidanceParams& stored = v.avoidance_params[v.avoidance_set[i]];
  const std::int32_t model = stored.model;
  if (model == kAvoidanceMass) {
    // The force model samples nothing: one thread computes it (mass_avoidance.h).
    block.for_each_thread(1, [&](int) { v.new_velocity[i] = mass_velocity(i, v, stored.mass); });
    return;
  }
  if (model == kAvoidanceOrca) {
    // ORCA's linear programs are sequential: one thread, its half-planes in the block's scratch.
    block.for_each_thread(1, [&](int) {
      v.new_velocity[i] =
          orca_velocity(i, v, stored.orca, dt, scratch.orca_lines, scratch.orca_projected);
    });
    return;
  }
  if (model == kAvoidanceTtc) {
    ttc_choose_velocity(block, i, v, scratch, stored.ttc, v.pattern_rotation[v.avoidance_set[i]],
                        dt);
    return;
  }
  AvoidanceParams params = stored;
  if (in_standoff_manoeuvre(i, v))
    params.horiz_time *= standoff.horizon_scale;
  SamplerContext ctx = make_sampler_context(agent, params);
  ctx.circle_count = v.neighbor_count[i];
  ctx.segment_count = v.segment_count[i];
  ctx.circles = scratch.circles;
  ctx.segments = scratch.segments;

  // Obstacles and the pattern, shared by all samples.
  const long long row_k = static_cast<long long>(i) * v.max_neighbors;
  const long long row_s = static_cast<long long>(i) * v.max_segments;
  block.for_each_thread(ctx.circle_count + ctx.segment_count + 1, [&](int t) {
    if (t < ctx.circle_count) {
      const int j = v.neighbor_index[row_k + t];
      scratch.circles[t] =
          prepare_circle(agent, v.position[j], v.radius[j], v.velocity[j], v.desired_velocity[j]);
    } else if (t < ctx.circle_count + ctx.segment_count) {
      const glm::vec4 s = v.segment[row_s + (t - ctx.circle_count)];
      scratch.segments[t - ctx.circle_count] = prepare_segment(agent, {s.x, s.y}, {s.z, s.w});
    } else {
      build_sample_pattern(params, v.pattern_rotation[v.avoidance_set[i]], agent.desired_velocity,
                           scratch.pattern);
    }
  });
  const int samples = params.samples_per_level();

  // Refine around the best sample, halving the pattern radius at each level.
  float radius = agent.max_speed * (1.0f - params.vel_bias);
  glm::vec2 centre = agent.desired_velocity * params.vel_bias;
  for (int level = 0; level < params.adaptive_depth; ++level) {
    const LevelSamples level_samples{&ctx, scratch.pattern, centre, radius};
    const ArgMin best = block.argmin(samples, level_samples);
    glm::vec2 chosen{0.0f};
    if (best.index >= 0 && best.value < FLT_MAX)
      level_samples.velocity(best.index, chosen);
    centre = chosen;
    radius *= 0.5f;
  }
  block.for_each_thread(1, [&](int) { v.new_velocity[i] = centre; });
}

} // namespace crowd

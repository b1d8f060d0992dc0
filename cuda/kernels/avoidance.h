// Stage 6, avoidance: one block per agent, one thread per velocity sample
// (dtObstacleAvoidanceQuery::sampleVelocityAdaptive, DetourObstacleAvoidance.cpp).
//
// The body is written against a block interface, so the CUDA executor (cuda/executor) and the
// CPU executor (host/sim/cpu_block.h) run the same code:
//   block.for_each_thread(n, f)  f(i) for every i in [0, n), spread over the threads, then a
//                                barrier;
//   block.argmin(n, penalty)     the lowest penalty(i, bound) over i in [0, n), ties to the
//                                lowest i; `bound` is the best penalty found so far where the
//                                executor evaluates in order (the CPU), FLT_MAX otherwise.
//                                penalty() returns >= bound when it cannot beat it, so the
//                                answer is the same either way.
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/avoidance_sampler.h"

namespace crowd {

/// Where a block keeps what its threads share (shared memory on the GPU).
struct AvoidanceScratch {
  SamplerCircle* circles = nullptr;   // [max_neighbors]
  SamplerSegment* segments = nullptr; // [max_segments]
  glm::vec2* pattern = nullptr;       // [kMaxPatternSamples]
};

struct ArgMin {
  float value = FLT_MAX;
  int index = -1;
};

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

/// Chooses agent i's new velocity. Every thread of the block calls this with the same i.
template <class Block>
CROWD_HD void choose_velocity(Block& block, int i, const AgentView& v,
                              const AvoidanceScratch& scratch) {
  if (v.mode[i] == kAgentInactive)
    return;
  const SamplerAgent agent = sampler_agent(i, v);
  // A zero top speed only admits the zero velocity (the reference reaches the same answer
  // through infinite penalties).
  if (!(agent.max_speed > 0.0f)) {
    block.for_each_thread(1, [&](int) { v.new_velocity[i] = glm::vec2(0.0f); });
    return;
  }
  const AvoidanceParams params = v.avoidance_params[v.avoidance_set[i]];
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
      build_sample_pattern(params, agent.desired_velocity, scratch.pattern);
    }
  });
  const int samples = params.samples_per_level();

  // Refine around the best sample, halving the pattern radius at each level.
  float radius = agent.max_speed * (1.0f - params.vel_bias);
  glm::vec2 centre = agent.desired_velocity * params.vel_bias;
  for (int level = 0; level < params.adaptive_depth; ++level) {
    const ArgMin best = block.argmin(samples, [&](int s, float bound) {
      glm::vec2 vcand;
      if (!candidate_velocity(ctx, centre, radius, scratch.pattern[s], vcand))
        return FLT_MAX;
      return sample_penalty(ctx, vcand, bound);
    });
    glm::vec2 chosen{0.0f};
    if (best.index >= 0 && best.value < FLT_MAX)
      candidate_velocity(ctx, centre, radius, scratch.pattern[best.index], chosen);
    centre = chosen;
    radius *= 0.5f;
  }
  block.for_each_thread(1, [&](int) { v.new_velocity[i] = centre; });
}

} // namespace crowd

/// @file
/// Block sizes of the CUDA executor's launches, named in one place (CUB's tuning policies:
/// launch sites and __launch_bounds__ read these, never a literal).
#pragma once

#include "cuda/common/avoidance_params.h"

#include <array>
#include <cstddef>

namespace crowd {

/// How one kind of kernel is launched.
struct LaunchPolicy {
  int threads_per_block = 0;
};

/// Per-agent kernels (proximity, steering, integrate, collisions): one thread per agent.
/// 128 threads = 4 warps: enough blocks for every SM at a few thousand agents, and the
/// kernels are memory-bound, so larger blocks would buy nothing.
inline constexpr LaunchPolicy kAgentPolicy{128};

/// Avoidance block sizes, one thread per velocity sample of a pattern level: the smallest
/// that covers the largest samples_per_level() in use is launched, so a 15-sample pattern
/// (the default 7 divs x 2 rings + 1) runs one warp per agent rather than wasting three.
/// Whole warps only; the largest covers the largest pattern (32 divs x 4 rings + 1 = 129).
inline constexpr std::array<int, 4> kAvoidanceBlockSizes{32, 64, 128, 160};
static_assert(kAvoidanceBlockSizes.back() >= kMaxPatternSamples,
              "the largest avoidance block must give every pattern sample its own thread");

/// The avoidance block size for patterns of up to `samples_per_level` samples.
constexpr int avoidance_block_size(int samples_per_level) {
  for (const int size : kAvoidanceBlockSizes) {
    if (size >= samples_per_level)
      return size;
  }
  return kAvoidanceBlockSizes.back();
}

/// Blocks of `policy` needed for `items` threads.
constexpr int blocks_for(int items, LaunchPolicy policy) {
  return (items + policy.threads_per_block - 1) / policy.threads_per_block;
}

} // namespace crowd

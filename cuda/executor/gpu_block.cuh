/// @file
/// The block interface of cuda/kernels/avoidance.h on the GPU (host/sim/cpu_block.h is the
/// CPU one): a block's threads share a loop over n items by stride, with a barrier after it;
/// an argmin scores every sample in parallel and replays the reference's sequential choice on
/// one thread. Also the layout of an avoidance block's dynamic shared memory (AvoidanceScratch).
#pragma once

#include "cuda/kernels/avoidance.h"

#include <cfloat>
#include <cstddef>

namespace crowd {

/// The block interface for a block of kThreads threads (the launch's blockDim.x).
///
/// @tparam kThreads threads per block.
template <int kThreads> class GpuBlock {
public:
  /// What the block's threads share; one per block, in __shared__ memory. Trivially
  /// constructible, because nothing runs constructors of __shared__ variables.
  struct Shared {
    float penalty[kMaxPatternSamples];     ///< Full penalty of each sample of the level.
    SampleTerms terms[kMaxPatternSamples]; ///< What its early exits test.
    float best_value;                      ///< The block's argmin, broadcast from thread 0.
    int best_index;
  };

  __device__ explicit GpuBlock(Shared& shared) : shared_(shared) {}

  /// f(t) for every t in [0, n), thread k taking t = k, k + kThreads, ...; then a barrier, so
  /// what f wrote to shared memory is visible to every thread afterwards.
  template <class F> __device__ void for_each_thread(int n, F&& f) {
    for (int t = thread(); t < n; t += kThreads)
      f(t);
    __syncthreads();
  }

  /// The sample the reference's loop keeps and its penalty ({FLT_MAX, -1} when none): exactly
  /// CpuBlock::argmin's answer. Every sample is scored in full in parallel (n <=
  /// kMaxPatternSamples), then thread 0 walks them in order and takes each one the reference
  /// would take with the best so far as its bound (LevelSamples::taken_at): a few comparisons a
  /// sample, and a division only for a sample better than the best so far. Every thread of the
  /// block must call it; every thread receives the result.
  template <class Samples> __device__ ArgMin argmin(int n, const Samples& samples) {
    for (int t = thread(); t < n; t += kThreads)
      shared_.penalty[t] = samples.full_penalty(t, shared_.terms[t]);
    __syncthreads();
    if (thread() == 0) {
      float best = FLT_MAX;
      int index = -1;
      for (int t = 0; t < n; ++t) {
        if (samples.taken_at(shared_.penalty[t], shared_.terms[t], best)) {
          best = shared_.penalty[t];
          index = t;
        }
      }
      shared_.best_value = best;
      shared_.best_index = index;
    }
    __syncthreads();
    const ArgMin result{shared_.best_value, shared_.best_index};
    // Before the next call may overwrite the scores and the result.
    __syncthreads();
    return result;
  }

private:
  __device__ static int thread() { return static_cast<int>(threadIdx.x); }

  Shared& shared_;
};

/// Byte offsets of the arrays of AvoidanceScratch in an avoidance block's dynamic shared
/// memory, computed identically on the host (launch size) and the device (carving).
struct AvoidanceSharedLayout {
  std::size_t circles = 0;  ///< SamplerCircle [max_neighbors]
  std::size_t segments = 0; ///< SamplerSegment [max_segments]
  std::size_t pattern = 0;  ///< glm::vec2 [kMaxPatternSamples]
  std::size_t bytes = 0;    ///< Total dynamic shared memory per block.
};

/// 16-byte alignment for every array: enough for any of the element types, and for vector
/// loads should the compiler use them.
inline constexpr std::size_t kSharedAlignment = 16;

__host__ __device__ constexpr std::size_t align_shared(std::size_t offset) {
  return (offset + kSharedAlignment - 1) / kSharedAlignment * kSharedAlignment;
}

__host__ __device__ constexpr AvoidanceSharedLayout avoidance_shared_layout(int max_neighbors,
                                                                            int max_segments) {
  AvoidanceSharedLayout layout;
  layout.circles = 0;
  layout.segments = align_shared(layout.circles +
                                 static_cast<std::size_t>(max_neighbors) * sizeof(SamplerCircle));
  layout.pattern = align_shared(layout.segments +
                                static_cast<std::size_t>(max_segments) * sizeof(SamplerSegment));
  layout.bytes = align_shared(layout.pattern + kMaxPatternSamples * sizeof(glm::vec2));
  return layout;
}

/// The AvoidanceScratch views into `shared_bytes` (the block's extern __shared__ array).
__device__ inline AvoidanceScratch carve_avoidance_scratch(unsigned char* shared_bytes,
                                                           const AvoidanceSharedLayout& layout) {
  AvoidanceScratch scratch;
  scratch.circles = reinterpret_cast<SamplerCircle*>(shared_bytes + layout.circles);
  scratch.segments = reinterpret_cast<SamplerSegment*>(shared_bytes + layout.segments);
  scratch.pattern = reinterpret_cast<glm::vec2*>(shared_bytes + layout.pattern);
  return scratch;
}

} // namespace crowd

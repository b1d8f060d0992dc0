/// @file
/// The block interface of cuda/kernels/avoidance.h on the GPU (host/sim/cpu_block.h is the
/// CPU one): a block's threads share a loop over n items by stride, with a barrier after it;
/// an argmin scores every sample in parallel, reduces them with cub::BlockReduce and makes the
/// reference's sequential choice from there. Also the layout of an avoidance block's dynamic shared
/// memory (AvoidanceScratch).
#pragma once

#include "cuda/kernels/avoidance.h"

#include <cfloat>
#include <climits>
#include <cstddef>
#include <cub/block/block_reduce.cuh>

namespace crowd {

/// The block interface for a block of kThreads threads (the launch's blockDim.x).
///
/// @tparam kThreads threads per block, fixed at compile time because cub::BlockReduce sizes
///                  its shared storage by it.
template <int kThreads> class GpuBlock {
public:
  /// A thread's or the block's best sample so far.
  struct Candidate {
    float value;
    int index;
  };
  using Reduce = cub::BlockReduce<Candidate, kThreads>;

  /// What the block's threads share; one per block, in __shared__ memory. Trivially
  /// constructible (Candidate rather than ArgMin, which has member initialisers), because
  /// nothing runs constructors of __shared__ variables.
  struct Shared {
    typename Reduce::TempStorage reduce;
    float penalty[kMaxPatternSamples];     ///< Full penalty of each sample of the level.
    SampleTerms terms[kMaxPatternSamples]; ///< What its early exits test.
    Candidate result;                      ///< The block's choice, broadcast from thread 0.
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
  /// kMaxPatternSamples) and reduced to the first of lowest penalty. That is the loop's choice
  /// when its early exits pass it whenever reached (LevelSamples::taken_whenever_reached), as
  /// they nearly always do; otherwise thread 0 replays the loop over the scores, taking each
  /// sample the loop would take with the best so far as its bound (LevelSamples::taken_at).
  /// Every thread of the block must call it; every thread receives the result.
  template <class Samples> __device__ ArgMin argmin(int n, const Samples& samples) {
    // Each thread's own best over its strided samples, in ascending order so a tie keeps the
    // lower index. Threads without a sample contribute (FLT_MAX, INT_MAX), which never wins.
    Candidate best{FLT_MAX, INT_MAX};
    for (int t = thread(); t < n; t += kThreads) {
      const float value = samples.full_penalty(t, shared_.terms[t]);
      shared_.penalty[t] = value;
      if (value < best.value)
        best = {value, t};
    }
    // With every value in [-inf, FLT_MAX] (no NaN) the operator is a total order, so the
    // reduction's tree order cannot change the result.
    const Candidate lowest = Reduce(shared_.reduce).Reduce(best, LowerPenaltyThenIndex{});
    __syncthreads(); // the scores of every thread are in shared memory
    if (thread() == 0) {
      if (lowest.value < FLT_MAX &&
          samples.taken_whenever_reached(lowest.value, shared_.terms[lowest.index])) {
        shared_.result = lowest;
      } else {
        Candidate taken{FLT_MAX, -1};
        for (int t = 0; t < n; ++t) {
          if (samples.taken_at(shared_.penalty[t], shared_.terms[t], taken.value))
            taken = {shared_.penalty[t], t};
        }
        shared_.result = taken;
      }
    }
    __syncthreads();
    const Candidate result = shared_.result;
    // Before the next call may reuse the reduction storage, the scores and the result.
    __syncthreads();
    return result.value < FLT_MAX ? ArgMin{result.value, result.index} : ArgMin{};
  }

private:
  struct LowerPenaltyThenIndex {
    __device__ Candidate operator()(const Candidate& a, const Candidate& b) const {
      return (b.value < a.value || (b.value == a.value && b.index < a.index)) ? b : a;
    }
  };

  __device__ static int thread() { return static_cast<int>(threadIdx.x); }

  Shared& shared_;
};

/// Byte offsets of the arrays of AvoidanceScratch in an avoidance block's dynamic shared
/// memory, computed identically on the host (launch size) and the device (carving).
struct AvoidanceSharedLayout {
  std::size_t circles = 0;         ///< SamplerCircle [max_neighbors]
  std::size_t segments = 0;        ///< SamplerSegment [avoidance_segment_capacity]
  std::size_t pattern = 0;         ///< glm::vec2 [kMaxPatternSamples]
  std::size_t orca_lines = 0;      ///< OrcaLine [orca_line_capacity]
  std::size_t orca_projected = 0;  ///< OrcaLine [orca_line_capacity]
  std::size_t ttc_ratio = 0;       ///< float [kMaxTtcSamples]
  std::size_t ttc_smoothed = 0;    ///< float [kMaxTtcSamples]
  std::size_t ttc_walker_time = 0; ///< float [kMaxTtcSamples]
  std::size_t ttc_wall_time = 0;   ///< float [kMaxTtcDirections]
  std::size_t ttc_colliders = 0;   ///< float [kTtcColliderFields * ttc_collider_capacity]
  std::size_t bytes = 0;           ///< Total dynamic shared memory per block.
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
                                static_cast<std::size_t>(avoidance_segment_capacity(max_segments)) *
                                    sizeof(SamplerSegment));
  const auto lines = static_cast<std::size_t>(orca_line_capacity(max_neighbors, max_segments));
  layout.orca_lines = align_shared(layout.pattern + kMaxPatternSamples * sizeof(glm::vec2));
  layout.orca_projected = align_shared(layout.orca_lines + lines * sizeof(OrcaLine));
  layout.ttc_ratio = align_shared(layout.orca_projected + lines * sizeof(OrcaLine));
  layout.ttc_smoothed = align_shared(layout.ttc_ratio + kMaxTtcSamples * sizeof(float));
  layout.ttc_walker_time = align_shared(layout.ttc_smoothed + kMaxTtcSamples * sizeof(float));
  layout.ttc_wall_time = align_shared(layout.ttc_walker_time + kMaxTtcSamples * sizeof(float));
  layout.ttc_colliders = align_shared(layout.ttc_wall_time + kMaxTtcDirections * sizeof(float));
  layout.bytes = align_shared(
      layout.ttc_colliders +
      static_cast<std::size_t>(kTtcColliderFields * ttc_collider_capacity(max_neighbors)) *
          sizeof(float));
  return layout;
}

/// The AvoidanceScratch views into `shared_bytes` (the block's extern __shared__ array).
__device__ inline AvoidanceScratch carve_avoidance_scratch(unsigned char* shared_bytes,
                                                           const AvoidanceSharedLayout& layout) {
  AvoidanceScratch scratch;
  scratch.circles = reinterpret_cast<SamplerCircle*>(shared_bytes + layout.circles);
  scratch.segments = reinterpret_cast<SamplerSegment*>(shared_bytes + layout.segments);
  scratch.pattern = reinterpret_cast<glm::vec2*>(shared_bytes + layout.pattern);
  scratch.orca_lines = reinterpret_cast<OrcaLine*>(shared_bytes + layout.orca_lines);
  scratch.orca_projected = reinterpret_cast<OrcaLine*>(shared_bytes + layout.orca_projected);
  scratch.ttc_ratio = reinterpret_cast<float*>(shared_bytes + layout.ttc_ratio);
  scratch.ttc_smoothed = reinterpret_cast<float*>(shared_bytes + layout.ttc_smoothed);
  scratch.ttc_walker_time = reinterpret_cast<float*>(shared_bytes + layout.ttc_walker_time);
  scratch.ttc_wall_time = reinterpret_cast<float*>(shared_bytes + layout.ttc_wall_time);
  scratch.ttc_colliders = reinterpret_cast<float*>(shared_bytes + layout.ttc_colliders);
  return scratch;
}

} // namespace crowd

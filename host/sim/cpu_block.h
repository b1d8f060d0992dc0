// The block interface of cuda/kernels/avoidance.h on the CPU: a block's threads run one after
// another, so the argmin is the reference's own loop, each sample stopping early against the
// best penalty so far (processSample's early exits).
#pragma once

#include "cuda/kernels/avoidance.h"

#include <vector>

namespace crowd {

class CpuBlock {
public:
  template <class F> void for_each_thread(int n, F&& f) {
    for (int t = 0; t < n; ++t)
      f(t);
  }

  template <class Samples> ArgMin argmin(int n, const Samples& samples) {
    ArgMin best;
    for (int t = 0; t < n; ++t) {
      const float value = samples.penalty(t, best.value);
      if (value < best.value) {
        best.value = value;
        best.index = t;
      }
    }
    return best;
  }
};

/// Scratch memory for one CPU worker running avoidance blocks.
class CpuAvoidanceScratch {
public:
  CpuAvoidanceScratch()
      : pattern_(kMaxPatternSamples), ttc_ratio_(kMaxTtcSamples), ttc_smoothed_(kMaxTtcSamples),
        ttc_walker_time_(kMaxTtcSamples), ttc_wall_time_(kMaxTtcDirections) {}
  CpuAvoidanceScratch(int max_neighbors, int max_segments) : CpuAvoidanceScratch() {
    fit(max_neighbors, max_segments);
  }
  /// Room for K neighbours and S segments; grows only, so a worker's scratch is allocated
  /// once and reused step after step.
  void fit(int max_neighbors, int max_segments) {
    if (circles_.size() < static_cast<std::size_t>(max_neighbors))
      circles_.resize(static_cast<std::size_t>(max_neighbors));
    const auto segments = static_cast<std::size_t>(avoidance_segment_capacity(max_segments));
    if (segments_.size() < segments)
      segments_.resize(segments);
    const auto colliders =
        static_cast<std::size_t>(kTtcColliderFields * ttc_collider_capacity(max_neighbors));
    if (ttc_colliders_.size() < colliders)
      ttc_colliders_.resize(colliders);
    const auto lines = static_cast<std::size_t>(orca_line_capacity(max_neighbors, max_segments));
    if (orca_lines_.size() < lines) {
      orca_lines_.resize(lines);
      orca_projected_.resize(lines);
    }
  }
  AvoidanceScratch view() {
    return {circles_.data(),      segments_.data(),        pattern_.data(),
            orca_lines_.data(),   orca_projected_.data(),  ttc_ratio_.data(),
            ttc_smoothed_.data(), ttc_walker_time_.data(), ttc_wall_time_.data(),
            ttc_colliders_.data()};
  }

private:
  std::vector<SamplerCircle> circles_;
  std::vector<SamplerSegment> segments_;
  std::vector<glm::vec2> pattern_;
  std::vector<OrcaLine> orca_lines_;
  std::vector<OrcaLine> orca_projected_;
  std::vector<float> ttc_ratio_;
  std::vector<float> ttc_smoothed_;
  std::vector<float> ttc_walker_time_;
  std::vector<float> ttc_wall_time_;
  std::vector<float> ttc_colliders_;
};

} // namespace crowd

// Mean and 95th percentile of the wall time of every step of a run, in memory that does not
// grow with the run's length (a film shot left overnight runs millions of steps). The first
// kExactSamples times are kept as they are and give the exact nearest-rank percentile; beyond
// that they are folded into a histogram of logarithmic bins 0.5% wide, so the percentile is
// the geometric centre of its bin, within 0.25% of the exact value (for times between 1e-4 ms
// and 1e6 ms; times outside count in the end bins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

class StepTimeStats {
public:
  static constexpr std::size_t kExactSamples = 4096;

  void add(double ms);

  std::size_t count() const { return count_; }
  double mean() const; ///< 0 when empty.
  /// Nearest rank: the smallest time with at least 95% of the steps at or below it. 0 when
  /// empty.
  double p95() const;
  /// Bytes held: at most kExactSamples doubles, or the histogram.
  std::size_t memory_bytes() const;

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  void fold_into_histogram();

  std::size_t count_ = 0;
  double total_ = 0.0;
  std::vector<double> exact_;            ///< While count_ <= kExactSamples.
  std::vector<std::uint64_t> histogram_; ///< After: counts per logarithmic bin.
};

} // namespace crowd

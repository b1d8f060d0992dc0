#include "host/output/step_time_stats.h"

#include "host/checkpoint/archive.h"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

constexpr double kLowestMs = 1e-4;
constexpr double kHighestMs = 1e6;
constexpr double kBinRatio = 1.005; // each bin is 0.5% wide

std::size_t bin_count() {
  return static_cast<std::size_t>(
      std::ceil(std::log(kHighestMs / kLowestMs) / std::log(kBinRatio)));
}

std::size_t bin_of(double ms) {
  if (!(ms > kLowestMs))
    return 0;
  const double bin = std::floor(std::log(ms / kLowestMs) / std::log(kBinRatio));
  return std::min(static_cast<std::size_t>(bin), bin_count() - 1);
}

double bin_centre(std::size_t bin) {
  return kLowestMs * std::pow(kBinRatio, static_cast<double>(bin) + 0.5);
}

std::size_t nearest_rank(std::size_t n) {
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
  return std::clamp<std::size_t>(rank, 1, n);
}

} // namespace

void StepTimeStats::add(double ms) {
  ++count_;
  total_ += ms;
  if (histogram_.empty()) {
    exact_.push_back(ms);
    if (exact_.size() > kExactSamples)
      fold_into_histogram();
    return;
  }
  ++histogram_[bin_of(ms)];
}

void StepTimeStats::fold_into_histogram() {
  histogram_.assign(bin_count(), 0);
  for (const double ms : exact_)
    ++histogram_[bin_of(ms)];
  std::vector<double>().swap(exact_);
}

double StepTimeStats::mean() const {
  return count_ == 0 ? 0.0 : total_ / static_cast<double>(count_);
}

double StepTimeStats::p95() const {
  if (count_ == 0)
    return 0.0;
  const std::size_t rank = nearest_rank(count_);
  if (histogram_.empty()) {
    std::vector<double> sorted = exact_;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                     sorted.end());
    return sorted[rank - 1];
  }
  std::uint64_t seen = 0;
  for (std::size_t bin = 0; bin < histogram_.size(); ++bin) {
    seen += histogram_[bin];
    if (seen >= rank)
      return bin_centre(bin);
  }
  return bin_centre(histogram_.size() - 1);
}

std::size_t StepTimeStats::memory_bytes() const {
  return exact_.capacity() * sizeof(double) + histogram_.capacity() * sizeof(std::uint64_t);
}

void StepTimeStats::save(ArchiveWriter& out) const {
  out.fields(count_, total_, exact_, histogram_);
}

void StepTimeStats::restore(ArchiveReader& in) {
  in.fields(count_, total_, exact_, histogram_);
}

} // namespace crowd

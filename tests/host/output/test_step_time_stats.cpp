// host/output/step_time_stats.h: exact mean and p95 for runs of up to 4,096 steps, and for
// longer runs a p95 within 0.25% in memory that stops growing.
#include "host/output/step_time_stats.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(StepTimeStats, ShortRunsGiveTheExactNearestRank) {
  StepTimeStats stats;
  EXPECT_EQ(stats.p95(), 0.0);
  for (int k = 20; k >= 1; --k)
    stats.add(k);
  EXPECT_DOUBLE_EQ(stats.mean(), 10.5);
  EXPECT_DOUBLE_EQ(stats.p95(), 19.0); // rank ceil(0.95 x 20) = 19
}

TEST(StepTimeStats, LongRunsKeepThePercentileCloseAndTheMemoryFlat) {
  StepTimeStats stats;
  const int n = 1'000'000;
  std::size_t bytes_at_tenth = 0;
  for (int k = 1; k <= n; ++k) {
    // A sawtooth of 0.01 .. 100 ms, so every order of magnitude is visited.
    stats.add(0.01 * static_cast<double>(k % 10'000 + 1));
    if (k == n / 10)
      bytes_at_tenth = stats.memory_bytes();
  }
  // Exact nearest rank of that sawtooth: 95% of each period lies at or below 95.0 ms.
  EXPECT_NEAR(stats.p95(), 95.0, 95.0 * 0.0025);
  EXPECT_NEAR(stats.mean(), 50.005, 1e-6);
  EXPECT_EQ(stats.memory_bytes(), bytes_at_tenth);
  EXPECT_LT(stats.memory_bytes(), std::size_t{64} << 10);
}

} // namespace
} // namespace crowd

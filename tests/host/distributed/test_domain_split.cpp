// host/distributed/domain_split.h: spatial domains balanced by agent count or by work, and
// bisected again along the axes of an earlier split.
#include "host/distributed/domain_split.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

std::vector<glm::vec3> scattered(int count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> x(-100.0f, 100.0f), z(-30.0f, 30.0f);
  std::vector<glm::vec3> at;
  for (int i = 0; i < count; ++i)
    at.push_back({x(random), 0.0f, z(random)});
  return at;
}

std::vector<int> agents_per_domain(const DomainSplit& split, const std::vector<glm::vec3>& at) {
  std::vector<int> counts(static_cast<std::size_t>(split.count()), 0);
  for (const glm::vec3& p : at)
    ++counts[static_cast<std::size_t>(split.domain_of(p))];
  return counts;
}

bool inside(const DomainBox& box, const glm::vec3& p) {
  return p.x >= box.lo.x && p.x < box.hi.x && p.z >= box.lo.y && p.z < box.hi.y;
}

TEST(DomainSplit, BalancesAgentsForAnyDomainCount) {
  const std::vector<glm::vec3> at = scattered(1200, 3);
  const std::vector<std::uint8_t> present(at.size(), 1);
  for (const int domains : {1, 2, 3, 4, 5, 8}) {
    const DomainSplit split = DomainSplit::bisect(at, present, domains);
    ASSERT_EQ(split.count(), domains);
    const std::vector<int> counts = agents_per_domain(split, at);
    const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
    EXPECT_LE(*hi - *lo, 1) << domains << " domains";
  }
}

TEST(DomainSplit, BalancesWorkWhereTheAgentsWeighDifferently) {
  // The agents west of x = 0 weigh 4, the rest 1: each domain gets about the same work, so the
  // western domains hold fewer agents. Work 1 everywhere splits as agent counts.
  const std::vector<glm::vec3> at = scattered(1200, 11);
  std::vector<std::uint8_t> work(at.size());
  for (std::size_t i = 0; i < at.size(); ++i)
    work[i] = at[i].x < 0.0f ? 4 : 1;
  for (const int domains : {2, 3, 4}) {
    const DomainSplit split = DomainSplit::bisect(at, work, domains);
    std::vector<long long> sums(static_cast<std::size_t>(domains), 0);
    for (std::size_t i = 0; i < at.size(); ++i)
      sums[static_cast<std::size_t>(split.domain_of(at[i]))] += work[i];
    const auto [lo, hi] = std::minmax_element(sums.begin(), sums.end());
    EXPECT_LE(*hi - *lo, 4 * 2) << domains << " domains"; // an agent's work per cut
  }
  const DomainSplit halves = DomainSplit::bisect(at, work, 2);
  const std::vector<int> counts = agents_per_domain(halves, at);
  EXPECT_GT(std::abs(counts[0] - counts[1]), 300) << "the lighter half holds more agents";
}

TEST(DomainSplit, TheBoxesTileThePlaneAndEachPointLiesInItsDomainsBox) {
  const std::vector<glm::vec3> at = scattered(500, 4);
  const DomainSplit split = DomainSplit::bisect(at, std::vector<std::uint8_t>(at.size(), 1), 6);
  std::mt19937 random(5);
  std::uniform_real_distribution<float> coordinate(-300.0f, 300.0f); // beyond the agents too
  for (int k = 0; k < 2000; ++k) {
    const glm::vec3 p{coordinate(random), 0.0f, coordinate(random)};
    int holding = 0;
    for (int d = 0; d < split.count(); ++d)
      holding += inside(split.box(d), p) ? 1 : 0;
    ASSERT_EQ(holding, 1) << p.x << ", " << p.z;
    EXPECT_TRUE(inside(split.box(split.domain_of(p)), p));
    EXPECT_EQ(split.box(split.domain_of(p)).distance_to(p), 0.0f);
  }
}

TEST(DomainSplit, TheSameCutsWhateverOrderTheAgentsComeIn) {
  std::vector<glm::vec3> at = scattered(800, 6);
  const std::vector<std::uint8_t> present(at.size(), 1);
  const DomainSplit split = DomainSplit::bisect(at, present, 5);
  std::reverse(at.begin(), at.end());
  const DomainSplit reversed = DomainSplit::bisect(at, present, 5);
  for (int d = 0; d < split.count(); ++d) {
    EXPECT_EQ(split.box(d).lo, reversed.box(d).lo);
    EXPECT_EQ(split.box(d).hi, reversed.box(d).hi);
  }
}

TEST(DomainSplit, AbsentAgentsAreLeftOutAndDomainsMayHoldNoAgent) {
  const std::vector<glm::vec3> at{
      {0.0f, 0.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {20.0f, 0.0f, 0.0f}, {1000.0f, 0.0f, 0.0f}};
  const DomainSplit split = DomainSplit::bisect(at, std::vector<std::uint8_t>{1, 1, 1, 0}, 8);
  ASSERT_EQ(split.count(), 8);
  std::vector<int> counts(8, 0);
  for (std::size_t i = 0; i < 3; ++i)
    ++counts[static_cast<std::size_t>(split.domain_of(at[i]))];
  EXPECT_EQ(std::count(counts.begin(), counts.end(), 1), 3); // one agent each
  EXPECT_EQ(std::count(counts.begin(), counts.end(), 0), 5); // and five domains with none
}

/// The axis of a two-domain split's one cut: 0 across x (its boxes meet at an x), 1 across z.
int cut_axis(const DomainSplit& split) {
  return std::isfinite(split.box(0).hi.x) ? 0 : 1;
}

/// `count` agents spread over a w x d rectangle (x by z).
std::vector<glm::vec3> rectangle(int count, float w, float d, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> x(0.0f, w), z(0.0f, d);
  std::vector<glm::vec3> at;
  for (int i = 0; i < count; ++i)
    at.push_back({x(random), 0.0f, z(random)});
  return at;
}

TEST(DomainSplit, BisectedAlongAnEarlierSplitItsCutsKeepTheirAxesUntilTheOtherSideIsTwiceAsLong) {
  const std::vector<std::uint8_t> present(600, 1);
  const DomainSplit wide = DomainSplit::bisect(rectangle(600, 100.0f, 80.0f, 7), present, 2);
  ASSERT_EQ(cut_axis(wide), 0);
  // Now a little deeper than wide: bisected afresh the cut turns, along the earlier one it
  // stays, and still halves the agents.
  const std::vector<glm::vec3> deeper = rectangle(600, 80.0f, 100.0f, 8);
  EXPECT_EQ(cut_axis(DomainSplit::bisect(deeper, present, 2)), 1);
  const DomainSplit kept = DomainSplit::bisect_along(wide, deeper, present);
  EXPECT_EQ(cut_axis(kept), 0);
  const std::vector<int> counts = agents_per_domain(kept, deeper);
  EXPECT_LE(std::abs(counts[0] - counts[1]), 1);
  // More than twice as deep as wide: the cut turns.
  EXPECT_EQ(cut_axis(DomainSplit::bisect_along(wide, rectangle(600, 40.0f, 100.0f, 9), present)),
            1);
  // Every cut of a deeper tree keeps its own axis, the boxes still tiling the plane.
  const DomainSplit five = DomainSplit::bisect(rectangle(600, 100.0f, 80.0f, 10), present, 5);
  const DomainSplit five_kept = DomainSplit::bisect_along(five, deeper, present);
  ASSERT_EQ(five_kept.count(), 5);
  for (int d = 0; d < 5; ++d)
    for (const bool x_side : {true, false}) {
      const auto bounded = [&](const DomainSplit& s) {
        return x_side ? std::isfinite(s.box(d).lo.x) || std::isfinite(s.box(d).hi.x)
                      : std::isfinite(s.box(d).lo.y) || std::isfinite(s.box(d).hi.y);
      };
      EXPECT_EQ(bounded(five_kept), bounded(five)) << "domain " << d;
    }
}

TEST(DomainSplit, DistanceToABoxIsTheGroundDistanceToItsNearestEdgeOrCorner) {
  const DomainBox box{{0.0f, 0.0f}, {10.0f, 5.0f}};
  EXPECT_FLOAT_EQ(box.distance_to({-3.0f, 7.0f, 2.0f}), 3.0f);  // beside the left edge
  EXPECT_FLOAT_EQ(box.distance_to({13.0f, 99.0f, 9.0f}), 5.0f); // off a corner: 3-4-5
  EXPECT_FLOAT_EQ(box.distance_to({5.0f, 0.0f, 2.0f}), 0.0f);   // inside
}

} // namespace
} // namespace crowd

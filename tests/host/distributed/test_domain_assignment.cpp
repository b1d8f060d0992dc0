// host/distributed/domain_assignment.h: the domains every rank of an MPI run places the agents
// in. An agent walking round the corner where four domains meet migrates into each in turn,
// the split staying as it is while the counts stay balanced; every agent, present or not, has
// a domain; the same positions give the same domains whatever the order of the calls; and a
// rebalance moves the cuts rather than turning them.
#include "host/distributed/domain_assignment.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>
#include <vector>

namespace crowd {
namespace {

/// A 10 x 10 grid of agents at 1 m spacing: four domains of 25 meet at one corner.
std::vector<glm::vec3> grid_of_agents() {
  std::vector<glm::vec3> positions;
  for (int z = 0; z < 10; ++z)
    for (int x = 0; x < 10; ++x)
      positions.emplace_back(0.5f + static_cast<float>(x), 0.0f, 0.5f + static_cast<float>(z));
  return positions;
}

TEST(DomainAssignment, AnAgentRoundTheCornerOfFourDomainsMigratesIntoEachInTurn) {
  std::vector<glm::vec3> positions = grid_of_agents();
  const std::vector<std::uint8_t> present(positions.size(), 1);
  DomainAssignment domains(4);
  domains.place(positions, present);
  for (const int count : domains.present_per_domain())
    EXPECT_EQ(count, 25);

  // The corner the four boxes share.
  const DomainSplit& split = domains.split();
  const glm::vec2 corner = split.box(split.domain_of({0.5f, 0.0f, 0.5f})).hi;
  for (int d = 0; d < 4; ++d) {
    const DomainBox& box = split.box(d);
    EXPECT_TRUE((box.lo.x == corner.x || box.hi.x == corner.x) &&
                (box.lo.y == corner.y || box.hi.y == corner.y))
        << "domain " << d << " does not touch the corner";
  }

  // Agent 0 steps round the corner, 5 cm from it: four domains, four migrations (back into the
  // first one included), and the split kept (one agent more or less is within the balance).
  const glm::vec2 round[] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
  std::set<int> visited;
  for (const glm::vec2& side : round) {
    positions[0] = {corner.x + 0.05f * side.x, 0.0f, corner.y + 0.05f * side.y};
    domains.place(positions, present);
    visited.insert(domains.domain_of_agents()[0]);
  }
  EXPECT_EQ(visited.size(), 4u);
  EXPECT_EQ(domains.migrations(), 4); // its first step, to the corner, stays in its domain
  EXPECT_EQ(domains.rebalances(), 0);
}

TEST(DomainAssignment, AbsentAgentsHaveADomainButDoNotCountTowardTheBalance) {
  std::vector<glm::vec3> positions = grid_of_agents();
  std::vector<std::uint8_t> present(positions.size(), 1);
  for (std::size_t i = 0; i < positions.size(); i += 2)
    present[i] = 0;
  DomainAssignment domains(4);
  domains.place(positions, present);
  int counted = 0;
  for (const int count : domains.present_per_domain())
    counted += count;
  EXPECT_EQ(counted, 50);
  for (const int d : domains.domain_of_agents()) {
    EXPECT_GE(d, 0);
    EXPECT_LT(d, 4);
  }
}

TEST(DomainAssignment, TheSamePositionsGiveTheSameDomainsWhateverCameBefore) {
  // Two ranks that placed different histories agree once they bisect the same positions: the
  // first call bisects, so a fresh assignment and one bisected again after drifting agree.
  std::vector<glm::vec3> positions = grid_of_agents();
  const std::vector<std::uint8_t> present(positions.size(), 1);
  DomainAssignment fresh(3);
  fresh.place(positions, present);
  DomainAssignment again(3);
  again.place(positions, present);
  again.place(positions, present);
  EXPECT_TRUE(std::equal(fresh.domain_of_agents().begin(), fresh.domain_of_agents().end(),
                         again.domain_of_agents().begin(), again.domain_of_agents().end()));
  // Every agent crowding into one corner: the largest domain exceeds the mean, so it bisects.
  // (Each a little apart from the grid, so that a cut can fall between any two of them.)
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const float apart = 1e-4f * static_cast<float>(i);
    positions[i] = {positions[i].x * 0.1f + apart, 0.0f, positions[i].z * 0.1f + 1.3f * apart};
  }
  positions[0] = {9.0f, 0.0f, 9.0f};
  again.place(positions, present);
  EXPECT_EQ(again.rebalances(), 1);
  const std::span<const int> counts = again.present_per_domain();
  EXPECT_LE(*std::max_element(counts.begin(), counts.end()), 34);
}

TEST(DomainAssignment, AgentsWhoseWorkGrowsOnOneSideBringABisectionAgain) {
  // Four domains of 25 agents each; then every agent in domain 0 weighs 3: the counts are as
  // balanced as before, the work is not, so the cuts move and that domain shrinks. (Each agent
  // a little apart from the grid, so that a cut can fall between any two of them.)
  std::vector<glm::vec3> positions = grid_of_agents();
  for (std::size_t i = 0; i < positions.size(); ++i)
    positions[i] += glm::vec3(1e-3f * static_cast<float>(i), 0.0f, 1.3e-3f * static_cast<float>(i));
  std::vector<std::uint8_t> work(positions.size(), 1);
  DomainAssignment domains(4);
  domains.place(positions, work);
  const int heavy = domains.domain_of_agents()[0];
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (domains.domain_of_agents()[i] == heavy)
      work[i] = 3;
  domains.place(positions, work);
  EXPECT_EQ(domains.rebalances(), 1);
  EXPECT_LT(domains.present_per_domain()[static_cast<std::size_t>(domains.domain_of_agents()[0])],
            25);
  const std::span<const long long> sums = domains.work_per_domain();
  const auto [lo, hi] = std::minmax_element(sums.begin(), sums.end());
  EXPECT_LE(*hi, 1.1 * (150.0 / 4) + 3); // within the tolerance again
  EXPECT_GT(*lo, 0);
}

TEST(DomainAssignment, ARebalanceMovesTheCutsRatherThanTurningThem) {
  // 24 x 20 agents at 1 m: one cut across x. Then the right half squeezes into the left's
  // middle, x from 8 to 11: the crowd is now deeper than wide, and every agent on the left.
  std::vector<glm::vec3> positions;
  for (int z = 0; z < 20; ++z)
    for (int x = 0; x < 24; ++x)
      positions.emplace_back(0.5f + static_cast<float>(x), 0.0f, 0.5f + static_cast<float>(z));
  const std::vector<std::uint8_t> present(positions.size(), 1);
  DomainAssignment domains(2);
  domains.place(positions, present);
  const std::vector<int> before(domains.domain_of_agents().begin(),
                                domains.domain_of_agents().end());
  ASSERT_TRUE(std::isfinite(domains.split().box(0).hi.x));
  for (glm::vec3& p : positions)
    if (p.x > 12.0f)
      p.x = 8.0f + 0.25f * (p.x - 12.0f) + 0.01f * p.z; // apart, so that any cut can fall
  domains.place(positions, present);
  ASSERT_EQ(domains.rebalances(), 1);
  EXPECT_TRUE(std::isfinite(domains.split().box(0).hi.x)); // still across x
  for (const int count : domains.present_per_domain())
    EXPECT_EQ(count, 240);
  // A fresh bisection turns the cut (across z now) and moves about half the crowd.
  const DomainSplit fresh = DomainSplit::bisect(positions, present, 2);
  ASSERT_TRUE(std::isfinite(fresh.box(0).hi.y));
  long long fresh_moves = 0;
  for (std::size_t i = 0; i < positions.size(); ++i)
    fresh_moves += fresh.domain_of(positions[i]) != before[i] ? 1 : 0;
  EXPECT_GE(fresh_moves, 200);
  EXPECT_LE(domains.migrations(), fresh_moves / 2); // the band the cut moved across
}

} // namespace
} // namespace crowd

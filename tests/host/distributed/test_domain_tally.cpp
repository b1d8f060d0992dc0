// host/distributed/domain_tally.h: a run observed as if split across ranks.
#include "host/distributed/domain_tally.h"

#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

/// 100 standing agents, 25 in each quadrant around (0, 0) and at least 8 m from either axis,
/// so that four domains cut at x = 0 and z = 0; and agent 100, a walker, absent (Pending) until
/// `walker_at` is set.
struct FourQuadrants {
  std::vector<glm::vec3> at;
  std::vector<AgentPhase> phases;
  FourQuadrants() {
    for (const float sx : {-1.0f, 1.0f})
      for (const float sz : {-1.0f, 1.0f})
        for (int i = 0; i < 5; ++i)
          for (int j = 0; j < 5; ++j)
            at.push_back(
                {sx * (8.0f + static_cast<float>(i)), 0.0f, sz * (8.0f + static_cast<float>(j))});
    phases.assign(at.size(), AgentPhase::Walking);
    at.push_back({0.0f, 0.0f, 0.0f});
    phases.push_back(AgentPhase::Pending);
  }
  void walker_at(float x, float z) {
    at.back() = {x, 0.0f, z};
    phases.back() = AgentPhase::Walking;
  }
};

TEST(DomainTally, AnAgentCrossingTheCornerWhereFourDomainsMeetMigratesOnceToTheFarDomain) {
  FourQuadrants scene;
  DomainTally tally(4, 2.0f);
  tally.observe(scene.at, scene.phases);
  const DomainSplit& split = tally.split();
  const int from = split.domain_of({-1.0f, 0.0f, -1.0f});
  const int to = split.domain_of({1.0f, 0.0f, 1.0f});
  ASSERT_NE(from, to);
  ASSERT_NE(split.domain_of({1.0f, 0.0f, -1.0f}), from); // four quadrants
  ASSERT_NE(split.domain_of({-1.0f, 0.0f, 1.0f}), from);

  scene.walker_at(-3.0f, -3.0f);
  tally.observe(scene.at, scene.phases); // enters: no migration, too far for a ghost
  EXPECT_EQ(tally.figures().max_ghosts, 0);
  scene.walker_at(-1.0f, -1.0f);
  tally.observe(scene.at, scene.phases); // near the corner: a ghost of the three others
  EXPECT_EQ(tally.figures().max_ghosts, 1);
  scene.walker_at(1.0f, 1.0f);
  tally.observe(scene.at, scene.phases); // straight across the corner
  scene.walker_at(3.0f, 3.0f);
  tally.observe(scene.at, scene.phases);

  const DomainFigures figures = tally.figures();
  EXPECT_EQ(figures.steps, 5);
  EXPECT_DOUBLE_EQ(figures.migrations_per_step, 1.0 / 4.0); // one migration in 4 steps
  EXPECT_EQ(figures.rebalances, 0);
  EXPECT_EQ(figures.max_agents, 26);
  EXPECT_EQ(tally.split().domain_of(scene.at.back()), to);
  // Ghosts: the walker, in the 3 other domains at (-1, -1) and again at (1, 1), 2 of the 5
  // steps; the standing agents are 8 m from any other domain, beyond the 2 m halo.
  EXPECT_DOUBLE_EQ(figures.mean_ghosts, 6.0 / (5.0 * 4.0));
}

TEST(DomainTally, AnAgentWhoseNeighboursAreAllGhostsSeesThemWithinTheHalo) {
  // Two agents 1 m apart across the x cut, each alone in its domain: each is the other's
  // domain's ghost at a 1 m halo, and neither is at 0.4 m.
  const std::vector<glm::vec3> at{{-0.5f, 0.0f, 0.0f}, {0.5f, 0.0f, 0.0f}};
  const std::vector<AgentPhase> phases(2, AgentPhase::Walking);
  DomainTally wide(2, 1.0f), narrow(2, 0.4f);
  wide.observe(at, phases);
  narrow.observe(at, phases);
  EXPECT_EQ(wide.figures().max_ghosts, 1);
  EXPECT_DOUBLE_EQ(wide.figures().halo_fraction, 1.0);
  EXPECT_EQ(narrow.figures().max_ghosts, 0);
}

TEST(DomainTally, ADomainLeftWithNoAgentsAndABisectionAgainWhenTheCountsDrift) {
  std::vector<glm::vec3> at;
  for (int i = 0; i < 40; ++i)
    at.push_back({static_cast<float>(i), 0.0f, 0.0f});
  std::vector<AgentPhase> phases(at.size(), AgentPhase::Walking);
  DomainTally tally(4, 0.5f);
  tally.observe(at, phases);
  EXPECT_EQ(tally.figures().max_agents, 10);

  // The ten agents of the last domain leave the scene, the rest crowd into the first domain:
  // one domain has none, and the first holds 30 > 1.1 x the mean of 7.5, so it is bisected
  // again and holds 8 (30 agents in 4 domains: 7, 8, 7, 8).
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (i >= 30)
      phases[i] = AgentPhase::Removed;
    else
      at[i].x = 0.1f * static_cast<float>(i);
  }
  tally.observe(at, phases);
  const DomainFigures figures = tally.figures();
  EXPECT_EQ(figures.rebalances, 1);
  EXPECT_EQ(figures.max_agents, 10); // the first step's
  EXPECT_GT(figures.migrations_per_step, 0.0);
}

} // namespace
} // namespace crowd

// host/output/point_grid.h: the host's grid for neighbour questions.
#include "host/output/point_grid.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

/// The agents a query should visit, in the order it should: by column (x cell), then row (z
/// cell), then id, among the selected agents in the 3 x 3 cells around p.
std::vector<int> expected_visits(const std::vector<glm::vec3>& at,
                                 const std::vector<std::uint8_t>& selected, glm::vec3 p,
                                 float cell) {
  const auto coord = [cell](float v) { return static_cast<long long>(std::floor(v / cell)); };
  std::vector<int> visits;
  for (long long dx = -1; dx <= 1; ++dx)
    for (long long dz = -1; dz <= 1; ++dz)
      for (std::size_t i = 0; i < at.size(); ++i)
        if (selected[i] && coord(at[i].x) == coord(p.x) + dx && coord(at[i].z) == coord(p.z) + dz)
          visits.push_back(static_cast<int>(i));
  return visits;
}

TEST(PointGrid, VisitsTheSelectedAgentsOfTheNineCellsAroundAPointInCellThenIdOrder) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> place(-20.0f, 20.0f);
  std::vector<glm::vec3> at;
  std::vector<std::uint8_t> selected;
  for (int i = 0; i < 3000; ++i) {
    at.push_back({place(random), 0.0f, place(random)});
    selected.push_back(i % 5 != 0 ? 1 : 0); // every fifth agent left out
  }
  const float cell = 1.5f;
  PointGrid grid;
  grid.build(at, selected, cell);
  EXPECT_EQ(grid.size(), 2400u);
  for (int q = 0; q < 200; ++q) {
    const glm::vec3 p{place(random) * 1.2f, 0.0f, place(random) * 1.2f}; // some beyond the agents
    std::vector<int> visits;
    grid.any_near(p, [&](int agent) {
      visits.push_back(agent);
      return false;
    });
    EXPECT_EQ(visits, expected_visits(at, selected, p, cell)) << "query " << q;
  }
}

TEST(PointGrid, StopsAtTheFirstAgentTheCallerIsDoneWith) {
  const std::vector<glm::vec3> at{{0.1f, 0.0f, 0.1f}, {0.2f, 0.0f, 0.2f}, {0.3f, 0.0f, 0.3f}};
  PointGrid grid;
  grid.build(at, std::vector<std::uint8_t>(3, 1), 1.0f);
  int visited = 0;
  EXPECT_TRUE(grid.any_near({0.0f, 0.0f, 0.0f}, [&](int agent) {
    ++visited;
    return agent == 1;
  }));
  EXPECT_EQ(visited, 2);
}

TEST(PointGrid, CellOrderListsEachSelectedAgentOnceAndAnEmptyGridAnswersNothing) {
  const std::vector<glm::vec3> at{{5.0f, 0.0f, 0.0f}, {-5.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
  PointGrid grid;
  grid.build(at, std::vector<std::uint8_t>{1, 1, 0}, 2.0f);
  ASSERT_EQ(grid.size(), 2u);
  EXPECT_EQ(grid.agent_in_cell_order(0), 1); // x cell -3 before x cell 2
  EXPECT_EQ(grid.agent_in_cell_order(1), 0);

  PointGrid empty;
  empty.build(at, std::vector<std::uint8_t>(3, 0), 2.0f);
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.any_near({0.0f, 0.0f, 0.0f}, [](int) { return true; }));
  PointGrid never_built;
  EXPECT_FALSE(never_built.any_near({0.0f, 0.0f, 0.0f}, [](int) { return true; }));
}

} // namespace
} // namespace crowd

// The agent grid (cuda/kernels/agent_grid_build.h, uniform_grid.h) built with thrust::cpp::par
// as the CPU executor builds it, against a brute-force assignment of agents to cells.
#include "cuda/kernels/agent_grid_build.h"
#include "cuda/kernels/uniform_grid.h"
#include "tests/support/crowd_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

using test::HostAgentGrid;
using test::Rng;

/// The cell of a point by the definition: floor((p - origin) / size), clamped to the grid.
glm::ivec2 expected_cell(const GridSpec& spec, glm::vec2 p) {
  const auto axis = [&](float v, float o, int cells) {
    const double f = std::floor((static_cast<double>(v) - o) / spec.cell_size);
    return static_cast<int>(std::clamp(f, 0.0, static_cast<double>(cells - 1)));
  };
  return {axis(p.x, spec.origin.x, spec.cells_x), axis(p.y, spec.origin.y, spec.cells_z)};
}

GridSpec grid_10x8() {
  GridSpec spec;
  spec.origin = {-5.0f, -4.0f};
  spec.cell_size = 1.5f;
  spec.cells_x = 10;
  spec.cells_z = 8;
  return spec;
}

/// Agents at random positions in and around the grid; a fraction inactive.
AgentArrays random_agents(Rng& rng, int n, const GridSpec& spec, double outside = 0.2,
                          double inactive = 0.1) {
  AgentArrays a = test::make_agent_arrays();
  const glm::vec2 lo = spec.origin;
  const glm::vec2 hi = spec.origin + spec.cell_size * glm::vec2(spec.cells_x, spec.cells_z);
  for (int i = 0; i < n; ++i) {
    glm::vec2 p{rng.uniform(lo.x, hi.x), rng.uniform(lo.y, hi.y)};
    if (rng.chance(outside))
      p = {rng.uniform(lo.x - 30, hi.x + 30), rng.uniform(lo.y - 30, hi.y + 30)};
    a.append({p.x, rng.uniform(-1, 1), p.y}, 0.4f, rng.uniform(1.5f, 2.5f), 8.0f, 3.0f, 0.0f, 0);
    if (rng.chance(inactive))
      a.mode.back() = kAgentInactive;
  }
  return a;
}

/// Checks the built grid cell by cell against the brute-force assignment.
void expect_grid_matches_brute_force(const GridSpec& spec, AgentArrays& a) {
  const HostAgentGrid grid(spec, a.view());
  const int cells = spec.cell_count();
  const int n = a.count();
  std::vector<std::vector<std::int32_t>> expected(static_cast<std::size_t>(cells));
  int active = 0;
  for (int i = 0; i < n; ++i) {
    if (a.mode[static_cast<std::size_t>(i)] == kAgentInactive)
      continue;
    ++active;
    const glm::vec3 p = a.position[static_cast<std::size_t>(i)];
    expected[static_cast<std::size_t>(spec.key(expected_cell(spec, {p.x, p.z})))].push_back(i);
  }
  ASSERT_EQ(grid.cell_start.size(), static_cast<std::size_t>(cells) + 2);
  EXPECT_EQ(grid.cell_start[0], 0);
  EXPECT_EQ(grid.cell_start[static_cast<std::size_t>(cells)], active)
      << "inactive agents must sort after every cell";
  EXPECT_EQ(grid.cell_start[static_cast<std::size_t>(cells) + 1], n);
  for (int c = 0; c < cells; ++c) {
    const auto begin = grid.items.begin() + grid.cell_start[static_cast<std::size_t>(c)];
    const auto end = grid.items.begin() + grid.cell_start[static_cast<std::size_t>(c) + 1];
    ASSERT_LE(grid.cell_start[static_cast<std::size_t>(c)],
              grid.cell_start[static_cast<std::size_t>(c) + 1]);
    EXPECT_EQ(std::vector<std::int32_t>(begin, end), expected[static_cast<std::size_t>(c)])
        << "cell " << c << " (ids ascending within a cell)";
  }
  // The tail holds exactly the inactive agents.
  for (int k = active; k < n; ++k)
    EXPECT_EQ(a.mode[static_cast<std::size_t>(grid.items[static_cast<std::size_t>(k)])],
              kAgentInactive);
  // The sorted copy holds exactly the position and height of the agent at each place, so the
  // neighbour search computes from the same floats as from the agent arrays.
  ASSERT_EQ(grid.points.size(), static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
    const auto agent = static_cast<std::size_t>(grid.items[k]);
    const glm::vec4 expected_point{a.position[agent], a.height[agent]};
    EXPECT_EQ(grid.points[k], expected_point) << "sorted place " << k << ", agent " << agent;
  }
}

TEST(AgentGrid, EmptySceneHasEmptyCells) {
  const GridSpec spec = grid_10x8();
  AgentArrays a = test::make_agent_arrays();
  const HostAgentGrid grid(spec, a.view());
  for (const std::int32_t start : grid.cell_start)
    EXPECT_EQ(start, 0);
}

TEST(AgentGrid, SingleAgentIsInItsCellOnly) {
  const GridSpec spec = grid_10x8();
  AgentArrays a = test::make_agent_arrays();
  a.append({0.1f, 0.0f, 0.2f}, 0.4f, 2.0f, 8.0f, 3.0f, 0.0f, 0);
  const HostAgentGrid grid(spec, a.view());
  // x: (0.1 + 5) / 1.5 = 3.4 -> 3; z: (0.2 + 4) / 1.5 = 2.8 -> 2.
  const int key = spec.key({3, 2});
  for (int c = 0; c <= spec.cell_count(); ++c)
    EXPECT_EQ(grid.cell_start[static_cast<std::size_t>(c)], c <= key ? 0 : 1) << c;
  EXPECT_EQ(grid.items[0], 0);
}

class AgentGridCounts : public ::testing::TestWithParam<int> {};

TEST_P(AgentGridCounts, EveryActiveAgentIsListedInTheCellOfItsPositionOnce) {
  Rng rng(100u + static_cast<std::uint32_t>(GetParam()));
  const GridSpec spec = grid_10x8();
  AgentArrays a = random_agents(rng, GetParam(), spec);
  expect_grid_matches_brute_force(spec, a);
}

INSTANTIATE_TEST_SUITE_P(NotMultiplesOfABlock, AgentGridCounts,
                         ::testing::Values(1, 2, 31, 32, 33, 127, 128, 129, 1000, 5000));

TEST(AgentGrid, ManyAgentsInOneCellKeepAscendingIds) {
  Rng rng(3);
  const GridSpec spec = grid_10x8();
  AgentArrays a = test::make_agent_arrays();
  for (int i = 0; i < 700; ++i)
    a.append({rng.uniform(1.01f, 2.49f), 0.0f, rng.uniform(-0.99f, 0.49f)}, 0.4f, 2.0f, 8.0f, 3.0f,
             0.0f, 0);
  expect_grid_matches_brute_force(spec, a);
  const HostAgentGrid grid(spec, a.view());
  const int key = spec.key({4, 2});
  EXPECT_EQ(grid.cell_start[static_cast<std::size_t>(key) + 1] -
                grid.cell_start[static_cast<std::size_t>(key)],
            700);
}

TEST(AgentGrid, AgentsOutsideTheAreaAreClampedToTheBorderCells) {
  const GridSpec spec = grid_10x8();
  EXPECT_EQ(spec.cell_of({-100.0f, -100.0f}), glm::ivec2(0, 0));
  EXPECT_EQ(spec.cell_of({100.0f, 0.0f}), glm::ivec2(9, 2));
  EXPECT_EQ(spec.cell_of({0.0f, 100.0f}), glm::ivec2(3, 7));
  EXPECT_EQ(spec.cell_of({-5.0f, -4.0f}), glm::ivec2(0, 0));
  EXPECT_EQ(spec.cell_of({10.0f, 8.0f}), glm::ivec2(9, 7)); // the far corner itself
  // Far beyond the int range of cell coordinates: still the border cells.
  EXPECT_EQ(spec.cell_of({3e9f, -3e9f}), glm::ivec2(9, 0));
  EXPECT_EQ(spec.cell_of({1e30f, 1e30f}), glm::ivec2(9, 7));
  EXPECT_EQ(spec.cell_of({-1e30f, 1e30f}), glm::ivec2(0, 7));
  EXPECT_EQ(spec.cell_of({INFINITY, -INFINITY}), glm::ivec2(9, 0));

  AgentArrays a = test::make_agent_arrays();
  for (const glm::vec2 p : {glm::vec2{-100, -100}, glm::vec2{100, 0}, glm::vec2{0, 100},
                            glm::vec2{3e9f, -3e9f}, glm::vec2{1e30f, 1e30f}, glm::vec2{0, 0}})
    a.append({p.x, 0.0f, p.y}, 0.4f, 2.0f, 8.0f, 3.0f, 0.0f, 0);
  expect_grid_matches_brute_force(spec, a);
}

TEST(AgentGrid, InactiveAgentsAreInNoCell) {
  Rng rng(4);
  const GridSpec spec = grid_10x8();
  AgentArrays a = random_agents(rng, 300, spec, 0.1, 0.5);
  expect_grid_matches_brute_force(spec, a);
  AgentArrays all_inactive = random_agents(rng, 50, spec, 0.1, 1.0);
  const HostAgentGrid grid(spec, all_inactive.view());
  EXPECT_EQ(grid.cell_start[static_cast<std::size_t>(spec.cell_count())], 0);
}

TEST(AgentGrid, SingleCellGridHoldsEveryActiveAgent) {
  Rng rng(5);
  GridSpec spec; // one cell of 1 m at the origin
  AgentArrays a = random_agents(rng, 200, grid_10x8());
  expect_grid_matches_brute_force(spec, a);
}

TEST(AgentGrid, ForEachItemNearVisitsEveryAgentInTheSquareOnceInRowMajorCellOrder) {
  Rng rng(6);
  const GridSpec spec = grid_10x8();
  AgentArrays a = random_agents(rng, 1000, spec);
  const HostAgentGrid grid(spec, a.view());
  for (int q = 0; q < 500; ++q) {
    const glm::vec2 centre{rng.uniform(-40, 40), rng.uniform(-40, 40)};
    const float range = rng.uniform(0.0f, 6.0f);
    std::vector<int> visits(static_cast<std::size_t>(a.count()), 0);
    int last_key = -1;
    for_each_item_near(grid.view.grid, centre, range, [&](std::int32_t j) {
      ++visits[static_cast<std::size_t>(j)];
      const glm::vec3 p = a.position[static_cast<std::size_t>(j)];
      const int key = spec.key(spec.cell_of({p.x, p.z}));
      EXPECT_GE(key, last_key) << "cells are visited in row-major order";
      last_key = key;
    });
    for (int j = 0; j < a.count(); ++j) {
      const glm::vec3 p = a.position[static_cast<std::size_t>(j)];
      ASSERT_LE(visits[static_cast<std::size_t>(j)], 1);
      const bool in_square =
          std::fabs(p.x - centre.x) <= range && std::fabs(p.z - centre.y) <= range;
      if (in_square && a.mode[static_cast<std::size_t>(j)] != kAgentInactive) {
        ASSERT_EQ(visits[static_cast<std::size_t>(j)], 1) << "query " << q << " agent " << j;
      }
      if (a.mode[static_cast<std::size_t>(j)] == kAgentInactive) {
        ASSERT_EQ(visits[static_cast<std::size_t>(j)], 0);
      }
    }
  }
}

} // namespace
} // namespace crowd

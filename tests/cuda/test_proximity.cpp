// Proximity (cuda/kernels/proximity.h): find_neighbors over the agent grid and
// find_wall_segments over the wall grid, each against a brute-force search of everything.
#include "cuda/kernels/proximity.h"
#include "host/sim/wall_grid_builder.h"
#include "tests/support/crowd_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>
#include <tuple>
#include <vector>

namespace crowd {
namespace {

using test::HostAgentGrid;
using test::Rng;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

GridSpec grid_over(glm::vec2 lo, glm::vec2 hi, float cell) {
  return make_grid_spec(lo, hi, cell);
}

// --- Neighbours -------------------------------------------------------------------------------

struct Expected {
  std::vector<std::int32_t> ids;
  std::vector<float> distance_sq;
  bool truncated = false;
};

/// Every active agent j != i in range whose height range overlaps, nearest first, ties to
/// the lower id, the first K kept.
Expected brute_force_neighbors(const AgentArrays& a, int i) {
  Expected e;
  if (a.mode[at(i)] == kAgentInactive)
    return e;
  std::vector<std::pair<float, std::int32_t>> all;
  const glm::vec3 p = a.position[at(i)];
  for (int j = 0; j < a.count(); ++j) {
    if (j == i || a.mode[at(j)] == kAgentInactive)
      continue;
    const glm::vec3 q = a.position[at(j)];
    if (std::fabs(p.y - q.y) >= (a.height[at(i)] + a.height[at(j)]) / 2.0f)
      continue;
    const float d_sq = test::ground_distance_sq(p, q);
    if (d_sq > a.query_range[at(i)] * a.query_range[at(i)])
      continue;
    all.emplace_back(d_sq, j);
  }
  std::sort(all.begin(), all.end());
  e.truncated = static_cast<int>(all.size()) > a.max_neighbors;
  all.resize(std::min(all.size(), at(a.max_neighbors)));
  for (const auto& [d, j] : all) {
    e.ids.push_back(j);
    e.distance_sq.push_back(d);
  }
  return e;
}

void run_find_neighbors(AgentArrays& a, const GridSpec& spec) {
  const AgentView view = a.view();
  const HostAgentGrid grid(spec, view);
  for (int i = 0; i < a.count(); ++i)
    find_neighbors(i, view, grid.view);
}

void expect_neighbors_match_brute_force(const AgentArrays& a) {
  for (int i = 0; i < a.count(); ++i) {
    const Expected e = brute_force_neighbors(a, i);
    const int n = a.neighbor_count[at(i)];
    ASSERT_EQ(n, static_cast<int>(e.ids.size())) << "agent " << i;
    const auto row = a.neighbor_index.begin() + static_cast<std::ptrdiff_t>(i) * a.max_neighbors;
    const auto drow =
        a.neighbor_distance_sq.begin() + static_cast<std::ptrdiff_t>(i) * a.max_neighbors;
    ASSERT_EQ(std::vector<std::int32_t>(row, row + n), e.ids) << "agent " << i;
    ASSERT_EQ(std::vector<float>(drow, drow + n), e.distance_sq) << "agent " << i;
    ASSERT_EQ((a.status[at(i)] & kNeighborsTruncated) != 0, e.truncated) << "agent " << i;
  }
}

struct NeighborCase {
  int agents;
  int k;
  float cell; ///< grid cell size relative to the query range
};

void PrintTo(const NeighborCase& c, std::ostream* os) {
  *os << c.agents << " agents, K " << c.k << ", cell " << c.cell << " x range";
}

class NeighborsMatchBruteForce : public ::testing::TestWithParam<NeighborCase> {};

TEST_P(NeighborsMatchBruteForce, NearestKInRangeAtTheirHeightTiesToLowerIdTruncationFlagged) {
  const NeighborCase c = GetParam();
  Rng rng(static_cast<std::uint32_t>(c.agents * 131 + c.k));
  AgentArrays a = test::make_agent_arrays(c.k, 8);
  // Dense enough that many agents have more than K in range, with a few stacked floors, some
  // agents outside the grid area and some inactive.
  const float side = std::sqrt(static_cast<float>(c.agents)) * 0.8f + 1.0f;
  for (int i = 0; i < c.agents; ++i) {
    glm::vec2 p{rng.uniform(0, side), rng.uniform(0, side)};
    if (rng.chance(0.05))
      p += glm::vec2(rng.uniform(-20, 20), rng.uniform(-20, 20));
    // Coarse positions make exact distance ties common.
    if (rng.chance(0.3))
      p = glm::round(p * 4.0f) / 4.0f;
    const float floor_y = static_cast<float>(rng.integer(0, 2)) * 1.5f + rng.uniform(-0.2f, 0.2f);
    a.append({p.x, floor_y, p.y}, rng.uniform(0.2f, 0.6f), rng.uniform(1.0f, 2.5f), 8.0f,
             rng.uniform(0.5f, 3.0f), 2.0f, 0);
    if (rng.chance(0.1))
      a.mode[at(i)] = kAgentInactive;
    if (rng.chance(0.1))
      a.mode[at(i)] = kAgentStanding;
    if (rng.chance(0.5))
      a.status[at(i)] = kNeighborsTruncated | kSegmentsTruncated; // stale flags from before
  }
  const std::vector<std::uint8_t> status_before = a.status;
  run_find_neighbors(a, grid_over({0.0f, 0.0f}, {side, side}, 3.0f * c.cell));
  expect_neighbors_match_brute_force(a);
  int truncated = 0;
  for (int i = 0; i < a.count(); ++i) {
    truncated += (a.status[at(i)] & kNeighborsTruncated) != 0;
    // find_neighbors owns only its own bit.
    EXPECT_EQ(a.status[at(i)] & kSegmentsTruncated, status_before[at(i)] & kSegmentsTruncated);
  }
  if (c.agents >= 127 && c.k == 6) {
    EXPECT_GT(truncated, 0) << "the scene should exercise truncation";
  }
}

INSTANTIATE_TEST_SUITE_P(Counts, NeighborsMatchBruteForce,
                         ::testing::Values(NeighborCase{0, 6, 1.0f}, NeighborCase{1, 6, 1.0f},
                                           NeighborCase{2, 6, 1.0f}, NeighborCase{31, 6, 1.0f},
                                           NeighborCase{33, 6, 0.5f}, NeighborCase{127, 6, 1.0f},
                                           NeighborCase{129, 6, 0.25f}, NeighborCase{1000, 6, 1.0f},
                                           NeighborCase{1000, 6, 0.3f}, NeighborCase{1000, 6, 4.0f},
                                           NeighborCase{33, 32, 1.0f}, NeighborCase{129, 32, 1.0f},
                                           NeighborCase{1000, 32, 1.0f},
                                           NeighborCase{1000, 32, 0.5f}));

TEST(Neighbors, EquidistantNeighboursGoToTheLowerIdsWhateverTheVisitOrder) {
  // Agent 0 at the centre of a 3x3-cell grid; eight agents at distance exactly 1 placed so
  // the grid visits high ids first (cells in row-major order, the highest ids in cell 0).
  AgentArrays a = test::make_agent_arrays(3, 8);
  a.append({1.5f, 0.0f, 1.5f}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0);
  const glm::vec2 ring[] = {{2.5f, 1.5f}, {1.5f, 2.5f}, {0.5f, 1.5f}, {1.5f, 0.5f}};
  // Ids 1..4 go to the far cells, 5..8 are duplicates at the near cells: all at distance 1.
  for (int k = 3; k >= 0; --k)
    a.append({ring[k].x, 0.0f, ring[k].y}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0);
  for (int k = 0; k < 4; ++k)
    a.append({ring[k].x, 0.0f, ring[k].y}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0);
  GridSpec spec;
  spec.cell_size = 1.0f;
  spec.cells_x = spec.cells_z = 3;
  run_find_neighbors(a, spec);
  ASSERT_EQ(a.neighbor_count[0], 3);
  EXPECT_EQ(a.neighbor_index[0], 1);
  EXPECT_EQ(a.neighbor_index[1], 2);
  EXPECT_EQ(a.neighbor_index[2], 3);
  EXPECT_NE(a.status[0] & kNeighborsTruncated, 0);
  expect_neighbors_match_brute_force(a);
}

TEST(Neighbors, NearestComeFirstAndTheFarthestAreDroppedWithTheTruncationFlag) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 10.0f, 0.0f, 0);
  for (int k = 8; k >= 1; --k) // distances 8, 7, ..., 1 for ids 1..8
    a.append({static_cast<float>(k), 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 10.0f, 0.0f, 0);
  run_find_neighbors(a, make_grid_spec({-1.0f, -1.0f}, {9.0f, 1.0f}, 1.0f));
  ASSERT_EQ(a.neighbor_count[0], 6);
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(a.neighbor_index[at(k)], 8 - k);
    EXPECT_EQ(a.neighbor_distance_sq[at(k)], static_cast<float>((k + 1) * (k + 1)));
  }
  EXPECT_NE(a.status[0] & kNeighborsTruncated, 0);
}

TEST(Neighbors, ExactlyKInRangeIsNotTruncatedAndStaleFlagIsCleared) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 10.0f, 0.0f, 0);
  for (int k = 1; k <= 6; ++k)
    a.append({static_cast<float>(k), 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 10.0f, 0.0f, 0);
  a.status[0] = kNeighborsTruncated;
  run_find_neighbors(a, make_grid_spec({-1.0f, -1.0f}, {9.0f, 1.0f}, 1.0f));
  EXPECT_EQ(a.neighbor_count[0], 6);
  EXPECT_EQ(a.status[0] & kNeighborsTruncated, 0);
}

TEST(Neighbors, RangeIsInclusiveAndMeasuredOnTheGround) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0);
  a.append({2.0f, 0.5f, 0.0f}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0);   // exactly at range
  a.append({0.0f, 0.0f, -2.01f}, 0.3f, 2.0f, 8.0f, 2.0f, 0.0f, 0); // just beyond
  run_find_neighbors(a, make_grid_spec({-3.0f, -3.0f}, {3.0f, 3.0f}, 2.0f));
  ASSERT_EQ(a.neighbor_count[0], 1);
  EXPECT_EQ(a.neighbor_index[0], 1);
  EXPECT_EQ(a.neighbor_distance_sq[0], 4.0f);
}

TEST(Neighbors, AgentsOnAnotherFloorAreNotNeighbours) {
  // DetourCrowd's test: |dy| >= (h_i + h_j) / 2 excludes.
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 5.0f, 0.0f, 0);
  a.append({1.0f, 1.99f, 0.0f}, 0.3f, 2.0f, 8.0f, 5.0f, 0.0f, 0); // overlapping heights
  a.append({1.0f, 2.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 5.0f, 0.0f, 0);  // just touching: excluded
  a.append({1.0f, -3.0f, 0.0f}, 0.3f, 4.0f, 8.0f, 5.0f, 0.0f, 0); // tall one below: (2+4)/2 = 3
  a.append({1.0f, -2.9f, 0.0f}, 0.3f, 4.0f, 8.0f, 5.0f, 0.0f, 0);
  run_find_neighbors(a, make_grid_spec({-3.0f, -3.0f}, {3.0f, 3.0f}, 5.0f));
  ASSERT_EQ(a.neighbor_count[0], 2);
  EXPECT_EQ(a.neighbor_index[0], 1);
  EXPECT_EQ(a.neighbor_index[1], 4);
}

TEST(Neighbors, InactiveAgentsNeitherAppearNorGetNeighbours) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  for (int k = 0; k < 5; ++k)
    a.append({static_cast<float>(k) * 0.5f, 0.0f, 0.0f}, 0.3f, 2.0f, 8.0f, 5.0f, 0.0f, 0);
  a.mode[1] = kAgentInactive;
  a.mode[3] = kAgentInactive;
  a.neighbor_count[1] = 4; // stale
  run_find_neighbors(a, make_grid_spec({-1.0f, -1.0f}, {3.0f, 1.0f}, 1.0f));
  EXPECT_EQ(a.neighbor_count[1], 0);
  EXPECT_EQ(a.neighbor_count[3], 0);
  for (const int i : {0, 2, 4}) {
    ASSERT_EQ(a.neighbor_count[at(i)], 2) << i;
    for (int k = 0; k < 2; ++k) {
      const int j = a.neighbor_index[at(i * a.max_neighbors + k)];
      EXPECT_TRUE(j == 0 || j == 2 || j == 4) << i << " sees " << j;
    }
  }
}

TEST(Neighbors, AgentNeverListsItselfEvenWhenOthersCoincide) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  for (int k = 0; k < 4; ++k)
    a.append({1.0f, 0.0f, 1.0f}, 0.3f, 2.0f, 8.0f, 5.0f, 0.0f, 0);
  run_find_neighbors(a, make_grid_spec({0.0f, 0.0f}, {2.0f, 2.0f}, 1.0f));
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(a.neighbor_count[at(i)], 3);
    for (int k = 0; k < 3; ++k)
      EXPECT_NE(a.neighbor_index[at(i * 6 + k)], i);
  }
  expect_neighbors_match_brute_force(a);
}

TEST(InsertNearest, KeepsAscendingKeysThenIdsAndFlagsDrops) {
  float keys[3];
  std::int32_t ids[3];
  bool truncated = false;
  int n = 0;
  n = insert_nearest(2.0f, 7, keys, ids, n, 3, truncated);
  n = insert_nearest(1.0f, 9, keys, ids, n, 3, truncated);
  n = insert_nearest(2.0f, 3, keys, ids, n, 3, truncated);
  EXPECT_FALSE(truncated);
  ASSERT_EQ(n, 3);
  EXPECT_EQ(std::vector<std::int32_t>(ids, ids + 3), (std::vector<std::int32_t>{9, 3, 7}));
  n = insert_nearest(5.0f, 1, keys, ids, n, 3, truncated); // farther than all: dropped
  EXPECT_TRUE(truncated);
  truncated = false;
  n = insert_nearest(2.0f, 5, keys, ids, n, 3, truncated); // pushes out (2, 7)
  EXPECT_TRUE(truncated);
  ASSERT_EQ(n, 3);
  EXPECT_EQ(std::vector<std::int32_t>(ids, ids + 3), (std::vector<std::int32_t>{9, 3, 5}));
  EXPECT_EQ(std::vector<float>(keys, keys + 3), (std::vector<float>{1.0f, 2.0f, 2.0f}));
}

// --- Wall segments ----------------------------------------------------------------------------

struct WallScene {
  std::vector<WallSegment> segments;
  WallGridData grid;
};

/// Random walls in [-20, 20]^2 of lengths up to 15 m (so most span many cells), at a few
/// floor heights.
WallScene random_walls(Rng& rng, int count, float cell) {
  WallScene s;
  for (int k = 0; k < count; ++k) {
    const glm::vec2 mid{rng.uniform(-20, 20), rng.uniform(-20, 20)};
    const glm::vec2 half = rng.direction() * rng.uniform(0.05f, 7.5f);
    const float y = static_cast<float>(rng.integer(0, 2)) * 3.0f + rng.uniform(-0.3f, 0.3f);
    WallSegment w;
    w.p = {mid.x - half.x, y + rng.uniform(-0.2f, 0.2f), mid.y - half.y};
    w.q = {mid.x + half.x, y + rng.uniform(-0.2f, 0.2f), mid.y + half.y};
    if (rng.chance(0.05)) // axis-aligned, exactly on cell lines
      w.q = {w.p.x, w.q.y, w.q.z}, w.p.x = std::round(w.p.x);
    s.segments.push_back(w);
  }
  s.grid = build_wall_grid(s.segments, {-20.0f, -20.0f}, {20.0f, 20.0f}, cell);
  return s;
}

struct ExpectedWalls {
  std::vector<glm::vec4> rows;
  bool truncated = false;
};

/// Every segment at the agent's height, facing it (dtTriArea2D(agent, p, q) >= 0) and within
/// range, nearest first with ties to the lower segment id, the first S kept.
ExpectedWalls brute_force_walls(const AgentArrays& a, int i,
                                const std::vector<WallSegment>& walls) {
  ExpectedWalls e;
  if (a.mode[at(i)] == kAgentInactive)
    return e;
  const glm::vec3 p = a.position[at(i)];
  const glm::vec2 pg{p.x, p.z};
  std::vector<std::pair<float, int>> all;
  for (int s = 0; s < static_cast<int>(walls.size()); ++s) {
    const WallSegment& w = walls[at(s)];
    if (std::fabs(0.5f * (w.p.y + w.q.y) - p.y) >= a.height[at(i)])
      continue;
    if (tri_area_2d(pg, {w.p.x, w.p.z}, {w.q.x, w.q.z}) < 0.0f)
      continue;
    float t = 0.0f;
    const float d_sq = distance_point_segment_sqr_2d(pg, {w.p.x, w.p.z}, {w.q.x, w.q.z}, t);
    if (d_sq > a.query_range[at(i)] * a.query_range[at(i)])
      continue;
    all.emplace_back(d_sq, s);
  }
  std::sort(all.begin(), all.end());
  e.truncated = static_cast<int>(all.size()) > a.max_segments;
  all.resize(std::min(all.size(), at(a.max_segments)));
  for (const auto& [d, s] : all) {
    const WallSegment& w = walls[at(s)];
    e.rows.emplace_back(w.p.x, w.p.z, w.q.x, w.q.z);
  }
  return e;
}

void run_find_walls(AgentArrays& a, const WallGridData& walls) {
  const AgentView view = a.view();
  const WallGridView wv = walls.view();
  std::vector<float> dist(at(a.max_segments));
  std::vector<std::int32_t> ids(at(a.max_segments));
  for (int i = 0; i < a.count(); ++i)
    find_wall_segments(i, view, wv, dist.data(), ids.data());
}

class WallsMatchBruteForce : public ::testing::TestWithParam<std::tuple<int, float>> {};

TEST_P(WallsMatchBruteForce, NearestFacingSegmentsInRangeEachOnceTruncationFlagged) {
  const auto [max_segments, cell] = GetParam();
  Rng rng(static_cast<std::uint32_t>(max_segments * 7 + static_cast<int>(cell * 10)));
  const WallScene scene = random_walls(rng, 300, cell);
  AgentArrays a = test::make_agent_arrays(6, max_segments);
  for (int i = 0; i < 600; ++i) {
    glm::vec2 p{rng.uniform(-20, 20), rng.uniform(-20, 20)};
    if (rng.chance(0.05))
      p *= 1.5f; // outside the wall grid's area
    const float y = static_cast<float>(rng.integer(0, 2)) * 3.0f;
    a.append({p.x, y, p.y}, 0.4f, rng.uniform(1.0f, 2.5f), 8.0f, rng.uniform(0.5f, 6.0f), 0.0f, 0);
    if (rng.chance(0.05))
      a.mode[at(i)] = kAgentInactive;
    if (rng.chance(0.5))
      a.status[at(i)] = kNeighborsTruncated | kSegmentsTruncated;
  }
  const std::vector<std::uint8_t> status_before = a.status;
  run_find_walls(a, scene.grid);
  int truncated = 0, found = 0;
  for (int i = 0; i < a.count(); ++i) {
    const ExpectedWalls e = brute_force_walls(a, i, scene.segments);
    const int n = a.segment_count[at(i)];
    ASSERT_EQ(n, static_cast<int>(e.rows.size())) << "agent " << i;
    const auto row = a.segment.begin() + static_cast<std::ptrdiff_t>(i) * a.max_segments;
    ASSERT_EQ(std::vector<glm::vec4>(row, row + n), e.rows) << "agent " << i;
    std::set<std::tuple<float, float, float, float>> distinct;
    for (int k = 0; k < n; ++k)
      distinct.insert({row[k].x, row[k].y, row[k].z, row[k].w});
    EXPECT_EQ(distinct.size(), at(n)) << "no segment twice, agent " << i;
    ASSERT_EQ((a.status[at(i)] & kSegmentsTruncated) != 0, e.truncated) << "agent " << i;
    EXPECT_EQ(a.status[at(i)] & kNeighborsTruncated, status_before[at(i)] & kNeighborsTruncated);
    truncated += e.truncated;
    found += n;
  }
  EXPECT_GT(found, 300) << "the scene should put walls in range";
  if (max_segments <= 8) {
    EXPECT_GT(truncated, 0) << "the scene should exercise truncation";
  }
}

INSTANTIATE_TEST_SUITE_P(SegmentsAndCells, WallsMatchBruteForce,
                         ::testing::Combine(::testing::Values(1, 8, 32),
                                            ::testing::Values(0.5f, 2.0f, 8.0f)));

TEST(WallSegments, SegmentFacingAwayIsIgnoredAndFacingOneKeptAsStored) {
  // The inside of a 4 m square room; its x = 0 wall, stored in both orientations: only
  // (0,0) -> (0,4) has dtTriArea2D(agent, p, q) >= 0 for an agent at x > 0.
  const std::vector<WallSegment> walls = {{{0.0f, 0.0f, 4.0f}, {0.0f, 0.0f, 0.0f}},
                                          {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 4.0f}}};
  const WallGridData grid = build_wall_grid(walls, {-1.0f, -1.0f}, {5.0f, 5.0f}, 1.0f);
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({1.0f, 0.0f, 2.0f}, 0.4f, 2.0f, 8.0f, 3.0f, 0.0f, 0);
  run_find_walls(a, grid);
  ASSERT_GT(tri_area_2d({1.0f, 2.0f}, {0.0f, 0.0f}, {0.0f, 4.0f}), 0.0f);
  ASSERT_LT(tri_area_2d({1.0f, 2.0f}, {0.0f, 4.0f}, {0.0f, 0.0f}), 0.0f);
  ASSERT_EQ(a.segment_count[0], 1);
  EXPECT_EQ(a.segment[0], glm::vec4(0.0f, 0.0f, 0.0f, 4.0f));
}

TEST(WallSegments, LongWallAcrossManyCellsIsReportedOnce) {
  const std::vector<WallSegment> walls = {{{10.0f, 0.0f, -0.5f}, {-10.0f, 0.0f, -0.5f}}};
  const WallGridData grid = build_wall_grid(walls, {-10.0f, -10.0f}, {10.0f, 10.0f}, 0.25f);
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.4f, 2.0f, 8.0f, 5.0f, 0.0f, 0);
  run_find_walls(a, grid);
  ASSERT_TRUE(tri_area_2d({0.0f, 0.0f}, {10.0f, -0.5f}, {-10.0f, -0.5f}) >= 0.0f);
  EXPECT_EQ(a.segment_count[0], 1);
  EXPECT_EQ(a.status[0] & kSegmentsTruncated, 0);
}

TEST(WallSegments, InactiveAgentGetsNoSegments) {
  const std::vector<WallSegment> walls = {{{1.0f, 0.0f, 1.0f}, {1.0f, 0.0f, -1.0f}}};
  const WallGridData grid = build_wall_grid(walls, {-2.0f, -2.0f}, {2.0f, 2.0f}, 1.0f);
  AgentArrays a = test::make_agent_arrays(6, 8);
  a.append({0.0f, 0.0f, 0.0f}, 0.4f, 2.0f, 8.0f, 5.0f, 0.0f, 0);
  a.mode[0] = kAgentInactive;
  a.segment_count[0] = 3;
  run_find_walls(a, grid);
  EXPECT_EQ(a.segment_count[0], 0);
}

} // namespace
} // namespace crowd

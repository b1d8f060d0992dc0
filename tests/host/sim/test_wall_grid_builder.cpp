// The wall grid builder (host/sim/wall_grid_builder.cpp) and its query
// (cuda/kernels/wall_grid.h): every segment is listed in, and found from, every cell its
// bounding box touches, exactly once, each listing with a copy of what the query reads;
// make_grid_spec covers the area within the cell budget.
#include "cuda/kernels/wall_grid.h"
#include "host/sim/wall_grid_builder.h"
#include "tests/support/crowd_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

using test::Rng;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

std::vector<WallSegment> random_segments(Rng& rng, int count, glm::vec2 lo, glm::vec2 hi) {
  std::vector<WallSegment> out;
  for (int k = 0; k < count; ++k) {
    WallSegment s;
    const glm::vec2 a{rng.uniform(lo.x - 5, hi.x + 5), rng.uniform(lo.y - 5, hi.y + 5)};
    glm::vec2 b = a + rng.direction() * rng.uniform(0.0f, 12.0f);
    if (k % 17 == 0)
      b = a; // a point
    if (k % 13 == 0)
      b = {a.x, a.y + 7.0f}; // axis-aligned
    if (k % 11 == 0)
      b = {std::round(b.x), std::round(b.y)}; // on cell lines
    s.p = {a.x, rng.uniform(-1, 1), a.y};
    s.q = {b.x, rng.uniform(-1, 1), b.y};
    out.push_back(s);
  }
  return out;
}

bool box_contains(const glm::ivec4& box, int x, int z) {
  return x >= box.x && x <= box.z && z >= box.y && z <= box.w;
}

TEST(WallGridBuilder, EverySegmentIsListedOnceInEveryCellOfItsBoxAndNowhereElse) {
  Rng rng(1);
  const glm::vec2 lo{-10.0f, -6.0f}, hi{14.0f, 9.0f};
  const std::vector<WallSegment> segments = random_segments(rng, 400, lo, hi);
  const WallGridData g = build_wall_grid(segments, lo, hi, 1.0f);
  const GridSpec& spec = g.spec;
  ASSERT_EQ(g.p.size(), segments.size());
  ASSERT_EQ(g.cell_box.size(), segments.size());
  ASSERT_EQ(g.cell_start.size(), at(spec.cell_count()) + 1);
  ASSERT_EQ(g.cell_start.front(), 0);
  ASSERT_EQ(g.cell_start.back(), static_cast<std::int32_t>(g.items.size()));
  long long listed = 0;
  for (int s = 0; s < static_cast<int>(segments.size()); ++s) {
    const WallSegment& w = segments[at(s)];
    EXPECT_EQ(g.p[at(s)], w.p);
    EXPECT_EQ(g.q[at(s)], w.q);
    const glm::ivec4 box = g.cell_box[at(s)];
    const glm::ivec2 a = spec.cell_of({std::min(w.p.x, w.q.x), std::min(w.p.z, w.q.z)});
    const glm::ivec2 b = spec.cell_of({std::max(w.p.x, w.q.x), std::max(w.p.z, w.q.z)});
    EXPECT_EQ(box, glm::ivec4(a.x, a.y, b.x, b.y)) << s;
    // Every point of the segment lies in a cell of the box.
    for (int k = 0; k <= 50; ++k) {
      const float t = static_cast<float>(k) / 50.0f;
      const glm::ivec2 c = spec.cell_of({w.p.x + t * (w.q.x - w.p.x), w.p.z + t * (w.q.z - w.p.z)});
      EXPECT_TRUE(box_contains(box, c.x, c.y)) << s;
    }
    listed += static_cast<long long>(box.z - box.x + 1) * (box.w - box.y + 1);
  }
  EXPECT_EQ(listed, static_cast<long long>(g.items.size()));
  for (int z = 0; z < spec.cells_z; ++z) {
    for (int x = 0; x < spec.cells_x; ++x) {
      const int key = spec.key({x, z});
      std::vector<std::int32_t> expected;
      for (int s = 0; s < static_cast<int>(segments.size()); ++s)
        if (box_contains(g.cell_box[at(s)], x, z))
          expected.push_back(s);
      const std::vector<std::int32_t> got(g.items.begin() + g.cell_start[at(key)],
                                          g.items.begin() + g.cell_start[at(key) + 1]);
      ASSERT_EQ(got, expected) << "cell (" << x << ", " << z << "), ascending segment ids";
    }
  }
}

TEST(WallGridBuilder, EachListingCopiesItsSegmentEndsHeightCellAndBoxCorner) {
  Rng rng(7);
  const glm::vec2 lo{-10.0f, -6.0f}, hi{14.0f, 9.0f};
  const WallGridData g = build_wall_grid(random_segments(rng, 300, lo, hi), lo, hi, 1.5f);
  ASSERT_EQ(g.listing.size(), g.items.size());
  for (int z = 0; z < g.spec.cells_z; ++z) {
    for (int x = 0; x < g.spec.cells_x; ++x) {
      const int key = g.spec.key({x, z});
      for (int k = g.cell_start[at(key)]; k < g.cell_start[at(key) + 1]; ++k) {
        const int s = g.items[at(k)];
        const WallListing& l = g.listing[at(k)];
        const glm::vec3 p = g.p[at(s)];
        const glm::vec3 q = g.q[at(s)];
        // Bit for bit what the query computed from p and q before listings carried them.
        EXPECT_EQ(l.ends, glm::vec4(p.x, p.z, q.x, q.z)) << "listing " << k;
        EXPECT_EQ(l.mid_y, 0.5f * (p.y + q.y)) << "listing " << k;
        EXPECT_EQ(l.cell_x, x) << "listing " << k;
        EXPECT_EQ(l.box_min_x, g.cell_box[at(s)].x) << "listing " << k;
        EXPECT_EQ(l.box_min_z, g.cell_box[at(s)].y) << "listing " << k;
      }
    }
  }
}

TEST(WallGridBuilder, EverySegmentIsFoundOnceFromEveryCellItsBoxTouches) {
  Rng rng(2);
  const glm::vec2 lo{0.0f, 0.0f}, hi{20.0f, 20.0f};
  const std::vector<WallSegment> segments = random_segments(rng, 150, lo, hi);
  const WallGridData g = build_wall_grid(segments, lo, hi, 0.5f);
  const WallGridView view = g.view();
  const GridSpec& spec = g.spec;
  for (int s = 0; s < static_cast<int>(segments.size()); ++s) {
    const glm::ivec4 box = g.cell_box[at(s)];
    for (int z = box.y; z <= box.w; ++z) {
      for (int x = box.x; x <= box.z; ++x) {
        const glm::vec2 centre = spec.origin + (glm::vec2(x, z) + 0.5f) * spec.cell_size;
        int seen = 0;
        for_each_segment_near(view, centre, 0.0f, [&](std::int32_t id) { seen += id == s; });
        ASSERT_EQ(seen, 1) << "segment " << s << " from cell (" << x << ", " << z << ")";
      }
    }
  }
}

TEST(WallGridBuilder, QuerySquaresVisitEachOverlappingSegmentExactlyOnce) {
  Rng rng(3);
  const glm::vec2 lo{-8.0f, -8.0f}, hi{8.0f, 8.0f};
  const std::vector<WallSegment> segments = random_segments(rng, 200, lo, hi);
  for (const float cell : {0.25f, 1.0f, 3.0f, 40.0f}) {
    const WallGridData g = build_wall_grid(segments, lo, hi, cell);
    const WallGridView view = g.view();
    for (int q = 0; q < 300; ++q) {
      const glm::vec2 centre{rng.uniform(-15, 15), rng.uniform(-15, 15)};
      const float range = rng.uniform(0.0f, 5.0f);
      const glm::ivec2 qlo = g.spec.cell_of(centre - range);
      const glm::ivec2 qhi = g.spec.cell_of(centre + range);
      std::vector<int> visits(segments.size(), 0);
      for_each_segment_near(view, centre, range, [&](std::int32_t id) { ++visits[at(id)]; });
      for (int s = 0; s < static_cast<int>(segments.size()); ++s) {
        const glm::ivec4 b = g.cell_box[at(s)];
        const bool overlaps = b.x <= qhi.x && b.z >= qlo.x && b.y <= qhi.y && b.w >= qlo.y;
        ASSERT_EQ(visits[at(s)], overlaps ? 1 : 0)
            << "cell " << cell << ", query " << q << ", segment " << s;
      }
    }
  }
}

TEST(WallGridBuilder, NoSegmentsGivesEmptyCells) {
  const WallGridData g = build_wall_grid({}, {0.0f, 0.0f}, {10.0f, 10.0f}, 2.0f);
  EXPECT_EQ(g.spec.cell_count(), 25);
  EXPECT_TRUE(g.items.empty());
  for (const std::int32_t start : g.cell_start)
    EXPECT_EQ(start, 0);
  int visits = 0;
  for_each_segment_near(g.view(), {5.0f, 5.0f}, 100.0f, [&](std::int32_t) { ++visits; });
  EXPECT_EQ(visits, 0);
}

TEST(MakeGridSpec, CoversTheAreaWithCellsOfTheRequestedSize) {
  const GridSpec spec = make_grid_spec({-3.0f, 2.0f}, {7.0f, 5.0f}, 4.0f);
  EXPECT_EQ(spec.origin, glm::vec2(-3.0f, 2.0f));
  EXPECT_EQ(spec.cell_size, 4.0f);
  EXPECT_EQ(spec.cells_x, 3); // ceil(10 / 4)
  EXPECT_EQ(spec.cells_z, 1); // ceil(3 / 4)
}

TEST(MakeGridSpec, DegenerateAreaGetsOneCell) {
  const GridSpec spec = make_grid_spec({1.0f, 1.0f}, {1.0f, 1.0f}, 2.0f);
  EXPECT_EQ(spec.cells_x, 1);
  EXPECT_EQ(spec.cells_z, 1);
  EXPECT_EQ(spec.cell_size, 2.0f);
}

TEST(MakeGridSpec, WidensCellsByDoublingUntilUnderMaxCells) {
  // 1000 m x 1000 m at 0.1 m would be 1e8 cells; the budget of 2^22 allows 0.8 m (1250^2).
  const GridSpec spec = make_grid_spec({0.0f, 0.0f}, {1000.0f, 1000.0f}, 0.1f);
  EXPECT_EQ(spec.cell_size, 0.1f * 8.0f);
  EXPECT_EQ(spec.cells_x, 1250);
  EXPECT_EQ(spec.cells_z, 1250);
  EXPECT_LE(static_cast<long long>(spec.cells_x) * spec.cells_z, 1LL << 22);
}

TEST(MakeGridSpec, RespectsAnyCellBudgetAndStillCoversTheArea) {
  Rng rng(4);
  for (int k = 0; k < 500; ++k) {
    const glm::vec2 lo{rng.uniform(-500, 500), rng.uniform(-500, 500)};
    const glm::vec2 hi = lo + glm::vec2(rng.uniform(0.0f, 800.0f), rng.uniform(0.0f, 800.0f));
    const float cell = rng.uniform(0.05f, 10.0f);
    const long long budget = rng.integer(1, 1 << 20);
    const GridSpec spec = make_grid_spec(lo, hi, cell, budget);
    ASSERT_LE(static_cast<long long>(spec.cells_x) * spec.cells_z, budget) << k;
    ASSERT_GE(spec.cell_size, cell) << k;
    ASSERT_GE(static_cast<double>(spec.cells_x) * spec.cell_size, static_cast<double>(hi.x - lo.x))
        << k;
    ASSERT_GE(static_cast<double>(spec.cells_z) * spec.cell_size, static_cast<double>(hi.y - lo.y))
        << k;
    // Not wider than needed: half the size would break the budget (unless unwidened).
    if (spec.cell_size > cell) {
      const double half = spec.cell_size / 2.0;
      const double nx = std::ceil(std::max(hi.x - lo.x, 1e-3f) / half);
      const double nz = std::ceil(std::max(hi.y - lo.y, 1e-3f) / half);
      ASSERT_GT(nx * nz, static_cast<double>(budget)) << k;
    }
  }
}

TEST(MakeGridSpec, BuildWallGridStaysWithinTheDefaultBudget) {
  const std::vector<WallSegment> segments = {{{0.0f, 0.0f, 0.0f}, {4000.0f, 0.0f, 4000.0f}}};
  const WallGridData g = build_wall_grid(segments, {0.0f, 0.0f}, {4000.0f, 4000.0f}, 0.5f);
  EXPECT_LE(g.spec.cell_count(), 1 << 22);
  EXPECT_GT(g.spec.cell_size, 0.5f);
  EXPECT_EQ(g.cell_box[0], glm::ivec4(0, 0, g.spec.cells_x - 1, g.spec.cells_z - 1));
}

} // namespace
} // namespace crowd

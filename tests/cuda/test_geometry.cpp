// cuda/kernels/geometry.h against closed-form answers and against Detour's own functions.
#include "cuda/kernels/geometry.h"
#include "tests/support/crowd_test_support.h"

#include <DetourCommon.h>
#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

using test::dt3;
using test::Rng;

// --- ground / distance_2d ------------------------------------------------------------------

TEST(Geometry, GroundDropsTheHeight) {
  const glm::vec2 g = ground({1.5f, -7.0f, 2.25f});
  EXPECT_EQ(g.x, 1.5f);
  EXPECT_EQ(g.y, 2.25f);
}

TEST(Geometry, Distance2dIsTheEuclideanGroundDistance) {
  EXPECT_EQ(distance_2d({0.0f, 0.0f}, {3.0f, 4.0f}), 5.0f);
  EXPECT_EQ(distance_2d({-1.0f, 2.0f}, {-1.0f, 2.0f}), 0.0f);
  EXPECT_EQ(distance_2d({1.0f, 1.0f}, {-2.0f, -3.0f}), 5.0f);
}

TEST(Geometry, Distance2dMatchesDtVdist2DBitForBit) {
  Rng rng(11);
  for (int k = 0; k < 10000; ++k) {
    const glm::vec2 a{rng.uniform(-50, 50), rng.uniform(-50, 50)};
    const glm::vec2 b{rng.uniform(-50, 50), rng.uniform(-50, 50)};
    // The height must not matter.
    const auto da = dt3(a, rng.uniform(-3, 3));
    const auto db = dt3(b, rng.uniform(-3, 3));
    ASSERT_EQ(distance_2d(a, b), dtVdist2D(da.data(), db.data())) << k;
  }
}

// --- perp_2d / tri_area_2d -----------------------------------------------------------------

TEST(Geometry, Perp2dMatchesDtVperp2D) {
  EXPECT_EQ(perp_2d({1.0f, 0.0f}, {0.0f, 1.0f}), -1.0f);
  EXPECT_EQ(perp_2d({0.0f, 1.0f}, {1.0f, 0.0f}), 1.0f);
  Rng rng(12);
  for (int k = 0; k < 10000; ++k) {
    const glm::vec2 u{rng.uniform(-10, 10), rng.uniform(-10, 10)};
    const glm::vec2 v{rng.uniform(-10, 10), rng.uniform(-10, 10)};
    ASSERT_EQ(perp_2d(u, v), dtVperp2D(dt3(u).data(), dt3(v).data())) << k;
  }
}

TEST(Geometry, TriArea2dIsTwiceTheSignedAreaWithDetoursSign) {
  // a = origin, b on +x, c on +z: dtTriArea2D gives acx*abz - abx*acz = 0*0 - 1*1 = -1.
  EXPECT_EQ(tri_area_2d({0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}), -1.0f);
  EXPECT_EQ(tri_area_2d({0.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 0.0f}), 1.0f);
  // Twice the area (6) of a right triangle with legs 3 and 4.
  EXPECT_EQ(tri_area_2d({1.0f, 1.0f}, {1.0f, 4.0f}, {5.0f, 1.0f}), 12.0f);
  // Collinear points have no area.
  EXPECT_EQ(tri_area_2d({0.0f, 0.0f}, {1.0f, 1.0f}, {3.0f, 3.0f}), 0.0f);
  // Swapping two vertices flips the sign.
  EXPECT_EQ(tri_area_2d({1.0f, 1.0f}, {5.0f, 1.0f}, {1.0f, 4.0f}), -12.0f);
}

TEST(Geometry, TriArea2dMatchesDtTriArea2DOnRandomPointsBitForBit) {
  Rng rng(13);
  for (int k = 0; k < 20000; ++k) {
    const glm::vec2 a{rng.uniform(-100, 100), rng.uniform(-100, 100)};
    const glm::vec2 b{rng.uniform(-100, 100), rng.uniform(-100, 100)};
    const glm::vec2 c{rng.uniform(-100, 100), rng.uniform(-100, 100)};
    const auto da = dt3(a, rng.uniform(-5, 5));
    const auto db = dt3(b, rng.uniform(-5, 5));
    const auto dc = dt3(c, rng.uniform(-5, 5));
    ASSERT_EQ(tri_area_2d(a, b, c), dtTriArea2D(da.data(), db.data(), dc.data())) << k;
  }
}

TEST(Geometry, WallSegmentOrientationFacesTheInsideWithNonNegativeTriArea) {
  // WallSegment's contract: dtTriArea2D(inside, p, q) >= 0. For the square [0,4]^2 the
  // z = 0 edge that faces the inside runs p = (4,0) -> q = (0,0); dtCrowd keeps a segment
  // for an agent exactly when dtTriArea2D(agent, p, q) >= 0.
  const glm::vec2 inside{2.0f, 2.0f};
  const glm::vec2 outside{2.0f, -2.0f};
  EXPECT_GT(tri_area_2d(inside, {4.0f, 0.0f}, {0.0f, 0.0f}), 0.0f);
  EXPECT_LT(tri_area_2d(outside, {4.0f, 0.0f}, {0.0f, 0.0f}), 0.0f);
  EXPECT_LT(tri_area_2d(inside, {0.0f, 0.0f}, {4.0f, 0.0f}), 0.0f);
}

// --- distance_point_segment_sqr_2d ---------------------------------------------------------

TEST(Geometry, PointSegmentDistanceInTheMiddleReportsTheProjectionParameter) {
  float t = -1.0f;
  EXPECT_EQ(distance_point_segment_sqr_2d({1.0f, 3.0f}, {0.0f, 0.0f}, {4.0f, 0.0f}, t), 9.0f);
  EXPECT_EQ(t, 0.25f);
  EXPECT_EQ(distance_point_segment_sqr_2d({2.0f, -1.5f}, {0.0f, 0.0f}, {4.0f, 0.0f}, t), 2.25f);
  EXPECT_EQ(t, 0.5f);
}

TEST(Geometry, PointSegmentDistanceBeforeTheStartClampsToP) {
  float t = -1.0f;
  EXPECT_EQ(distance_point_segment_sqr_2d({-2.0f, 1.0f}, {0.0f, 0.0f}, {4.0f, 0.0f}, t), 5.0f);
  EXPECT_EQ(t, 0.0f);
}

TEST(Geometry, PointSegmentDistancePastTheEndClampsToQ) {
  float t = -1.0f;
  EXPECT_EQ(distance_point_segment_sqr_2d({7.0f, 4.0f}, {0.0f, 0.0f}, {4.0f, 0.0f}, t), 25.0f);
  EXPECT_EQ(t, 1.0f);
}

TEST(Geometry, PointSegmentDistanceAtTheEndpointsIsZero) {
  float t = -1.0f;
  EXPECT_EQ(distance_point_segment_sqr_2d({1.0f, 2.0f}, {1.0f, 2.0f}, {5.0f, 6.0f}, t), 0.0f);
  EXPECT_EQ(t, 0.0f);
  EXPECT_EQ(distance_point_segment_sqr_2d({5.0f, 6.0f}, {1.0f, 2.0f}, {5.0f, 6.0f}, t), 0.0f);
  EXPECT_EQ(t, 1.0f);
}

TEST(Geometry, PointSegmentDistanceToADegenerateSegmentIsTheDistanceToItsPoint) {
  float t = -1.0f;
  EXPECT_EQ(distance_point_segment_sqr_2d({4.0f, 5.0f}, {1.0f, 1.0f}, {1.0f, 1.0f}, t), 25.0f);
  EXPECT_EQ(t, 0.0f);
}

TEST(Geometry, PointSegmentDistanceMatchesDtDistancePtSegSqr2DBitForBit) {
  Rng rng(14);
  for (int k = 0; k < 20000; ++k) {
    const glm::vec2 pt{rng.uniform(-20, 20), rng.uniform(-20, 20)};
    const glm::vec2 p{rng.uniform(-20, 20), rng.uniform(-20, 20)};
    const glm::vec2 q =
        rng.chance(0.05) ? p : glm::vec2{rng.uniform(-20, 20), rng.uniform(-20, 20)};
    float t = 0.0f, dt_t = 0.0f;
    const float d = distance_point_segment_sqr_2d(pt, p, q, t);
    const float dt_d = dtDistancePtSegSqr2D(dt3(pt).data(), dt3(p).data(), dt3(q).data(), dt_t);
    ASSERT_EQ(d, dt_d) << k;
    ASSERT_EQ(t, dt_t) << k;
    ASSERT_GE(t, 0.0f);
    ASSERT_LE(t, 1.0f);
  }
}

// --- sweep_circle_circle -------------------------------------------------------------------

TEST(Geometry, SweepHeadOnGivesContactAndExitTimes) {
  float tmin = 0.0f, tmax = 0.0f;
  // Distance 10, radii 0.5 + 1.5, speed 2: touches at (10 - 2) / 2, leaves at (10 + 2) / 2.
  ASSERT_TRUE(
      sweep_circle_circle({0.0f, 0.0f}, 0.5f, {2.0f, 0.0f}, {10.0f, 0.0f}, 1.5f, tmin, tmax));
  EXPECT_FLOAT_EQ(tmin, 4.0f);
  EXPECT_FLOAT_EQ(tmax, 6.0f);
}

TEST(Geometry, SweepHeadOnInAnyDirectionGivesDistanceMinusRadiiOverSpeed) {
  Rng rng(15);
  for (int k = 0; k < 5000; ++k) {
    const glm::vec2 c0{rng.uniform(-10, 10), rng.uniform(-10, 10)};
    const glm::vec2 dir = rng.direction();
    const float r0 = rng.uniform(0.1f, 1.0f), r1 = rng.uniform(0.1f, 1.0f);
    const float d = rng.uniform(r0 + r1 + 0.1f, 20.0f);
    const float speed = rng.uniform(0.05f, 5.0f);
    float tmin = 0.0f, tmax = 0.0f;
    ASSERT_TRUE(sweep_circle_circle(c0, r0, dir * speed, c0 + dir * d, r1, tmin, tmax)) << k;
    const float expected_min = (d - r0 - r1) / speed;
    const float expected_max = (d + r0 + r1) / speed;
    ASSERT_NEAR(tmin, expected_min, 1e-3f * (1.0f + expected_max)) << k;
    ASSERT_NEAR(tmax, expected_max, 1e-3f * (1.0f + expected_max)) << k;
  }
}

TEST(Geometry, SweepTangentTouchesOnceAtTheClosestApproach) {
  float tmin = 0.0f, tmax = 0.0f;
  // Passing at lateral offset 2 = r0 + r1: grazes at t = 10 / 2.
  ASSERT_TRUE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {2.0f, 0.0f}, {10.0f, 2.0f}, 1.0f, tmin, tmax));
  EXPECT_FLOAT_EQ(tmin, 5.0f);
  EXPECT_FLOAT_EQ(tmax, 5.0f);
}

TEST(Geometry, SweepThatPassesWideMisses) {
  float tmin = 123.0f, tmax = 456.0f;
  EXPECT_FALSE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {2.0f, 0.0f}, {10.0f, 2.01f}, 1.0f, tmin, tmax));
  EXPECT_FALSE(
      sweep_circle_circle({0.0f, 0.0f}, 0.5f, {0.0f, 1.0f}, {3.0f, 0.0f}, 0.5f, tmin, tmax));
}

TEST(Geometry, SweepAlreadyOverlappingGivesNegativeEntryAndPositiveExit) {
  float tmin = 0.0f, tmax = 0.0f;
  // s = (1, 0), r = 2: c = 1 - 4 = -3, a = 4, b = 2, d = 4 + 12 = 16 -> (2 -/+ 4) / 4.
  ASSERT_TRUE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {2.0f, 0.0f}, {1.0f, 0.0f}, 1.0f, tmin, tmax));
  EXPECT_FLOAT_EQ(tmin, -0.5f);
  EXPECT_FLOAT_EQ(tmax, 1.5f);
  EXPECT_LT(tmin, 0.0f);
  EXPECT_GT(tmax, 0.0f);
}

TEST(Geometry, SweepMovingAwayGivesContactTimesInThePast) {
  float tmin = 0.0f, tmax = 0.0f;
  ASSERT_TRUE(
      sweep_circle_circle({0.0f, 0.0f}, 0.5f, {-2.0f, 0.0f}, {10.0f, 0.0f}, 1.5f, tmin, tmax));
  EXPECT_FLOAT_EQ(tmin, -6.0f);
  EXPECT_FLOAT_EQ(tmax, -4.0f);
}

TEST(Geometry, SweepWithoutMotionReportsNoContact) {
  float tmin = 0.0f, tmax = 0.0f;
  // |v|^2 below 1e-4 counts as standing still, even when overlapping.
  EXPECT_FALSE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {0.0f, 0.0f}, {1.0f, 0.0f}, 1.0f, tmin, tmax));
  EXPECT_FALSE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {0.009f, 0.0f}, {1.0f, 0.0f}, 1.0f, tmin, tmax));
  EXPECT_TRUE(
      sweep_circle_circle({0.0f, 0.0f}, 1.0f, {0.011f, 0.0f}, {1.0f, 0.0f}, 1.0f, tmin, tmax));
}

// --- intersect_ray_segment -----------------------------------------------------------------

TEST(Geometry, RaySegmentHitsAtTheKnownParameter) {
  float t = -1.0f;
  // From the origin with u = (4, 0) toward the segment x = 3: t = 3 / 4.
  ASSERT_TRUE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {3.0f, -1.0f}, {3.0f, 1.0f}, t));
  EXPECT_FLOAT_EQ(t, 0.75f);
  // The segment's direction does not matter.
  ASSERT_TRUE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {3.0f, 1.0f}, {3.0f, -1.0f}, t));
  EXPECT_FLOAT_EQ(t, 0.75f);
  // Oblique: from (1, 1) along (2, 2) to the line z = 2 between x = 0 and x = 5: t = 1 / 2.
  ASSERT_TRUE(intersect_ray_segment({1.0f, 1.0f}, {2.0f, 2.0f}, {0.0f, 2.0f}, {5.0f, 2.0f}, t));
  EXPECT_FLOAT_EQ(t, 0.5f);
}

TEST(Geometry, RaySegmentParallelNeverHits) {
  float t = -1.0f;
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {1.0f, 0.0f}, {3.0f, 0.0f}, t));
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {1.0f, 1.0f}, {3.0f, 1.0f}, t));
}

TEST(Geometry, RaySegmentBehindTheOriginMisses) {
  float t = -1.0f;
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {-3.0f, -1.0f}, {-3.0f, 1.0f}, t));
}

TEST(Geometry, RaySegmentBeyondOneRayLengthMisses) {
  float t = -1.0f;
  // The ray is ap + t*u for t in [0, 1] only: u = (2, 0) stops short of x = 3.
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {2.0f, 0.0f}, {3.0f, -1.0f}, {3.0f, 1.0f}, t));
  ASSERT_TRUE(intersect_ray_segment({0.0f, 0.0f}, {3.0f, 0.0f}, {3.0f, -1.0f}, {3.0f, 1.0f}, t));
  EXPECT_FLOAT_EQ(t, 1.0f);
}

TEST(Geometry, RaySegmentPastTheSegmentEndMisses) {
  float t = -1.0f;
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {3.0f, 0.5f}, {3.0f, 2.0f}, t));
  EXPECT_FALSE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {3.0f, -2.0f}, {3.0f, -0.5f}, t));
  // Exactly through an endpoint counts as a hit.
  EXPECT_TRUE(intersect_ray_segment({0.0f, 0.0f}, {4.0f, 0.0f}, {3.0f, 0.0f}, {3.0f, 2.0f}, t));
  EXPECT_FLOAT_EQ(t, 0.75f);
}

TEST(Geometry, RaySegmentHitPointLiesOnTheSegment) {
  Rng rng(16);
  int hits = 0;
  for (int k = 0; k < 20000; ++k) {
    const glm::vec2 ap{rng.uniform(-5, 5), rng.uniform(-5, 5)};
    const glm::vec2 u{rng.uniform(-6, 6), rng.uniform(-6, 6)};
    const glm::vec2 bp{rng.uniform(-5, 5), rng.uniform(-5, 5)};
    const glm::vec2 bq{rng.uniform(-5, 5), rng.uniform(-5, 5)};
    float t = -1.0f;
    if (!intersect_ray_segment(ap, u, bp, bq, t))
      continue;
    ++hits;
    ASSERT_GE(t, 0.0f);
    ASSERT_LE(t, 1.0f);
    float s = 0.0f;
    const float d_sq = distance_point_segment_sqr_2d(ap + u * t, bp, bq, s);
    ASSERT_LT(d_sq, 1e-6f) << k;
  }
  EXPECT_GT(hits, 1000);
}

} // namespace
} // namespace crowd

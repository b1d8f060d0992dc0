// 2D geometry on the ground plane, as DetourCrowd computes it. A glm::vec2 holds (x, z).
// Each function is a port of the Detour function it names, keeping its operation order so
// results agree with the reference to float rounding.
#pragma once

#include "cuda/common/hd.h"

namespace crowd {

/// (x, z) of a 3D point.
CROWD_HD glm::vec2 ground(const glm::vec3& p) {
  return {p.x, p.z};
}

/// dtVperp2D: u.z * v.x - u.x * v.z.
CROWD_HD float perp_2d(const glm::vec2& u, const glm::vec2& v) {
  return u.y * v.x - u.x * v.y;
}

/// dtTriArea2D: twice the signed area of triangle abc; positive when c lies to the right of
/// a->b seen from above (Recast's x/z orientation).
CROWD_HD float tri_area_2d(const glm::vec2& a, const glm::vec2& b, const glm::vec2& c) {
  const float abx = b.x - a.x;
  const float abz = b.y - a.y;
  const float acx = c.x - a.x;
  const float acz = c.y - a.y;
  return acx * abz - abx * acz;
}

/// dtDistancePtSegSqr2D: squared distance from pt to segment pq; t receives the parameter of
/// the closest point along pq, clamped to [0, 1].
CROWD_HD float distance_point_segment_sqr_2d(const glm::vec2& pt, const glm::vec2& p,
                                             const glm::vec2& q, float& t) {
  const float pqx = q.x - p.x;
  const float pqz = q.y - p.y;
  float dx = pt.x - p.x;
  float dz = pt.y - p.y;
  const float d = pqx * pqx + pqz * pqz;
  t = pqx * dx + pqz * dz;
  if (d > 0)
    t /= d;
  if (t < 0)
    t = 0;
  else if (t > 1)
    t = 1;
  dx = p.x + t * pqx - pt.x;
  dz = p.y + t * pqz - pt.y;
  return dx * dx + dz * dz;
}

/// sweep_circle_circle (below) with its velocity-free parts given: s = c1 - c0
/// and c = |s|^2 - (r0 + r1)^2, computed as it does (the sampler computes them once per
/// neighbour instead of once per sample and neighbour).
CROWD_HD bool sweep_circle_circle_from(const glm::vec2& s, float c, const glm::vec2& v, float& tmin,
                                       float& tmax) {
  constexpr float kEps = 0.0001f;
  float a = v.x * v.x + v.y * v.y;
  if (a < kEps)
    return false; // not moving
  const float b = v.x * s.x + v.y * s.y;
  const float d = b * b - a * c;
  if (d < 0.0f)
    return false; // no intersection
  a = 1.0f / a;
  const float rd = sqrtf(d);
  tmin = (b - rd) * a;
  tmax = (b + rd) * a;
  return true;
}

/// sweepCircleCircle (DetourObstacleAvoidance.cpp): times at which a circle at c0 of radius r0
/// moving with velocity v touches the static circle (c1, r1). False when it never does or v
/// is (almost) zero. tmin < 0 < tmax means the circles already overlap.
CROWD_HD bool sweep_circle_circle(const glm::vec2& c0, float r0, const glm::vec2& v,
                                  const glm::vec2& c1, float r1, float& tmin, float& tmax) {
  const glm::vec2 s{c1.x - c0.x, c1.y - c0.y};
  const float r = r0 + r1;
  const float c = (s.x * s.x + s.y * s.y) - r * r;
  return sweep_circle_circle_from(s, c, v, tmin, tmax);
}

/// intersect_ray_segment (below) with its ray-free parts given: v = bq - bp, w = ap - bp and
/// perp_2d(v, w), computed as it does (the sampler computes them once per wall segment instead
/// of once per sample and segment).
CROWD_HD bool intersect_ray_segment_from(const glm::vec2& v, const glm::vec2& w, float perp_v_w,
                                         const glm::vec2& u, float& t) {
  float d = perp_2d(u, v);
  if (fabsf(d) < 1e-6f)
    return false;
  d = 1.0f / d;
  t = perp_v_w * d;
  if (t < 0 || t > 1)
    return false;
  const float s = perp_2d(u, w) * d;
  if (s < 0 || s > 1)
    return false;
  return true;
}

/// isectRaySeg (DetourObstacleAvoidance.cpp): the ray ap + t*u, t in [0, 1], against the
/// segment bp-bq; t receives the hit parameter.
CROWD_HD bool intersect_ray_segment(const glm::vec2& ap, const glm::vec2& u, const glm::vec2& bp,
                                    const glm::vec2& bq, float& t) {
  const glm::vec2 v{bq.x - bp.x, bq.y - bp.y};
  const glm::vec2 w{ap.x - bp.x, ap.y - bp.y};
  return intersect_ray_segment_from(v, w, perp_2d(v, w), u, t);
}

/// dtVdist2D.
CROWD_HD float distance_2d(const glm::vec2& a, const glm::vec2& b) {
  const float dx = b.x - a.x;
  const float dz = b.y - a.y;
  return sqrtf(dx * dx + dz * dz);
}

} // namespace crowd

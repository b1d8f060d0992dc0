// Detour's vector and polygon functions (DetourCommon.h / DetourCommon.cpp, recastnavigation
// 1.5.1) on x y z float triples, for the corridor kernels: each is a port of the function it
// names with the same operations in the same order, so that a kernel's result is Detour's to
// the bit (nvcc compiles them with --fmad=false, the host compiler contracts nothing on x86-64).
#pragma once

#include "cuda/common/hd.h"

namespace crowd::nav {

CROWD_HD void vcopy(float* dest, const float* a) {
  dest[0] = a[0];
  dest[1] = a[1];
  dest[2] = a[2];
}

/// dtVlerp
CROWD_HD void vlerp(float* dest, const float* v1, const float* v2, float t) {
  dest[0] = v1[0] + (v2[0] - v1[0]) * t;
  dest[1] = v1[1] + (v2[1] - v1[1]) * t;
  dest[2] = v1[2] + (v2[2] - v1[2]) * t;
}

/// dtVdistSqr
CROWD_HD float vdist_sqr(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0];
  const float dy = v2[1] - v1[1];
  const float dz = v2[2] - v1[2];
  return dx * dx + dy * dy + dz * dz;
}

/// dtVdist2DSqr
CROWD_HD float vdist_2d_sqr(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0];
  const float dz = v2[2] - v1[2];
  return dx * dx + dz * dz;
}

/// dtVequal: closer than 1/16384 (its threshold is dtSqr(1.0f / 16384.0f)).
CROWD_HD bool vequal(const float* p0, const float* p1) {
  constexpr float kThreshold = (1.0f / 16384.0f) * (1.0f / 16384.0f);
  return vdist_sqr(p0, p1) < kThreshold;
}

/// dtVisfinite
CROWD_HD bool visfinite(const float* v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

/// dtTriArea2D
CROWD_HD float tri_area_2d(const float* a, const float* b, const float* c) {
  const float abx = b[0] - a[0];
  const float abz = b[2] - a[2];
  const float acx = c[0] - a[0];
  const float acz = c[2] - a[2];
  return acx * abz - abx * acz;
}

/// dtVdist2D
CROWD_HD float vdist_2d(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0];
  const float dz = v2[2] - v1[2];
  return sqrtf(dx * dx + dz * dz);
}

/// dtVperp2D
CROWD_HD float vperp_2d(const float* u, const float* v) {
  return u[2] * v[0] - u[0] * v[2];
}

/// dtIntersectSegmentPoly2D: the parameters along p0->p1 where it enters (tmin, across edge
/// seg_min) and leaves (tmax, seg_max) the convex polygon; false when it misses it. Edge j
/// runs from vertex j to vertex j + 1; -1 for none.
CROWD_HD bool intersect_segment_poly_2d(const float* p0, const float* p1, const float* verts,
                                        int nverts, float& tmin, float& tmax, int& seg_min,
                                        int& seg_max) {
  constexpr float kEps = 0.00000001f; // 1e-8 in the 1.5.1 snapshot Debian ships (later 1e-6)
  tmin = 0;
  tmax = 1;
  seg_min = -1;
  seg_max = -1;
  const float dir[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    const float edge[3] = {vi[0] - vj[0], vi[1] - vj[1], vi[2] - vj[2]};
    const float diff[3] = {p0[0] - vj[0], p0[1] - vj[1], p0[2] - vj[2]};
    const float n = vperp_2d(edge, diff);
    const float d = vperp_2d(dir, edge);
    if (fabsf(d) < kEps) {
      // S is nearly parallel to this edge
      if (n < 0)
        return false;
      continue;
    }
    const float t = n / d;
    if (d < 0) {
      // segment S is entering across this edge
      if (t > tmin) {
        tmin = t;
        seg_min = j;
        // S enters after leaving polygon
        if (tmin > tmax)
          return false;
      }
    } else {
      // segment S is leaving across this edge
      if (t < tmax) {
        tmax = t;
        seg_max = j;
        // S leaves before entering polygon
        if (tmax < tmin)
          return false;
      }
    }
  }
  return true;
}

/// dtDistancePtSegSqr2D
CROWD_HD float distance_pt_seg_sqr_2d(const float* pt, const float* p, const float* q, float& t) {
  const float pqx = q[0] - p[0];
  const float pqz = q[2] - p[2];
  float dx = pt[0] - p[0];
  float dz = pt[2] - p[2];
  const float d = pqx * pqx + pqz * pqz;
  t = pqx * dx + pqz * dz;
  if (d > 0)
    t /= d;
  if (t < 0)
    t = 0;
  else if (t > 1)
    t = 1;
  dx = p[0] + t * pqx - pt[0];
  dz = p[2] + t * pqz - pt[2];
  return dx * dx + dz * dz;
}

/// The largest polygon Detour builds (DT_VERTS_PER_POLYGON).
inline constexpr int kMaxPolygonVertices = 6;

/// One step of the crossing test of dtPointInPolygon and dtDistancePtPolyEdgesSqr: whether
/// the ray from pt toward +x crosses the edge vj-vi.
CROWD_HD bool crosses(const float* pt, const float* vi, const float* vj) {
  return ((vi[2] > pt[2]) != (vj[2] > pt[2])) &&
         (pt[0] < (vj[0] - vi[0]) * (pt[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]);
}

/// dtPointInPolygon
CROWD_HD bool point_in_polygon(const float* pt, const float* verts, int nverts) {
  bool c = false;
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    if (crosses(pt, &verts[i * 3], &verts[j * 3]))
      c = !c;
  }
  return c;
}

/// dtDistancePtPolyEdgesSqr: whether pt is inside the polygon (the crossing test), and for each
/// edge j (vertex j to j + 1) the squared distance ed[j] and the closest point's parameter et[j].
CROWD_HD bool distance_pt_poly_edges_sqr(const float* pt, const float* verts, int nverts, float* ed,
                                         float* et) {
  bool c = false;
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    if (crosses(pt, vi, vj))
      c = !c;
    ed[j] = distance_pt_seg_sqr_2d(pt, vj, vi, et[j]);
  }
  return c;
}

/// dtNavMeshQuery::closestPointOnPolyBoundary on a polygon's vertices (at most
/// kMaxPolygonVertices): `pos` itself when inside, else the nearest point of the nearest edge
/// (the first of equally near ones).
CROWD_HD void closest_point_on_poly_boundary(const float* verts, int nverts, const float* pos,
                                             float* closest) {
  float edged[kMaxPolygonVertices];
  float edget[kMaxPolygonVertices];
  if (distance_pt_poly_edges_sqr(pos, verts, nverts, edged, edget)) {
    vcopy(closest, pos);
    return;
  }
  float dmin = edged[0];
  int imin = 0;
  for (int i = 1; i < nverts; ++i) {
    if (edged[i] < dmin) {
      dmin = edged[i];
      imin = i;
    }
  }
  const float* va = &verts[imin * 3];
  const float* vb = &verts[((imin + 1) % nverts) * 3];
  vlerp(closest, va, vb, edget[imin]);
}

} // namespace crowd::nav

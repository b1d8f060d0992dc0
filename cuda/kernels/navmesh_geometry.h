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

/// dtDistancePtPolyEdgesSqr: whether pt is inside the polygon (the crossing test), and for each
/// edge j (vertex j to j + 1) the squared distance ed[j] and the closest point's parameter et[j].
CROWD_HD bool distance_pt_poly_edges_sqr(const float* pt, const float* verts, int nverts,
                                         float* ed, float* et) {
  bool c = false;
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    if (((vi[2] > pt[2]) != (vj[2] > pt[2])) &&
        (pt[0] < (vj[0] - vi[0]) * (pt[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]))
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

#include "host/paths/corridor_corners.h"

#include <DetourCommon.h>
#include <cstring>

namespace crowd {
namespace {

// The straight path being written: findStraightPath's output buffers and its vertex rule.
struct StraightPath {
  float* verts;
  unsigned char* flags;
  dtPolyRef* polys;
  int count = 0;
  int capacity;

  // Appends a vertex, or updates the last one when `pos` is the same point (dtVequal).
  // Returns true when the path is complete: the buffer is full or the end was appended.
  bool append(const float* pos, unsigned char flag, dtPolyRef ref) {
    if (count > 0 && dtVequal(&verts[(count - 1) * 3], pos)) {
      flags[count - 1] = flag;
      polys[count - 1] = ref;
      return false;
    }
    dtVcopy(&verts[count * 3], pos);
    flags[count] = flag;
    polys[count] = ref;
    ++count;
    return count >= capacity || flag == DT_STRAIGHTPATH_END;
  }
};

// dtNavMeshQuery::closestPointOnPolyBoundary: a point inside the polygon is its own closest
// point, and the agent and its target almost always are. The inside test is the crossing
// test of dtDistancePtPolyEdgesSqr, which closestPointOnPolyBoundary decides by (the same
// expression as dtPointInPolygon's); a point outside is clamped to the boundary by Detour.
bool closest_point_on_boundary(const PolygonShapes& shapes, const dtNavMeshQuery& query,
                               dtPolyRef ref, const float* pos, float* closest) {
  const int p = shapes.index().index_of(ref);
  if (p >= 0 && shapes.contains(p, pos)) {
    dtVcopy(closest, pos);
    return true;
  }
  return !dtStatusFailed(query.closestPointOnPolyBoundary(ref, pos, closest));
}

// The funnel of findStraightPath (options 0, ground polygons only). Returns false when a
// portal is missing from the table.
bool pull_string(const float* start, const float* end, const dtPolyRef* path, int path_size,
                 const PortalTable& portals, const PolygonShapes& shapes,
                 const dtNavMeshQuery& query, StraightPath& out) {
  if (!dtVisfinite(start) || !dtVisfinite(end) || path_size <= 0 || !path[0] || out.capacity <= 0)
    return true; // Detour refuses these: no corners
  float closest_start[3], closest_end[3];
  if (!closest_point_on_boundary(shapes, query, path[0], start, closest_start) ||
      !closest_point_on_boundary(shapes, query, path[path_size - 1], end, closest_end))
    return true;
  if (out.append(closest_start, DT_STRAIGHTPATH_START, path[0]))
    return true;
  if (path_size > 1) {
    // The apex and the funnel's sides point at the points they were copied from in
    // findStraightPath (the start, the end and the portals, which stay put while the funnel
    // runs): the same values without the copies.
    const float* apex = closest_start;
    const float* funnel_left = apex;
    const float* funnel_right = apex;
    int apex_index = 0, left_index = 0, right_index = 0;
    dtPolyRef left_ref = path[0], right_ref = path[0];
    // Dense index of path[at]: portal i is looked up from where portal i - 1 led, so a
    // polygon is decoded only where the funnel walks back to its apex.
    int polygon = portals.index_of(path[0]), at = 0;
    for (int i = 0; i < path_size; ++i) {
      const float* left;
      const float* right;
      if (i + 1 < path_size) {
        if (at != i)
          polygon = portals.index_of(path[i]);
        const PortalTable::Portal* portal = portals.find_from(polygon, path[i + 1]);
        if (portal == nullptr)
          return false;
        left = portal->left;
        right = portal->right;
        polygon = portal->to_index;
        at = i + 1;
        // Starting on the first portal: advance.
        if (i == 0) {
          float t;
          if (dtDistancePtSegSqr2D(apex, left, right, t) < dtSqr(0.001f))
            continue;
        }
      } else {
        left = closest_end;
        right = closest_end;
      }
      // Narrow the funnel from the right, or turn at its left side.
      if (dtTriArea2D(apex, funnel_right, right) <= 0.0f) {
        if (dtVequal(apex, funnel_right) || dtTriArea2D(apex, funnel_left, right) > 0.0f) {
          funnel_right = right;
          right_ref = (i + 1 < path_size) ? path[i + 1] : 0;
          right_index = i;
        } else {
          apex = funnel_left;
          apex_index = left_index;
          if (out.append(apex, left_ref ? 0 : DT_STRAIGHTPATH_END, left_ref))
            return true;
          funnel_left = apex;
          funnel_right = apex;
          left_index = right_index = apex_index;
          i = apex_index;
          continue;
        }
      }
      // Narrow the funnel from the left, or turn at its right side.
      if (dtTriArea2D(apex, funnel_left, left) >= 0.0f) {
        if (dtVequal(apex, funnel_left) || dtTriArea2D(apex, funnel_right, left) < 0.0f) {
          funnel_left = left;
          left_ref = (i + 1 < path_size) ? path[i + 1] : 0;
          left_index = i;
        } else {
          apex = funnel_right;
          apex_index = right_index;
          if (out.append(apex, right_ref ? 0 : DT_STRAIGHTPATH_END, right_ref))
            return true;
          funnel_left = apex;
          funnel_right = apex;
          left_index = right_index = apex_index;
          i = apex_index;
          continue;
        }
      }
    }
  }
  out.append(closest_end, DT_STRAIGHTPATH_END, 0);
  return true;
}

} // namespace

int find_corridor_corners(const dtPathCorridor& corridor, const PortalTable& portals,
                          const PolygonShapes& shapes, const dtNavMeshQuery& query, float* verts,
                          unsigned char* flags, dtPolyRef* polys, int max_corners) {
  StraightPath out{verts, flags, polys, 0, max_corners};
  if (!pull_string(corridor.getPos(), corridor.getTarget(), corridor.getPath(),
                   corridor.getPathCount(), portals, shapes, query, out))
    return -1;
  // findCorners: drop leading corners within 1 cm of the agent (there are no off-mesh
  // connections here, whose corners it keeps and after which it cuts the path).
  constexpr float kMinTargetDistance = 0.01f;
  int n = out.count;
  while (n > 0 && dtVdist2DSqr(&verts[0], corridor.getPos()) <= dtSqr(kMinTargetDistance)) {
    --n;
    if (n > 0) {
      std::memmove(flags, flags + 1, sizeof(unsigned char) * static_cast<std::size_t>(n));
      std::memmove(polys, polys + 1, sizeof(dtPolyRef) * static_cast<std::size_t>(n));
      std::memmove(verts, verts + 3, sizeof(float) * 3 * static_cast<std::size_t>(n));
    }
  }
  return n;
}

} // namespace crowd

// The corners of an agent's corridor: dtPathCorridor::findCorners, i.e. the string pulling of
// dtNavMeshQuery::findStraightPath (Mononen's "Simple Stupid Funnel Algorithm", 2010) over the
// corridor's portals, then the corners within 1 cm of the agent dropped. The same float
// operations in the same order as Detour's, on the navmesh tables (navmesh_tables.h) and a
// corridor of dense polygon indices, so the corners are Detour's to the bit
// (tests/host/paths/test_corridor_corners.cpp compares them with findCorners itself).
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/navmesh_geometry.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cstdint>

namespace crowd {

/// findStraightPath's vertex flags (DetourNavMeshQuery.h: DT_STRAIGHTPATH_START / _END).
inline constexpr std::uint8_t kCornerStart = 0x01;
inline constexpr std::uint8_t kCornerEnd = 0x02;

/// Where the corners go: capacity entries of verts (x y z each), flags and dense polygon
/// indices (-1 for the end of the path, Detour's polygon reference 0).
struct CornerBuffer {
  float* verts;
  std::uint8_t* flags;
  std::int32_t* polys;
  int capacity;
  int count = 0;

  /// Appends a vertex, or updates the last one when `pos` is the same point (dtVequal).
  /// Returns true when the path is complete: the buffer is full or the end was appended.
  CROWD_HD bool append(const float* pos, std::uint8_t flag, std::int32_t poly) {
    if (count > 0 && nav::vequal(&verts[(count - 1) * 3], pos)) {
      flags[count - 1] = flag;
      polys[count - 1] = poly;
      return false;
    }
    nav::vcopy(&verts[count * 3], pos);
    flags[count] = flag;
    polys[count] = poly;
    ++count;
    return count >= capacity || flag == kCornerEnd;
  }
};

namespace detail {

/// closestPointOnPolyBoundary of ground polygon p; false where Detour would fail (an index
/// not in the table, an off-mesh connection, a point not finite).
CROWD_HD bool closest_on_boundary(const NavmeshTablesView& nav, int p, const float* pos,
                                  float* closest) {
  if (!nav.contains_polygon(p))
    return false;
  const int n = nav.vertex_count(p);
  if (n < 3 || n > nav::kMaxPolygonVertices || !nav::visfinite(pos))
    return false;
  nav::closest_point_on_poly_boundary(nav.polygon_vertices(p), n, pos, closest);
  return true;
}

} // namespace detail

/// findStraightPath(start, end, path, path_size, ...) with no options, for ground polygons:
/// writes the straight path into `out`. Returns false when the tables cannot answer (an end
/// polygon or a portal of the path that they do not hold: an off-mesh connection, a stale
/// polygon): ask Detour then.
CROWD_HD bool pull_string(const NavmeshTablesView& nav, const float* start, const float* end,
                          const std::int32_t* path, int path_size, CornerBuffer& out) {
  if (!nav::visfinite(start) || !nav::visfinite(end) || path_size <= 0 || out.capacity <= 0)
    return true; // Detour refuses these: no corners
  float closest_start[3], closest_end[3];
  if (!detail::closest_on_boundary(nav, path[0], start, closest_start) ||
      !detail::closest_on_boundary(nav, path[path_size - 1], end, closest_end))
    return false; // not a ground polygon of the tables: Detour answers
  if (out.append(closest_start, kCornerStart, path[0]))
    return true;
  if (path_size > 1) {
    // The apex and the funnel's sides point at the points they were copied from in
    // findStraightPath (the start, the end and the portals, which stay put while the funnel
    // runs): the same values without the copies.
    const float* apex = closest_start;
    const float* funnel_left = apex;
    const float* funnel_right = apex;
    int apex_index = 0, left_index = 0, right_index = 0;
    std::int32_t left_poly = path[0], right_poly = path[0];
    for (int i = 0; i < path_size; ++i) {
      const float* left;
      const float* right;
      if (i + 1 < path_size) {
        const NavPortal* portal = nav.find_portal(path[i], path[i + 1]);
        if (portal == nullptr)
          return false;
        left = portal->left;
        right = portal->right;
        // Starting on the first portal: advance.
        if (i == 0) {
          float t;
          if (nav::distance_pt_seg_sqr_2d(apex, left, right, t) < 0.001f * 0.001f)
            continue;
        }
      } else {
        left = closest_end;
        right = closest_end;
      }
      // Narrow the funnel from the right, or turn at its left side.
      if (nav::tri_area_2d(apex, funnel_right, right) <= 0.0f) {
        if (nav::vequal(apex, funnel_right) || nav::tri_area_2d(apex, funnel_left, right) > 0.0f) {
          funnel_right = right;
          right_poly = (i + 1 < path_size) ? path[i + 1] : -1;
          right_index = i;
        } else {
          apex = funnel_left;
          apex_index = left_index;
          if (out.append(apex, left_poly >= 0 ? 0 : kCornerEnd, left_poly))
            return true;
          funnel_left = apex;
          funnel_right = apex;
          left_index = right_index = apex_index;
          i = apex_index;
          continue;
        }
      }
      // Narrow the funnel from the left, or turn at its right side.
      if (nav::tri_area_2d(apex, funnel_left, left) >= 0.0f) {
        if (nav::vequal(apex, funnel_left) || nav::tri_area_2d(apex, funnel_right, left) < 0.0f) {
          funnel_left = left;
          left_poly = (i + 1 < path_size) ? path[i + 1] : -1;
          left_index = i;
        } else {
          apex = funnel_right;
          apex_index = right_index;
          if (out.append(apex, right_poly >= 0 ? 0 : kCornerEnd, right_poly))
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
  out.append(closest_end, kCornerEnd, -1);
  return true;
}

/// dtPathCorridor::findCorners for an agent at `pos` whose corridor `path` (dense indices, its
/// own polygon first) leads to `target`: up to out.capacity - 1 corners. Returns their count,
/// or -1 when a portal of the corridor is not in the table (ask Detour then).
CROWD_HD int find_corners(const NavmeshTablesView& nav, const float* pos, const float* target,
                          const std::int32_t* path, int path_size, CornerBuffer& out) {
  out.count = 0;
  if (!pull_string(nav, pos, target, path, path_size, out))
    return -1;
  // findCorners: drop leading corners within 1 cm of the agent (there are no off-mesh
  // connections here, whose corners it keeps and after which it cuts the path).
  constexpr float kMinTargetDistance = 0.01f;
  int n = out.count;
  while (n > 0 &&
         nav::vdist_2d_sqr(&out.verts[0], pos) <= kMinTargetDistance * kMinTargetDistance) {
    --n;
    for (int k = 0; k < n; ++k) {
      out.flags[k] = out.flags[k + 1];
      out.polys[k] = out.polys[k + 1];
      nav::vcopy(&out.verts[k * 3], &out.verts[(k + 1) * 3]);
    }
  }
  out.count = n;
  return n;
}

/// Corridors as the agent arrays hold them: a fixed-capacity row of dense polygon indices per
/// agent (its own polygon first), the agent's position and its corridor's target.
struct CorridorRowsView {
  int count = 0;                       ///< agents
  int capacity = 0;                    ///< polygons per row
  const std::int32_t* polys = nullptr; ///< [count x capacity]
  const std::int32_t* size = nullptr;  ///< [count] polygons in use
  const float* position = nullptr;     ///< [count x 3]
  const float* target = nullptr;       ///< [count x 3]
};

/// Each agent's corners: a row of `capacity` corners (verts x y z, flags, polygons) and the
/// count, -1 where the tables cannot answer and the host asks Detour.
struct CornerRowsView {
  int capacity = 0;
  float* verts = nullptr;        ///< [count x capacity x 3]
  std::uint8_t* flags = nullptr; ///< [count x capacity]
  std::int32_t* polys = nullptr; ///< [count x capacity]
  std::int32_t* count = nullptr; ///< [count]
};

/// find_corners for agent i: one thread per agent on the GPU, per worker on the CPU.
CROWD_HD void corners_of_agent(int i, const NavmeshTablesView& nav, const CorridorRowsView& in,
                               const CornerRowsView& out) {
  const int row = i * out.capacity;
  CornerBuffer corners{out.verts + row * 3, out.flags + row, out.polys + row, out.capacity};
  out.count[i] = find_corners(nav, in.position + i * 3, in.target + i * 3,
                              in.polys + i * in.capacity, in.size[i], corners);
}

} // namespace crowd

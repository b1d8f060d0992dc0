// The navmesh as the per-step corridor kernels read it: flat tables over dense polygon indices
// (0..n-1, tile by tile in polygon order: host/paths/polygon_index.h), built once per navmesh
// on the host (host/paths/portal_table.h, host/paths/polygon_shapes.h) and viewed here, like
// the wall grid (wall_grid.h), so that one kernel body reads them on the CPU or on a GPU.
#pragma once

#include "cuda/common/hd.h"

#include <cstdint>

namespace crowd {

/// The portal from one ground polygon into a neighbouring one, as
/// dtNavMeshQuery::getPortalPoints computes it: the shared edge, narrowed to the part a
/// tile-border link covers.
struct NavPortal {
  std::int32_t to = -1; ///< Dense index of the polygon the portal leads into.
  float left[3] = {0.0f, 0.0f, 0.0f};
  float right[3] = {0.0f, 0.0f, 0.0f};
};

/// What a ray leaving a polygon across an edge enters when it is not a polygon (across()):
/// no link the raycast follows, so it stops at the edge;
inline constexpr std::int32_t kEdgeWall = -1;
/// a partial tile-border link, whose way on depends on where the ray crosses it: Detour answers.
inline constexpr std::int32_t kEdgeAskDetour = -2;

struct NavmeshTablesView {
  std::int32_t polygon_count = 0;
  /// Portals of polygon p: [portal_start[p], portal_start[p + 1]), in Detour's link-chain
  /// order (getPortalPoints takes the first link to a polygon).
  const std::int32_t* portal_start = nullptr;
  const NavPortal* portals = nullptr;
  /// Vertices (x y z) and edges of polygon p: [vertex_start[p], vertex_start[p + 1]); edge e
  /// runs from vertex e to vertex e + 1. Off-mesh connections have none.
  const std::int32_t* vertex_start = nullptr;
  const float* vertices = nullptr;
  /// Per edge, as the vertices: the dense index of the polygon a raycast leaving across it
  /// enters (the first link of the edge, in link-chain order, to a ground polygon the query
  /// filter passes), or kEdgeWall / kEdgeAskDetour.
  const std::int32_t* across = nullptr;
  /// Per edge, as the vertices: the polygons moveAlongSurface may step into across it (every
  /// filter-passing link of a tile-border edge, at most 8; the neighbour of an inner edge), as
  /// [neighbour_start[e], neighbour_start[e + 1]) of neighbours.
  const std::int32_t* neighbour_start = nullptr;
  const std::int32_t* neighbours = nullptr;
  /// Per polygon: 1 when it and its detail mesh lie at one height, flat_height[p] (then
  /// dtNavMesh::getPolyHeight gives that height for every point inside it).
  const std::uint8_t* flat = nullptr;
  /// Per polygon: 1 when the query filter the tables were built with passes it (the check of
  /// dtNavMeshQuery::isValidPolyRef for a polygon that exists).
  const std::uint8_t* passable = nullptr;
  const float* flat_height = nullptr;

  CROWD_HD bool contains_polygon(int p) const { return p >= 0 && p < polygon_count; }
  /// dtNavMeshQuery::isValidPolyRef: the polygon exists and passes the filter.
  CROWD_HD bool is_valid_polygon(int p) const { return contains_polygon(p) && passable[p]; }

  /// The portal from polygon `from` into polygon `to`, or nullptr when the table has none.
  CROWD_HD const NavPortal* find_portal(int from, int to) const {
    if (!contains_polygon(from))
      return nullptr;
    for (int k = portal_start[from]; k < portal_start[from + 1]; ++k) {
      if (portals[k].to == to)
        return &portals[k];
    }
    return nullptr;
  }

  /// Vertex count of polygon p (0 for an off-mesh connection).
  CROWD_HD int vertex_count(int p) const { return vertex_start[p + 1] - vertex_start[p]; }
  CROWD_HD const float* polygon_vertices(int p) const { return &vertices[vertex_start[p] * 3]; }
  CROWD_HD std::int32_t across_edge(int p, int edge) const {
    return across[vertex_start[p] + edge];
  }
};

} // namespace crowd

// The outline of every ground polygon of a navmesh and, for each of its edges, the polygon a
// ray crossing that edge enters, looked up once when the navmesh is loaded. The per-step
// queries of the corridors (the corners' closest points, the visibility raycast) read a
// polygon here instead of decoding its reference, copying its vertices out of the tile and
// walking its link chain on every call.
#pragma once

#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/polygon_index.h"

#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

class PolygonShapes {
public:
  /// What lies across an edge for dtNavMeshQuery::raycast (across()) when not a polygon:
  /// no link the raycast follows, so it stops at the edge;
  static constexpr std::int32_t kWall = kEdgeWall;
  /// a partial tile-border link, whose way on depends on where the ray crosses it.
  static constexpr std::int32_t kAskDetour = kEdgeAskDetour;

  /// The ground polygons of `navmesh`; the edges' neighbours are the ones `filter` lets a
  /// raycast enter (it must be the filter of the raycasts answered from the table).
  PolygonShapes(const dtNavMesh& navmesh, const dtQueryFilter& filter);

  const PolygonIndex& index() const { return polygons_; }
  /// Whether dense polygon `p` is a ground polygon (off-mesh connections have no outline here).
  bool is_ground(int p) const { return vertex_count(p) > 0; }
  int vertex_count(int p) const {
    const auto k = static_cast<std::size_t>(p);
    return static_cast<int>(start_[k + 1] - start_[k]);
  }
  /// The polygon's vertices, x y z each, in the tile's order (Detour's edge e runs from
  /// vertex e to vertex e + 1).
  const float* vertices(int p) const {
    return &verts_[static_cast<std::size_t>(start_[static_cast<std::size_t>(p)]) * 3];
  }
  /// Whether `pos` (x y z; x and z count) is inside ground polygon `p`, by dtPointInPolygon:
  /// the test Detour's closestPointOnPolyBoundary and getPolyHeight decide by. False for an
  /// off-mesh connection.
  bool contains(int p, const float* pos) const {
    return is_ground(p) && dtPointInPolygon(pos, vertices(p), vertex_count(p));
  }
  /// What a raycast leaving polygon `p` across edge `edge` enters: the dense index of the
  /// first link of that edge, in link-chain order, to a ground polygon the filter passes (as
  /// raycast takes it), or kWall / kAskDetour.
  std::int32_t across(int p, int edge) const {
    return across_[static_cast<std::size_t>(start_[static_cast<std::size_t>(p)]) +
                   static_cast<std::size_t>(edge)];
  }

  /// Whether polygon `p` and its detail mesh lie at one height, flat_height(p): then
  /// dtNavMesh::getPolyHeight gives that height, to the bit, for every point inside it (its
  /// detail triangles interpolate between equal heights). Never for an off-mesh connection.
  bool is_flat(int p) const { return flat_[static_cast<std::size_t>(p)] != 0; }
  float flat_height(int p) const { return height_[static_cast<std::size_t>(p)]; }

  /// The outlines as the kernels read them (NavmeshTablesView): polygon p's vertices are
  /// [vertex_start()[p], vertex_start()[p + 1]) of vertex_data(), x y z each.
  const std::int32_t* vertex_start() const { return start_.data(); }
  const float* vertex_data() const { return verts_.data(); }
  const std::int32_t* across_data() const { return across_.data(); }
  /// moveAlongSurface's neighbours across edge e (numbered as the vertices):
  /// [neighbour_start()[e], neighbour_start()[e + 1]) of neighbour_data(), dense indices.
  const std::int32_t* neighbour_start() const { return neighbour_start_.data(); }
  const std::int32_t* neighbour_data() const { return neighbours_.data(); }
  const std::uint8_t* flat_data() const { return flat_.data(); }
  /// Per polygon: 1 when the filter passes it.
  const std::uint8_t* passable_data() const { return passable_.data(); }
  const float* flat_height_data() const { return height_.data(); }

  std::size_t memory_bytes() const;

private:
  PolygonIndex polygons_;
  std::vector<std::int32_t> start_; ///< Vertices and edges of polygon p: [start_[p], start_[p+1]).
  std::vector<float> verts_;
  std::vector<std::int32_t> across_;
  std::vector<std::int32_t> neighbour_start_; ///< Per edge (as across_), plus one.
  std::vector<std::int32_t> neighbours_;
  std::vector<std::uint8_t> flat_;
  std::vector<std::uint8_t> passable_;
  std::vector<float> height_;
};

} // namespace crowd

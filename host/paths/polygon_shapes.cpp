#include "host/paths/polygon_shapes.h"

namespace crowd {

namespace {

// dtQueryFilter::passFilter (defined inside Detour's query source, not exported).
bool passes(const dtQueryFilter& filter, const dtPoly& poly) {
  return (poly.flags & filter.getIncludeFlags()) != 0 &&
         (poly.flags & filter.getExcludeFlags()) == 0;
}

// What dtNavMeshQuery::raycast's neighbour loop finds across `edge` of `poly`, where it does
// not depend on the ray: the first link of the edge to a ground polygon the filter passes,
// when that link covers the whole edge.
std::int32_t across_edge(const dtNavMesh& navmesh, const PolygonIndex& polygons,
                         const dtQueryFilter& filter, const dtMeshTile& tile, const dtPoly& poly,
                         int edge) {
  for (unsigned int k = poly.firstLink; k != DT_NULL_LINK; k = tile.links[k].next) {
    const dtLink& link = tile.links[k];
    if (static_cast<int>(link.edge) != edge)
      continue;
    const dtMeshTile* next_tile = nullptr;
    const dtPoly* next_poly = nullptr;
    if (link.ref == 0 ||
        dtStatusFailed(navmesh.getTileAndPolyByRef(link.ref, &next_tile, &next_poly)))
      return PolygonShapes::kAskDetour;
    if (next_poly->getType() == DT_POLYTYPE_OFFMESH_CONNECTION)
      continue;
    if (!passes(filter, *next_poly))
      continue;
    const bool whole_edge = link.side == 0xff || (link.bmin == 0 && link.bmax == 255);
    if (!whole_edge)
      return PolygonShapes::kAskDetour;
    const int next = polygons.index_of(link.ref);
    return next >= 0 ? next : PolygonShapes::kAskDetour;
  }
  return PolygonShapes::kWall;
}

// The polygons dtNavMeshQuery::moveAlongSurface may step into across `edge` of `poly`, in its
// order: across a tile border every link of the edge to a polygon the filter passes (up to
// its MAX_NEIS = 8), inside a tile the edge's neighbour if the filter passes it.
void move_neighbours(const dtNavMesh& navmesh, const PolygonIndex& polygons,
                     const dtQueryFilter& filter, const dtMeshTile& tile, const dtPoly& poly,
                     int edge, std::vector<std::int32_t>& out) {
  constexpr int kMaxNeighbours = 8;
  int count = 0;
  if (poly.neis[edge] & DT_EXT_LINK) {
    for (unsigned int k = poly.firstLink; k != DT_NULL_LINK; k = tile.links[k].next) {
      const dtLink& link = tile.links[k];
      if (static_cast<int>(link.edge) != edge || link.ref == 0)
        continue;
      const dtMeshTile* next_tile = nullptr;
      const dtPoly* next_poly = nullptr;
      navmesh.getTileAndPolyByRefUnsafe(link.ref, &next_tile, &next_poly);
      if (passes(filter, *next_poly) && count < kMaxNeighbours) {
        out.push_back(polygons.index_of(link.ref));
        ++count;
      }
    }
  } else if (poly.neis[edge]) {
    const unsigned int index = static_cast<unsigned int>(poly.neis[edge] - 1);
    if (passes(filter, tile.polys[index]))
      out.push_back(polygons.index_of(navmesh.getPolyRefBase(&tile) | index));
  }
}

} // namespace

PolygonShapes::PolygonShapes(const dtNavMesh& navmesh, const dtQueryFilter& filter)
    : polygons_(navmesh) {
  const auto count = static_cast<std::size_t>(polygons_.size());
  start_.assign(count + 1, 0);
  neighbour_start_.assign(1, 0);
  flat_.assign(count, 0);
  passable_.assign(count, 0);
  height_.assign(count, 0.0f);
  for (std::size_t i = 0; i < count; ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(polygons_.ref_of(static_cast<int>(i)), &tile, &poly);
    passable_[i] = passes(filter, *poly) ? 1 : 0;
    if (poly->getType() == DT_POLYTYPE_GROUND) {
      for (int v = 0; v < static_cast<int>(poly->vertCount); ++v) {
        const float* p = &tile->verts[static_cast<std::size_t>(poly->verts[v]) * 3];
        verts_.insert(verts_.end(), p, p + 3);
        across_.push_back(across_edge(navmesh, polygons_, filter, *tile, *poly, v));
        move_neighbours(navmesh, polygons_, filter, *tile, *poly, v, neighbours_);
        neighbour_start_.push_back(static_cast<std::int32_t>(neighbours_.size()));
      }
      const float y = tile->verts[static_cast<std::size_t>(poly->verts[0]) * 3 + 1];
      bool flat = true;
      for (int v = 0; v < static_cast<int>(poly->vertCount); ++v)
        flat = flat && tile->verts[static_cast<std::size_t>(poly->verts[v]) * 3 + 1] == y;
      if (tile->detailMeshes == nullptr) {
        flat = false;
      } else {
        const dtPolyDetail& detail = tile->detailMeshes[poly - tile->polys];
        for (unsigned int v = 0; v < detail.vertCount; ++v)
          flat = flat && tile->detailVerts[(detail.vertBase + v) * 3 + 1] == y;
      }
      flat_[i] = flat ? 1 : 0;
      height_[i] = y;
    }
    start_[i + 1] = static_cast<std::int32_t>(across_.size());
  }
}

std::size_t PolygonShapes::memory_bytes() const {
  return polygons_.memory_bytes() + start_.capacity() * sizeof(std::int32_t) +
         verts_.capacity() * sizeof(float) + across_.capacity() * sizeof(std::int32_t) +
         flat_.capacity() + passable_.capacity() + height_.capacity() * sizeof(float) +
         (neighbour_start_.capacity() + neighbours_.capacity()) * sizeof(std::int32_t);
}

} // namespace crowd

#include "host/navmesh/navmesh_fingerprint.h"

#include "host/checkpoint/fnv1a.h"

#include <DetourNavMesh.h>

namespace crowd {

namespace {

template <class T> std::uint64_t hash_of(const T& value, std::uint64_t hash) {
  return fnv1a64(reinterpret_cast<const std::uint8_t*>(&value), sizeof(T), hash);
}

} // namespace

std::uint64_t navmesh_fingerprint(const dtNavMesh& navmesh) {
  std::uint64_t hash = kFnv1aOffsetBasis;
  for (int t = 0; t < navmesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    const dtMeshHeader& h = *tile->header;
    hash = hash_of(t, hash);
    hash = hash_of(navmesh.getPolyRefBase(tile), hash);
    for (const int v : {h.x, h.y, h.layer, h.polyCount, h.vertCount})
      hash = hash_of(v, hash);
    hash = fnv1a64(reinterpret_cast<const std::uint8_t*>(tile->verts),
                   sizeof(float) * 3 * static_cast<std::size_t>(h.vertCount), hash);
    for (int p = 0; p < h.polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      // Not firstLink: Detour allocates links as tiles connect.
      hash = fnv1a64(reinterpret_cast<const std::uint8_t*>(poly.verts), sizeof(poly.verts), hash);
      hash = fnv1a64(reinterpret_cast<const std::uint8_t*>(poly.neis), sizeof(poly.neis), hash);
      hash = hash_of(poly.flags, hash);
      hash = hash_of(poly.vertCount, hash);
      hash = hash_of(poly.areaAndtype, hash);
    }
  }
  return hash;
}

} // namespace crowd

// A hash of what a navmesh's polygon references and corridors depend on: each tile's place
// and reference base, and its polygons' vertices, edge neighbours, flags and areas. A
// checkpoint of a crowd holds its corridors as polygon references, so it can only be restored
// on a navmesh with the same fingerprint: the same tiles, built alike, added in the same order.
#pragma once

#include <cstdint>

class dtNavMesh;

namespace crowd {

/// FNV-1a 64 (host/checkpoint/fnv1a.h) of the tiles' geometry and places, in tile order. Not
/// of the link tables, which Detour fills as tiles connect.
std::uint64_t navmesh_fingerprint(const dtNavMesh& navmesh);

} // namespace crowd

#include "host/paths/corridor_corners.h"

#include "cuda/kernels/corridor_corners.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace crowd {

int find_corridor_corners(const dtPathCorridor& corridor, const NavmeshTablesView& tables,
                          const PolygonIndex& polygons, float* verts, unsigned char* flags,
                          dtPolyRef* polys, int max_corners) {
  thread_local std::vector<std::int32_t> path;
  path.resize(static_cast<std::size_t>(corridor.getPathCount()));
  for (std::size_t i = 0; i < path.size(); ++i)
    path[i] = polygons.index_of(corridor.getPath()[i]);
  thread_local std::vector<std::int32_t> corner_polys;
  corner_polys.resize(static_cast<std::size_t>(max_corners > 0 ? max_corners : 0));
  static_assert(sizeof(unsigned char) == sizeof(std::uint8_t));
  CornerBuffer out{verts, reinterpret_cast<std::uint8_t*>(flags), corner_polys.data(), max_corners};
  const int n = find_corners(tables, corridor.getPos(), corridor.getTarget(), path.data(),
                             static_cast<int>(path.size()), out);
  for (int c = 0; c < n; ++c) {
    const std::int32_t p = corner_polys[static_cast<std::size_t>(c)];
    polys[c] = p >= 0 ? polygons.ref_of(p) : 0;
  }
  return n;
}

} // namespace crowd

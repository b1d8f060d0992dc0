#include "host/paths/corridor_corners.h"

#include "cuda/kernels/corridor_corners.h"

#include <cstdint>
#include <vector>

namespace crowd {

int find_corridor_corners(const dtPathCorridor& corridor, const NavmeshTablesView& tables,
                          const PolygonIndex& polygons, float* verts, unsigned char* flags,
                          dtPolyRef* polys, int max_corners) {
  // The corridor in dense indices (-1 for a polygon the navmesh no longer has, which the
  // kernel refuses), and the corners' polygons, per worker thread.
  thread_local std::vector<std::int32_t> path;
  thread_local std::vector<std::int32_t> corner_polys;
  const int count = corridor.getPathCount();
  path.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    path[static_cast<std::size_t>(i)] = polygons.index_of(corridor.getPath()[i]);
  corner_polys.resize(static_cast<std::size_t>(max_corners > 0 ? max_corners : 0));
  static_assert(sizeof(unsigned char) == sizeof(std::uint8_t));
  CornerBuffer out{verts, reinterpret_cast<std::uint8_t*>(flags), corner_polys.data(), max_corners};
  const int n = find_corners(tables, corridor.getPos(), corridor.getTarget(), path.data(), count,
                             out);
  for (int c = 0; c < n; ++c) {
    const std::int32_t p = corner_polys[static_cast<std::size_t>(c)];
    polys[c] = p >= 0 ? polygons.ref_of(p) : 0;
  }
  return n;
}

} // namespace crowd

#include "host/paths/corridor_corners.h"

#include "cuda/kernels/corridor_corners.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace crowd {

const std::vector<std::int32_t>& DenseCorridor::of(const dtPathCorridor& corridor,
                                                   const PolygonIndex& polygons) {
  const dtPolyRef* path = corridor.getPath();
  const auto count = static_cast<std::size_t>(corridor.getPathCount());
  if (refs_.size() != count || !std::equal(refs_.begin(), refs_.end(), path)) {
    refs_.assign(path, path + count);
    dense_.resize(count);
    for (std::size_t i = 0; i < count; ++i)
      dense_[i] = polygons.index_of(path[i]);
  }
  return dense_;
}

int find_corridor_corners(const dtPathCorridor& corridor, DenseCorridor& dense,
                          const NavmeshTablesView& tables, const PolygonIndex& polygons,
                          float* verts, unsigned char* flags, dtPolyRef* polys, int max_corners) {
  const std::vector<std::int32_t>& path = dense.of(corridor, polygons);
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

int find_corridor_corners(const dtPathCorridor& corridor, const NavmeshTablesView& tables,
                          const PolygonIndex& polygons, float* verts, unsigned char* flags,
                          dtPolyRef* polys, int max_corners) {
  DenseCorridor dense;
  return find_corridor_corners(corridor, dense, tables, polygons, verts, flags, polys, max_corners);
}

} // namespace crowd

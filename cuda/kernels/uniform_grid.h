// A uniform grid over the ground plane. The agent grid is rebuilt every step as a counting
// sort (cell key per agent, stable sort, cell ranges), the approach of FLAME GPU 2's spatial
// messaging (src/flamegpu/runtime/messaging/MessageSpatial2D.cu); the wall grid is built once.
#pragma once

#include "cuda/common/hd.h"

#include <cstdint>

namespace crowd {

struct GridSpec {
  glm::vec2 origin{0.0f}; ///< (x, z) of the corner of cell (0, 0)
  float cell_size = 1.0f; ///< m [> 0]
  std::int32_t cells_x = 1;
  std::int32_t cells_z = 1;

  CROWD_HD std::int32_t cell_count() const { return cells_x * cells_z; }
  /// Cell coordinates of a point; points outside the grid are clamped to its border cells, so
  /// every agent has a cell whatever the world.
  CROWD_HD glm::ivec2 cell_of(glm::vec2 p) const {
    const float fx = (p.x - origin.x) / cell_size;
    const float fz = (p.y - origin.y) / cell_size;
    // Clamp in float before converting: a float beyond the int range has no defined int
    // conversion (x86 gives INT_MIN, CUDA saturates), which gave far-away points negative keys.
    const float max_x = static_cast<float>(cells_x - 1);
    const float max_z = static_cast<float>(cells_z - 1);
    int ix = fx > 0.0f ? static_cast<int>(fx < max_x ? fx : max_x) : 0;
    int iz = fz > 0.0f ? static_cast<int>(fz < max_z ? fz : max_z) : 0;
    ix = ix < cells_x - 1 ? ix : cells_x - 1;
    iz = iz < cells_z - 1 ? iz : cells_z - 1;
    return {ix, iz};
  }
  CROWD_HD std::int32_t key(glm::ivec2 cell) const { return cell.y * cells_x + cell.x; }
};

/// A built grid: items sorted by cell; cell c holds items[cell_start[c] .. cell_start[c+1]).
struct GridView {
  GridSpec spec;
  const std::int32_t* cell_start = nullptr; // [cell_count + 1]
  const std::int32_t* items = nullptr;      // [items] item ids, ascending within a cell
};

/// Calls visit(k) for every sorted position k (an index into `items`) of the cells overlapping
/// the square of half-size `range` around `centre`, cell by cell in row-major order (a
/// deterministic order). The cells of one grid row are neighbours in the sorted order (keys
/// are row-major), so each row of the square is one contiguous range of positions: one pair
/// of cell_start loads per row, and a scan that walks memory forwards.
template <class Visit>
CROWD_HD void for_each_position_near(const GridView& grid, glm::vec2 centre, float range,
                                     Visit&& visit) {
  const glm::ivec2 lo = grid.spec.cell_of({centre.x - range, centre.y - range});
  const glm::ivec2 hi = grid.spec.cell_of({centre.x + range, centre.y + range});
  for (int z = lo.y; z <= hi.y; ++z) {
    const int end = grid.cell_start[grid.spec.key({hi.x, z}) + 1];
    for (int k = grid.cell_start[grid.spec.key({lo.x, z})]; k < end; ++k)
      visit(k);
  }
}

/// Calls visit(item) for every item in the cells overlapping the square of half-size `range`
/// around `centre`, in the order of for_each_position_near.
template <class Visit>
CROWD_HD void for_each_item_near(const GridView& grid, glm::vec2 centre, float range,
                                 Visit&& visit) {
  for_each_position_near(grid, centre, range, [&](int k) { visit(grid.items[k]); });
}

} // namespace crowd

// Builds the wall grid (cuda/kernels/wall_grid.h) from the navmesh's boundary segments, once.
#pragma once

#include "cuda/kernels/wall_grid.h"
#include "host/navmesh/navmesh.h"

#include <cstdint>
#include <vector>

namespace crowd {

struct WallGridData {
  GridSpec spec;
  std::vector<std::int32_t> cell_start; // [cells + 1]
  std::vector<std::int32_t> items;      // segment ids, grouped by cell
  std::vector<WallListing> listing;     // [items] listing[k] describes items[k]
  std::vector<glm::vec3> p, q;          // [segments]
  /// [segments] (min x, min z, max x, max z) cells; the build's, copied into each listing
  /// (the queries read the listings, so this stays on the host).
  std::vector<glm::ivec4> cell_box;

  WallGridView view() const;
  std::size_t memory_bytes() const;
};

/// A grid over `area` (x/z of the navmesh bounds) with cells of `cell_size` metres.
WallGridData build_wall_grid(const std::vector<WallSegment>& segments, glm::vec2 area_min,
                             glm::vec2 area_max, float cell_size);

/// A grid spec covering [area_min, area_max] with square cells of at least `cell_size`,
/// widened when the cell count would exceed `max_cells`.
GridSpec make_grid_spec(glm::vec2 area_min, glm::vec2 area_max, float cell_size,
                        long long max_cells = 1 << 22);

} // namespace crowd

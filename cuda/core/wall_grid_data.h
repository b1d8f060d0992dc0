// The wall grid (cuda/kernels/wall_grid.h) as the host holds it: built once per navmesh by
// host/sim/wall_grid_builder.h, viewed by the CPU executor and copied to the device by the CUDA
// executor.
#pragma once

#include "cuda/kernels/wall_grid.h"

#include <cstddef>
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

} // namespace crowd

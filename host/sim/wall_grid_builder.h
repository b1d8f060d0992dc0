// Builds the wall grid (cuda/kernels/wall_grid.h) from the navmesh's boundary segments, once.
#pragma once

#include "cuda/core/wall_grid_data.h"
#include "host/navmesh/navmesh.h"

#include <cstdint>
#include <vector>

namespace crowd {

/// A grid over `area` (x/z of the navmesh bounds) with cells of `cell_size` metres.
WallGridData build_wall_grid(const std::vector<WallSegment>& segments, glm::vec2 area_min,
                             glm::vec2 area_max, float cell_size);

/// A grid spec covering [area_min, area_max] with square cells of at least `cell_size`,
/// widened when the cell count would exceed `max_cells`.
GridSpec make_grid_spec(glm::vec2 area_min, glm::vec2 area_max, float cell_size,
                        long long max_cells = 1 << 22);

} // namespace crowd

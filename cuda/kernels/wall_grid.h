// The navmesh's boundary edges in a uniform grid, built once per run on the host and kept in
// device memory for the whole run. A segment is listed in every cell its bounding box
// touches; a query visits it once, in the first cell of the overlap of its cell box and the
// query's cell box.
#pragma once

#include "cuda/kernels/uniform_grid.h"

namespace crowd {

struct WallGridView {
  GridView grid;                        // items are segment ids
  const glm::vec3* p = nullptr;         // [segments]
  const glm::vec3* q = nullptr;         // [segments]
  const glm::ivec4* cell_box = nullptr; // [segments] (min x, min z, max x, max z) cells
};

/// Calls visit(segment) once for every segment listed in the cells of the square of
/// half-size `range` around `centre`.
template <class Visit>
CROWD_HD void for_each_segment_near(const WallGridView& walls, glm::vec2 centre, float range,
                                    Visit&& visit) {
  const GridSpec& spec = walls.grid.spec;
  const glm::ivec2 lo = spec.cell_of({centre.x - range, centre.y - range});
  const glm::ivec2 hi = spec.cell_of({centre.x + range, centre.y + range});
  for (int z = lo.y; z <= hi.y; ++z) {
    for (int x = lo.x; x <= hi.x; ++x) {
      const int key = spec.key({x, z});
      for (int k = walls.grid.cell_start[key]; k < walls.grid.cell_start[key + 1]; ++k) {
        const int s = walls.grid.items[k];
        const glm::ivec4 box = walls.cell_box[s];
        const int first_x = box.x > lo.x ? box.x : lo.x;
        const int first_z = box.y > lo.y ? box.y : lo.y;
        if (x == first_x && z == first_z)
          visit(s);
      }
    }
  }
}

} // namespace crowd

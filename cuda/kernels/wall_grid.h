// The navmesh's boundary edges in a uniform grid, built once per run on the host and kept in
// device memory for the whole run. A segment is listed in every cell its bounding box
// touches; a query visits it once, in the first cell of the overlap of its cell box and the
// query's cell box. Each listing also carries a copy of what the query reads of its segment
// (WallListing), so the listings of a row of cells are read in sequence, as the agent grid's
// points are (agent_grid.h), instead of gathering the segment's ends and cells by its id.
#pragma once

#include "cuda/kernels/uniform_grid.h"

namespace crowd {

/// One listing of a segment in a cell: what a query reads of the segment, next to the others
/// of its cell.
struct WallListing {
  glm::vec4 ends;         ///< (p.x, p.z, q.x, q.z)
  float mid_y;            ///< 0.5f * (p.y + q.y), the segment's height
  std::int32_t cell_x;    ///< x of the cell this listing is in
  std::int32_t box_min_x; ///< the segment's cell_box.x
  std::int32_t box_min_z; ///< the segment's cell_box.y
};

struct WallGridView {
  GridView grid;                        // items are segment ids
  const WallListing* listing = nullptr; // [items] listing[k] describes items[k]
  const glm::vec3* p = nullptr;         // [segments]
  const glm::vec3* q = nullptr;         // [segments]
};

/// Calls visit(k) for the position k (into grid.items and listing) of one listing of every
/// segment listed in the cells of the square of half-size `range` around `centre`: the
/// listing in the first cell of the overlap of the segment's and the square's cell boxes.
/// Cells row by row in row-major order, each row one contiguous range of listings.
template <class Visit>
CROWD_HD void for_each_segment_listing_near(const WallGridView& walls, glm::vec2 centre,
                                            float range, Visit&& visit) {
  const GridSpec& spec = walls.grid.spec;
  const glm::ivec2 lo = spec.cell_of({centre.x - range, centre.y - range});
  const glm::ivec2 hi = spec.cell_of({centre.x + range, centre.y + range});
  for (int z = lo.y; z <= hi.y; ++z) {
    const int end = walls.grid.cell_start[spec.key({hi.x, z}) + 1];
    for (int k = walls.grid.cell_start[spec.key({lo.x, z})]; k < end; ++k) {
      const WallListing& l = walls.listing[k];
      const int first_x = l.box_min_x > lo.x ? l.box_min_x : lo.x;
      const int first_z = l.box_min_z > lo.y ? l.box_min_z : lo.y;
      if (l.cell_x == first_x && z == first_z)
        visit(k);
    }
  }
}

/// Calls visit(segment) once for every segment listed in the cells of the square of
/// half-size `range` around `centre`.
template <class Visit>
CROWD_HD void for_each_segment_near(const WallGridView& walls, glm::vec2 centre, float range,
                                    Visit&& visit) {
  for_each_segment_listing_near(walls, centre, range, [&](int k) { visit(walls.grid.items[k]); });
}

} // namespace crowd

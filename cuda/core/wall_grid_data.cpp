#include "cuda/core/wall_grid_data.h"

namespace crowd {

WallGridView WallGridData::view() const {
  WallGridView v;
  v.grid.spec = spec;
  v.grid.cell_start = cell_start.data();
  v.grid.items = items.data();
  v.listing = listing.data();
  v.p = p.data();
  v.q = q.data();
  return v;
}

std::size_t WallGridData::memory_bytes() const {
  return cell_start.capacity() * sizeof(std::int32_t) + items.capacity() * sizeof(std::int32_t) +
         (p.capacity() + q.capacity()) * sizeof(glm::vec3) +
         cell_box.capacity() * sizeof(glm::ivec4) + listing.capacity() * sizeof(WallListing);
}

} // namespace crowd

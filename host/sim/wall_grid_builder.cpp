#include "host/sim/wall_grid_builder.h"

#include <algorithm>
#include <cmath>

namespace crowd {

GridSpec make_grid_spec(glm::vec2 area_min, glm::vec2 area_max, float cell_size,
                        long long max_cells) {
  GridSpec spec;
  spec.origin = area_min;
  const glm::vec2 extent = glm::max(area_max - area_min, glm::vec2(1e-3f));
  float size = std::max(cell_size, 1e-3f);
  for (;;) {
    const long long nx = static_cast<long long>(std::ceil(extent.x / size));
    const long long nz = static_cast<long long>(std::ceil(extent.y / size));
    if (nx * nz <= max_cells) {
      spec.cell_size = size;
      spec.cells_x = static_cast<std::int32_t>(std::max(1LL, nx));
      spec.cells_z = static_cast<std::int32_t>(std::max(1LL, nz));
      return spec;
    }
    size *= 2.0f;
  }
}

WallGridData build_wall_grid(const std::vector<WallSegment>& segments, glm::vec2 area_min,
                             glm::vec2 area_max, float cell_size) {
  WallGridData data;
  data.spec = make_grid_spec(area_min, area_max, cell_size);
  const int cells = data.spec.cell_count();
  const int n = static_cast<int>(segments.size());
  data.p.reserve(segments.size());
  data.q.reserve(segments.size());
  data.cell_box.reserve(segments.size());
  for (const WallSegment& s : segments) {
    data.p.push_back(s.p);
    data.q.push_back(s.q);
    const glm::ivec2 lo = data.spec.cell_of({std::min(s.p.x, s.q.x), std::min(s.p.z, s.q.z)});
    const glm::ivec2 hi = data.spec.cell_of({std::max(s.p.x, s.q.x), std::max(s.p.z, s.q.z)});
    data.cell_box.emplace_back(lo.x, lo.y, hi.x, hi.y);
  }
  // Counting sort of (cell, segment) pairs: count, prefix sum, scatter in segment order.
  std::vector<std::int32_t> counts(static_cast<std::size_t>(cells) + 1, 0);
  for (int s = 0; s < n; ++s) {
    const glm::ivec4 b = data.cell_box[static_cast<std::size_t>(s)];
    for (int z = b.y; z <= b.w; ++z)
      for (int x = b.x; x <= b.z; ++x)
        ++counts[static_cast<std::size_t>(data.spec.key({x, z}))];
  }
  data.cell_start.assign(static_cast<std::size_t>(cells) + 1, 0);
  for (int c = 0; c < cells; ++c)
    data.cell_start[static_cast<std::size_t>(c) + 1] =
        data.cell_start[static_cast<std::size_t>(c)] + counts[static_cast<std::size_t>(c)];
  data.items.resize(static_cast<std::size_t>(data.cell_start.back()));
  data.listing.resize(data.items.size());
  std::vector<std::int32_t> fill(data.cell_start.begin(), data.cell_start.end() - 1);
  for (int s = 0; s < n; ++s) {
    const glm::ivec4 b = data.cell_box[static_cast<std::size_t>(s)];
    const glm::vec3 p = data.p[static_cast<std::size_t>(s)];
    const glm::vec3 q = data.q[static_cast<std::size_t>(s)];
    for (int z = b.y; z <= b.w; ++z) {
      for (int x = b.x; x <= b.z; ++x) {
        const auto k =
            static_cast<std::size_t>(fill[static_cast<std::size_t>(data.spec.key({x, z}))]++);
        data.items[k] = s;
        // mid_y as the query computed it from p and q, so reading it changes no result.
        data.listing[k] = {{p.x, p.z, q.x, q.z}, 0.5f * (p.y + q.y), x, b.x, b.y};
      }
    }
  }
  return data;
}

} // namespace crowd

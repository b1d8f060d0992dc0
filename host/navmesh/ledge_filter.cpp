// The ledge filter of Recast's pipeline, sparing spans whose cell the floor covers
// (ledge_filter.h). The rules are those of rcFilterLedgeSpans in Recast's RecastFilter.cpp.
#include "host/navmesh/ledge_filter.h"

#include <Recast.h>
#include <algorithm>
#include <cstdlib>

namespace crowd {

namespace {

// The open height above the topmost span of a column (RecastFilter.cpp's MAX_HEIGHT).
constexpr int kOpenAbove = 0xffff;

} // namespace

void filter_ledges(rcHeightfield& hf, const int walkable_height, const int walkable_climb,
                   const FloorCoverage& coverage) {
  const int w = hf.width, h = hf.height;
  for (int z = 0; z < h; ++z) {
    for (int x = 0; x < w; ++x) {
      for (rcSpan* span = hf.spans[x + z * w]; span != nullptr; span = span->next) {
        if (span->area == RC_NULL_AREA) {
          continue;
        }
        const int floor = static_cast<int>(span->smax);
        const int ceiling = span->next != nullptr ? static_cast<int>(span->next->smin) : kOpenAbove;
        bool drop = false;
        int lowest_reachable = floor, highest_reachable = floor;
        for (int dir = 0; dir < 4; ++dir) {
          const int nx = x + rcGetDirOffsetX(dir), nz = z + rcGetDirOffsetY(dir);
          if (nx < 0 || nz < 0 || nx >= w || nz >= h) {
            drop = true; // Off the grid: nothing to stand on.
            continue;
          }
          const rcSpan* neighbour = hf.spans[nx + nz * w];
          // Room to stand below the neighbour's lowest span: the floor ends in a void.
          const int below = neighbour != nullptr ? static_cast<int>(neighbour->smin) : kOpenAbove;
          if (std::min(ceiling, below) - floor >= walkable_height) {
            drop = true;
            continue;
          }
          for (; neighbour != nullptr; neighbour = neighbour->next) {
            const int neighbour_floor = static_cast<int>(neighbour->smax);
            const int neighbour_ceiling =
                neighbour->next != nullptr ? static_cast<int>(neighbour->next->smin) : kOpenAbove;
            if (std::min(ceiling, neighbour_ceiling) - std::max(floor, neighbour_floor) <
                walkable_height) {
              continue; // No room to pass between the two.
            }
            const int step = neighbour_floor - floor;
            if (step < -walkable_climb) {
              drop = true;
            } else if (std::abs(step) <= walkable_climb) {
              lowest_reachable = std::min(lowest_reachable, neighbour_floor);
              highest_reachable = std::max(highest_reachable, neighbour_floor);
            }
          }
        }
        const float top = hf.bmin[1] + static_cast<float>(floor) * hf.ch;
        if ((drop && !coverage.covers(x, z, top)) ||
            highest_reachable - lowest_reachable > walkable_climb) {
          span->area = RC_NULL_AREA;
        }
      }
    }
  }
}

} // namespace crowd

// Marks the spans beside drops unwalkable, as Recast's ledge filter does, except where the
// floor reaches the cell's side.
#pragma once

#include "host/navmesh/floor_coverage.h"

struct rcHeightfield;

namespace crowd {

/// Recast's rcFilterLedgeSpans (RecastFilter.cpp) marks a walkable span unwalkable when an agent
/// could step from it down more than `walkable_climb` (a neighbour outside the grid counts as
/// such a drop), or when its reachable neighbours differ in height by more than that (a steep
/// slope). The first rule costs a whole cell beside every drop, also where the floor covers
/// that cell and ends exactly on its side, as along the edge of a mesh floor aligned with the
/// grid: the erosion then starts a cell too far in. Here a span beside a drop stays walkable
/// when `coverage` says the floor covers its whole cell; its missing connection across the drop
/// is what GridClearance measures the radius from. Steep spans are marked as Recast does.
void filter_ledges(rcHeightfield& hf, int walkable_height, int walkable_climb,
                   const FloorCoverage& coverage);

} // namespace crowd

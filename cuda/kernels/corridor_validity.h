// The path validity look-ahead of an agent's corridor: dtPathCorridor::isValid, i.e. whether
// the first polygons of the corridor still exist and still pass the query filter
// (dtNavMeshQuery::isValidPolyRef), on a corridor of dense polygon indices (-1 for a polygon
// the navmesh no longer has) and the tables' per-polygon filter flags.
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cstdint>

namespace crowd {

/// dtPathCorridor::isValid(max_look_ahead, ...) for the filter the tables were built with.
CROWD_HD bool corridor_is_valid(const NavmeshTablesView& nav, const std::int32_t* path, int npath,
                                int max_look_ahead) {
  const int n = npath < max_look_ahead ? npath : max_look_ahead;
  for (int i = 0; i < n; ++i) {
    if (!nav.contains_polygon(path[i]) || !nav.passable[path[i]])
      return false;
  }
  return true;
}

} // namespace crowd

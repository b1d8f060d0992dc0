// The path validity look-ahead of an agent's corridor: dtPathCorridor::isValid, i.e. whether
// the first polygons of the corridor still exist and still pass the query filter
// (dtNavMeshQuery::isValidPolyRef), on a corridor of dense polygon indices (-1 for a polygon
// the navmesh no longer has) and the tables' per-polygon filter flags; and the row part of
// dtCrowd's checkPathValidity (DetourCrowd.cpp), whose findings the host acts on.
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cstdint>

namespace crowd {

/// dtPathCorridor::isValid(max_look_ahead, ...), with `valid(polygon)` telling whether a
/// polygon (a dense index) still exists and passes the filter.
template <class Valid>
CROWD_HD bool corridor_is_valid_by(const Valid& valid, const std::int32_t* path, int npath,
                                   int max_look_ahead) {
  const int n = npath < max_look_ahead ? npath : max_look_ahead;
  for (int i = 0; i < n; ++i) {
    if (!valid(path[i]))
      return false;
  }
  return true;
}

/// dtPathCorridor::isValid(max_look_ahead, ...) for the filter the tables were built with.
CROWD_HD bool corridor_is_valid(const NavmeshTablesView& nav, const std::int32_t* path, int npath,
                                int max_look_ahead) {
  return corridor_is_valid_by([&](std::int32_t p) { return nav.is_valid_polygon(p); }, path, npath,
                              max_look_ahead);
}

/// dtCrowd's CHECK_LOOKAHEAD: how many polygons ahead a corridor is checked.
inline constexpr int kCorridorCheckLookahead = 10;

/// What check_corridor finds in a corridor, for the host: the polygon the agent stands on is
/// gone or refused by the filter (find the nearest polygon and start over from it);
inline constexpr std::uint8_t kCorridorStartInvalid = 0x01;
/// a polygon within the look-ahead is (trim the corridor there and search again);
inline constexpr std::uint8_t kCorridorAheadInvalid = 0x02;
/// fewer than the look-ahead's polygons are left and the last is not the goal's (a path that
/// stops short: search again once the replan delay has passed).
inline constexpr std::uint8_t kCorridorNearEnd = 0x04;

/// Whether a corridor of `npath` polygons ends short of polygon `goal` (a dense index, -1 for
/// none) within the look-ahead.
CROWD_HD bool corridor_near_end(const std::int32_t* path, int npath, std::int32_t goal) {
  return npath < kCorridorCheckLookahead && (goal < 0 || npath == 0 || path[npath - 1] != goal);
}

/// The kCorridor* findings above for a corridor of `npath` polygons heading for `goal`, with
/// `valid(polygon)` as for corridor_is_valid_by (the host passes Detour's isValidPolyRef for an
/// agent of another filter than the tables').
template <class Valid>
CROWD_HD std::uint8_t check_corridor_by(const Valid& valid, const std::int32_t* path, int npath,
                                        std::int32_t goal) {
  std::uint8_t found = 0;
  if (npath == 0 || !valid(path[0]))
    found |= kCorridorStartInvalid;
  if (!corridor_is_valid_by(valid, path, npath, kCorridorCheckLookahead))
    found |= kCorridorAheadInvalid;
  if (corridor_near_end(path, npath, goal))
    found |= kCorridorNearEnd;
  return found;
}

/// check_corridor_by for the filter the tables were built with.
CROWD_HD std::uint8_t check_corridor(const NavmeshTablesView& nav, const std::int32_t* path,
                                     int npath, std::int32_t goal) {
  return check_corridor_by([&](std::int32_t p) { return nav.is_valid_polygon(p); }, path, npath,
                           goal);
}

} // namespace crowd

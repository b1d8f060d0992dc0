// Hierarchical path search on a tiled navmesh: the cluster route first (TileGraph::route), then an
// A* over the polygons of the tiles on it, or on the straight line between its ends, and within
// `margin` tiles of them (PolygonGraph::build_tree with a tile mask), from the goal toward the
// start. Long paths no longer expand
// the whole mesh: the polygon search sees only the corridor of tiles the route chose.
#pragma once

#include "host/paths/path_tree.h"
#include "host/paths/tile_graph.h"

#include <cstddef>
#include <span>

namespace crowd {

struct HierarchicalPath {
  int count = 0;            ///< Polygons written (0: no path within the route's tiles).
  bool complete = false;    ///< The last one is the goal's.
  std::size_t expanded = 0; ///< Polygons the search reached: its cost, against A*'s nodes.
};

/// The polygons from `start` to `goal` (dense PolygonGraph indices), at most out.size() of
/// them, written to `out` as references.
HierarchicalPath find_path_by_tiles(const PolygonGraph& graph, const TileGraph& tiles, int start,
                                    int goal, int margin, std::span<dtPolyRef> out);

} // namespace crowd

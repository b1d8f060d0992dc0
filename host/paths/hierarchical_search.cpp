// Tile route, then a polygon search confined to it (hierarchical_search.h).
#include "host/paths/hierarchical_search.h"

#include <vector>

namespace crowd {

HierarchicalPath find_path_by_tiles(const PolygonGraph& graph, const TileGraph& tiles, int start,
                                    int goal, int margin, std::span<dtPolyRef> out) {
  HierarchicalPath result;
  const int from = tiles.cluster_of(graph.ref_of(start));
  const int to = tiles.cluster_of(graph.ref_of(goal));
  if (from < 0 || to < 0)
    return result;
  const std::vector<int> route = tiles.route(from, to);
  if (route.empty())
    return result;
  thread_local std::vector<int> route_tiles;
  thread_local TileMask mask;
  thread_local PathTree tree;
  route_tiles.clear();
  for (const int cluster : route)
    route_tiles.push_back(tiles.tile_of_cluster(cluster));
  // And the tiles along the straight line between the ends: on a grid of tiles, routes of
  // equal cost include an L as well as a staircase along the diagonal, and the polygon search
  // must be able to take the diagonal.
  tiles.tiles_on_line(tiles.tile_of_cluster(route.front()), tiles.tile_of_cluster(route.back()),
                      route_tiles);
  tiles.mark_around(route_tiles, margin, mask);
  graph.build_tree(goal, tree, mask, start);
  result.expanded = tree.size();
  result.count = graph.extract_path(tree, start, out, result.complete);
  return result;
}

} // namespace crowd

// The upper level of the hierarchical path search on a tiled navmesh: the connected parts of
// its tiles ("clusters": the polygons of one tile that reach each other without leaving it) as
// a graph, linked where a polygon link crosses from one cluster to another. An A* over it gives
// the tiles a long path will cross; the polygon search (PolygonGraph::build_tree) is then
// confined to them and their neighbours, as hierarchical path finding on large game maps does
// (Botea, Mueller and Schaeffer, "Near Optimal Hierarchical Path-Finding", 2004: an abstract
// search over clusters, refined inside the clusters it chose). Clusters rather than whole
// tiles, so that a wall across a tile cannot make the route pass where no path does: the
// route's clusters always hold a path.
#pragma once

#include "host/paths/path_tree.h"

#include <DetourNavMesh.h>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace crowd {

class TileGraph {
public:
  explicit TileGraph(const dtNavMesh& navmesh);

  /// The cluster of a polygon; -1 for a reference not of this navmesh.
  int cluster_of(dtPolyRef ref) const;
  int cluster_count() const { return static_cast<int>(tile_.size()); }
  /// The dtNavMesh tile slot of a cluster.
  int tile_of_cluster(int cluster) const { return tile_[static_cast<std::size_t>(cluster)]; }

  /// The clusters on the cheapest way from cluster `from` to cluster `to`, both included;
  /// empty when none joins them. Costs are distances between cluster centroids, so among
  /// equal routes the lowest cluster numbers win: a route is one fixed function of its ends.
  std::vector<int> route(int from, int to) const;

  /// Sets `mask` (one entry per tile slot) to the tiles within `margin` tiles (in x and z) of
  /// any of the tiles `slots`.
  void mark_around(const std::vector<int>& slots, int margin, TileMask& mask) const;

  /// The largest of the x and z distances between two tiles (slots), in tiles.
  int tile_distance(int slot_a, int slot_b) const;

  /// The tile slots a straight line from the centre of tile `from` to the centre of tile `to`
  /// passes through, appended to `out`.
  void tiles_on_line(int from, int to, std::vector<int>& out) const;

  std::size_t memory_bytes() const;

private:
  int slot_at(int x, int z) const;

  const dtNavMesh* navmesh_;
  std::vector<glm::ivec2> position_;        ///< Grid x, z of each tile slot.
  std::vector<std::int32_t> first_cluster_; ///< Per slot: index into poly_cluster_ of polygon 0.
  std::vector<std::int32_t> poly_cluster_;  ///< Cluster of every polygon, tile by tile.
  std::vector<std::int32_t> tile_;          ///< Tile slot of each cluster.
  std::vector<glm::vec3> centroid_;         ///< Mean of its polygons' centroids.
  std::vector<std::int32_t> link_start_;    ///< CSR: linked clusters of each cluster.
  std::vector<std::int32_t> links_;
  glm::ivec2 grid_min_{0}, grid_size_{0};
  std::vector<std::int32_t> slot_of_cell_; ///< -1 where the grid has no tile.
};

} // namespace crowd

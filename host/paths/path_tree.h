// Shared paths: one shortest-path tree per goal polygon serves every agent heading into that
// polygon, whatever its start. A* (dtNavMeshQuery::findPath) costs one search per agent; in a
// crowd of 64,000 agents with a few hundred goal polygons that is 64,000 searches over a large
// mesh against a few hundred Dijkstra passes over the polygon graph, after which an agent's
// corridor is read off the tree in O(path length).
//
// The tree uses Detour's own path cost (findPath): the distance between successive portal
// midpoints times the area cost of the polygon crossed, the same portals getPortalPoints
// gives. It is grown backwards from the goal polygon's centroid, so a tree depends only on the
// goal polygon and not on which agent asked first; cached trees therefore give the same
// corridors whenever they are computed, and the result is independent of thread count.
#pragma once

#include "host/paths/polygon_index.h"

#include <DetourNavMesh.h>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

class dtQueryFilter;

namespace crowd {

struct PathTreesView;

/// Toward-the-goal links of one tree over the polygons it reached: next_of(p) is the polygon
/// after p on the way to the goal, kGoal at the goal itself, kUnreached where the tree does not
/// reach p (out of reach, or outside the tiles it was confined to). Kept sparse, sorted by
/// polygon, so that a tree confined to a few tiles of a large world stays small.
struct PathTree {
  static constexpr std::int32_t kGoal = -1;
  static constexpr std::int32_t kUnreached = -2;
  std::int32_t goal = -1;
  std::vector<std::int32_t> polygons; ///< Reached polygons, increasing.
  std::vector<std::int32_t> next;     ///< next[k]: the polygon after polygons[k].
  std::int32_t next_of(int polygon) const;
  std::size_t size() const { return polygons.size(); }
  std::size_t memory_bytes() const {
    return (polygons.capacity() + next.capacity()) * sizeof(std::int32_t);
  }
};

/// The tree as bytes, for another process (an MPI run's ranks share the trees they build,
/// host/distributed): goal, the rows' capacity (memory_bytes, which the tree cache's eviction
/// counts, must come out the same), their length, then the rows as variable-length
/// differences (each polygon from the one before, each next from its polygon).
std::vector<std::byte> path_tree_bytes(const PathTree& tree);
/// The tree path_tree_bytes wrote. Throws std::invalid_argument for bytes it did not write.
PathTree path_tree_from_bytes(std::span<const std::byte> bytes);

/// Which tiles (by dtNavMesh tile slot, getTile's index) a search may enter; empty: all.
using TileMask = std::vector<std::uint8_t>;

/// The navmesh's polygons as a graph (built once; read-only afterwards, so shared by threads).
class PolygonGraph {
public:
  PolygonGraph(const dtNavMesh& navmesh, const dtQueryFilter& filter);

  int size() const { return polygons_.size(); }
  /// Dense index of a polygon, or -1 when the reference is unknown or filtered out.
  int index_of(dtPolyRef ref) const {
    const int index = polygons_.index_of(ref);
    return index >= 0 && passes_[static_cast<std::size_t>(index)] ? index : -1;
  }
  dtPolyRef ref_of(int index) const { return polygons_.ref_of(index); }

  /// Dijkstra from `goal` over reversed links; fills `tree`. Only polygons of tiles set in
  /// `allowed` are entered (an empty mask allows all). With `start` >= 0 the search is an A*
  /// toward `start` (heuristic: the straight distance to its centroid) and stops once `start`
  /// is reached, so that the tree holds at least the path from `start`.
  void build_tree(int goal, PathTree& tree, const TileMask& allowed = {}, int start = -1) const;

  /// The dtNavMesh tile slot of polygon `index`.
  int tile_of(int index) const { return tile_[static_cast<std::size_t>(index)]; }

  /// The path from `start` along `tree`: at most `max_polys` references written to `out`;
  /// returns their count (0 when the goal is unreachable from `start`). `complete` tells
  /// whether the last one is the goal.
  int extract_path(const PathTree& tree, int start, std::span<dtPolyRef> out, bool& complete) const;
  /// The same along tree t of `trees` (the navigator's pool, host/paths/path_tree_pool.h).
  int extract_path(const PathTreesView& trees, int t, int start, std::span<dtPolyRef> out,
                   bool& complete) const;

  std::size_t memory_bytes() const;

private:
  /// extract_path along the tree whose next_of(p) is `next_of(p)`.
  template <class NextOf>
  int extract_path_with(const NextOf& next_of, int start, std::span<dtPolyRef> out,
                        bool& complete) const;

  PolygonIndex polygons_;
  std::vector<std::uint8_t> passes_; // 1 where the polygon passes the filter
  std::vector<glm::vec3> centroid_;
  std::vector<float> area_cost_;
  std::vector<std::int32_t> tile_; // tile slot of each polygon
  // Reversed links in CSR form: rev_start_[u] .. rev_start_[u + 1] are the polygons w with a
  // link w -> u, and the midpoint of that portal.
  std::vector<std::int32_t> rev_start_;
  std::vector<std::int32_t> rev_from_;
  std::vector<glm::vec3> rev_mid_;
};

} // namespace crowd

// The shared path trees (host/paths/path_tree.h) as the corridor bodies read them: an agent
// whose corridor came short of its goal (a path longer than the corridor holds) tops it up from
// the tree of its goal polygon, on the CPU or on a GPU, instead of asking the host for a new
// search when it nears the end. The host's cache of trees is this pool itself.
#pragma once

#include "cuda/common/hd.h"

#include <cstdint>

namespace crowd {

inline constexpr std::int32_t kTreeGoal = -1;
inline constexpr std::int32_t kTreeUnreached = -2;

/// Every cached tree, sparse and flattened: tree t holds the polygons
/// [start[t], end[t]) of `polygons` (increasing) with the polygon after each toward the goal in
/// `next` (kTreeGoal at the goal, as PathTree). The trees lie one after another in the order
/// they were cached, with the room of those dropped since between them (path_tree_pool.h).
struct PathTreesView {
  std::int32_t polygon_count = 0; ///< Entries of tree_of_goal.
  std::int32_t tree_count = 0;    ///< Entries of start and end (trees dropped among them).
  std::int32_t entries = 0;       ///< Entries of polygons and next.
  const std::int32_t* tree_of_goal = nullptr; ///< [polygons] the tree toward it, -1 for none.
  const std::int32_t* start = nullptr;
  const std::int32_t* end = nullptr;
  const std::int32_t* polygons = nullptr;
  const std::int32_t* next = nullptr;

  /// The tree toward `goal`, or -1.
  CROWD_HD int tree_of(int goal) const {
    return goal >= 0 && goal < polygon_count && tree_of_goal != nullptr ? tree_of_goal[goal] : -1;
  }
  /// The polygon after `polygon` on tree t's way to its goal: kTreeGoal at the goal,
  /// kTreeUnreached where the tree does not reach it (PathTree::next_of).
  CROWD_HD std::int32_t next_of(int t, int polygon) const {
    int lo = start[t], hi = end[t];
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (polygons[mid] < polygon)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < end[t] && polygons[lo] == polygon ? next[lo] : kTreeUnreached;
  }
};

/// The corridor `path` of `size` polygons (room for `capacity`) heading for `goal`, whose tree
/// is t: when fewer than `short_of` polygons are left and it ends short of the goal, the tree's
/// way on from its last polygon is appended, up to capacity - 1 polygons (dtPathCorridor's
/// setCorridor limit, as the host's follow_tree reads a tree) or the goal. Returns the new size;
/// `reached` tells whether it now ends at the goal.
CROWD_HD int extend_along_tree(const PathTreesView& trees, int t, int goal, std::int32_t* path,
                               int size, int capacity, int short_of, bool& reached) {
  reached = size > 0 && path[size - 1] == goal;
  if (size == 0 || reached || size >= short_of)
    return size;
  int p = path[size - 1];
  while (size < capacity - 1) {
    const std::int32_t q = trees.next_of(t, p);
    if (q < 0) // the goal (it is not: p != goal), or beyond the tree
      break;
    path[size++] = q;
    p = q;
    if (q == goal) {
      reached = true;
      break;
    }
  }
  return size;
}

} // namespace crowd

// The navigator's cache of path trees, held once, as the arrays the corridor bodies read
// (cuda/kernels/path_trees.h): a tree is appended when it is built and its room freed when it
// is dropped, the trees moved together when the freed room outgrows a quarter of what they hold
// or when a new tree would otherwise grow the arrays. A device executor uploads the pool when
// its version changes.
//
// The trees used to be held twice, in the cache (a PathTree each) and again in this pool, which
// was rebuilt from the cache whenever a tree came or went (nearly every step of a planning
// burst, on every rank of a split run): on the 64,000-agent bench scene the pool's arrays peaked
// at 80 MB beside the cache's 34. Held once, the pool peaked at 50 MB while a step's new trees
// came before the cache dropped the oldest; the cache now makes room first, and the new trees
// take the room of the trees dropped: 35 MB (heaptrack, 2026-11-29).
#pragma once

#include "cuda/kernels/path_trees.h"
#include "host/paths/grow_in_place_array.h"
#include "host/paths/path_tree.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd {

class PathTreePool {
public:
  /// No tree, for a navmesh of `polygon_count` polygons.
  explicit PathTreePool(int polygon_count = 0) { clear(polygon_count); }

  /// Drops every tree; the navmesh now has `polygon_count` polygons.
  void clear(int polygon_count);
  /// Adds `tree`, the tree toward polygon `goal`, which the pool does not hold.
  void add(std::int32_t goal, const PathTree& tree);
  /// Drops the tree toward `goal`, which the pool holds.
  void remove(std::int32_t goal);
  bool holds(std::int32_t goal) const { return view_.tree_of(goal) >= 0; }

  /// The pool for the corridor bodies (host pointers), current after every change.
  const PathTreesView& view() const { return view_; }
  /// Counts the changes: an executor holding a copy takes the pool again when it changed.
  std::uint64_t version() const { return version_; }
  /// Polygons of the trees held; of the room freed and not yet reused.
  std::size_t live_entries() const { return live_entries_; }
  std::size_t freed_entries() const { return polygons_.size() - live_entries_; }
  std::size_t memory_bytes() const;

private:
  /// Moves the trees held together, in the order they were added, dropping the freed room.
  void compact();
  /// Points the view at the arrays after they changed, and counts the change.
  void changed();

  std::vector<std::int32_t> tree_of_goal_; ///< [polygons] slot, -1 for none
  std::vector<std::int32_t> start_, end_;  ///< [slots] each tree's polygons, empty once freed
  std::vector<std::int32_t> goal_of_slot_; ///< [slots] -1 once freed
  GrowInPlaceArray<std::int32_t> polygons_, next_; ///< the trees one after another
  std::size_t live_entries_ = 0;
  std::size_t live_slots_ = 0;
  PathTreesView view_;
  std::uint64_t version_ = 0;
};

} // namespace crowd

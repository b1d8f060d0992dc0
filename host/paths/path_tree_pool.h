// The navigator's cached path trees flattened into the arrays the corridor bodies read
// (cuda/kernels/path_trees.h): rebuilt when the cache changes, and uploaded by a device
// executor when its version changes.
#pragma once

#include "cuda/kernels/path_trees.h"
#include "host/paths/path_tree.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace crowd {

class PathTreePool {
public:
  /// The trees `trees` ((goal polygon, tree) pairs, each goal once) of a navmesh of
  /// `polygon_count` polygons.
  void rebuild(int polygon_count,
               const std::vector<std::pair<std::int32_t, const PathTree*>>& trees);
  const PathTreesView& view() const { return view_; }
  /// Counts the rebuilds: an executor holding a copy takes the pool again when it changed.
  std::uint64_t version() const { return version_; }
  std::size_t memory_bytes() const {
    return (tree_of_goal_.capacity() + start_.capacity() + polygons_.capacity() +
            next_.capacity()) *
           sizeof(std::int32_t);
  }

private:
  std::vector<std::int32_t> tree_of_goal_, start_, polygons_, next_;
  PathTreesView view_;
  std::uint64_t version_ = 0;
};

} // namespace crowd

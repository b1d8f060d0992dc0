// The cached path trees as the corridor bodies read them (path_tree_pool.h).
#include "host/paths/path_tree_pool.h"

namespace crowd {

static_assert(PathTree::kGoal == kTreeGoal && PathTree::kUnreached == kTreeUnreached,
              "the bodies read PathTree's markers");

void PathTreePool::rebuild(int polygon_count,
                           const std::vector<std::pair<std::int32_t, const PathTree*>>& trees) {
  tree_of_goal_.assign(static_cast<std::size_t>(polygon_count), -1);
  start_.assign(1, 0);
  polygons_.clear();
  next_.clear();
  for (const auto& [goal, tree] : trees) {
    tree_of_goal_[static_cast<std::size_t>(goal)] = static_cast<std::int32_t>(start_.size()) - 1;
    polygons_.insert(polygons_.end(), tree->polygons.begin(), tree->polygons.end());
    next_.insert(next_.end(), tree->next.begin(), tree->next.end());
    start_.push_back(static_cast<std::int32_t>(polygons_.size()));
  }
  view_.polygon_count = polygon_count;
  view_.tree_count = static_cast<std::int32_t>(trees.size());
  view_.tree_of_goal = tree_of_goal_.data();
  view_.start = start_.data();
  view_.polygons = polygons_.data();
  view_.next = next_.data();
  ++version_;
}

} // namespace crowd

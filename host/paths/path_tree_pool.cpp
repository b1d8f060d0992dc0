// The cache of path trees as the corridor bodies read them (path_tree_pool.h).
#include "host/paths/path_tree_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace crowd {

static_assert(PathTree::kGoal == kTreeGoal && PathTree::kUnreached == kTreeUnreached,
              "the bodies read PathTree's markers");

void PathTreePool::clear(int polygon_count) {
  tree_of_goal_.assign(static_cast<std::size_t>(std::max(0, polygon_count)), -1);
  // Released, not only emptied: a navmesh rebuilt may want far fewer trees.
  std::vector<std::int32_t>().swap(start_);
  std::vector<std::int32_t>().swap(end_);
  std::vector<std::int32_t>().swap(goal_of_slot_);
  polygons_ = {};
  next_ = {};
  live_entries_ = 0;
  live_slots_ = 0;
  changed();
}

void PathTreePool::add(std::int32_t goal, const PathTree& tree) {
  if (goal < 0 || static_cast<std::size_t>(goal) >= tree_of_goal_.size() || holds(goal) ||
      tree.polygons.size() != tree.next.size())
    throw std::logic_error("PathTreePool::add: no room for a tree toward polygon " +
                           std::to_string(goal));
  const std::size_t size = tree.polygons.size();
  // Room freed before the arrays grow: the trees dropped to make room for this one (the
  // navigator evicts before it adds) leave it to the tree rather than to growth.
  if (polygons_.size() + size > polygons_.capacity() && freed_entries() > 0)
    compact();
  const auto slot = static_cast<std::int32_t>(start_.size());
  start_.push_back(static_cast<std::int32_t>(polygons_.size()));
  polygons_.append(tree.polygons.data(), size);
  next_.append(tree.next.data(), size);
  end_.push_back(static_cast<std::int32_t>(polygons_.size()));
  goal_of_slot_.push_back(goal);
  tree_of_goal_[static_cast<std::size_t>(goal)] = slot;
  live_entries_ += size;
  ++live_slots_;
  changed();
}

void PathTreePool::remove(std::int32_t goal) {
  if (!holds(goal))
    throw std::logic_error("PathTreePool::remove: no tree toward polygon " + std::to_string(goal));
  const auto slot = static_cast<std::size_t>(tree_of_goal_[static_cast<std::size_t>(goal)]);
  live_entries_ -= static_cast<std::size_t>(end_[slot] - start_[slot]);
  --live_slots_;
  end_[slot] = start_[slot];
  goal_of_slot_[slot] = -1;
  tree_of_goal_[static_cast<std::size_t>(goal)] = -1;
  // Moving the trees costs at most four times the room freed since they last moved, so the
  // room is reclaimed at a constant cost per polygon freed.
  if (4 * freed_entries() > live_entries_ || start_.size() > 2 * live_slots_ + 64)
    compact();
  changed();
}

void PathTreePool::compact() {
  // In place, front to back: each tree moves toward the start, never past one not yet moved.
  std::size_t to = 0, slot_to = 0;
  for (std::size_t slot = 0; slot < start_.size(); ++slot) {
    const std::int32_t goal = goal_of_slot_[slot];
    if (goal < 0)
      continue;
    const auto from = static_cast<std::size_t>(start_[slot]);
    const auto size = static_cast<std::size_t>(end_[slot] - start_[slot]);
    std::copy(polygons_.data() + from, polygons_.data() + from + size, polygons_.data() + to);
    std::copy(next_.data() + from, next_.data() + from + size, next_.data() + to);
    start_[slot_to] = static_cast<std::int32_t>(to);
    end_[slot_to] = static_cast<std::int32_t>(to + size);
    goal_of_slot_[slot_to] = goal;
    tree_of_goal_[static_cast<std::size_t>(goal)] = static_cast<std::int32_t>(slot_to);
    to += size;
    ++slot_to;
  }
  polygons_.shrink_to(to);
  next_.shrink_to(to);
  start_.resize(slot_to);
  end_.resize(slot_to);
  goal_of_slot_.resize(slot_to);
}

void PathTreePool::changed() {
  view_.polygon_count = static_cast<std::int32_t>(tree_of_goal_.size());
  view_.tree_count = static_cast<std::int32_t>(start_.size());
  view_.entries = static_cast<std::int32_t>(polygons_.size());
  view_.tree_of_goal = tree_of_goal_.data();
  view_.start = start_.data();
  view_.end = end_.data();
  view_.polygons = polygons_.data();
  view_.next = next_.data();
  ++version_;
}

std::size_t PathTreePool::memory_bytes() const {
  return (tree_of_goal_.capacity() + start_.capacity() + end_.capacity() +
          goal_of_slot_.capacity() + polygons_.capacity() + next_.capacity()) *
         sizeof(std::int32_t);
}

} // namespace crowd

// A bucket grid over the obstacles' bounding boxes (obstacle_index.h).
#include "host/scenario/obstacle_index.h"

#include <algorithm>
#include <cmath>

namespace crowd {

namespace {

// About one obstacle per bucket, but no more than this many buckets along an axis.
constexpr int kMaxBucketsPerAxis = 1024;

} // namespace

ObstacleIndex::ObstacleIndex(const std::vector<Polygon2D>& obstacles) {
  boxes_.reserve(obstacles.size());
  Box all{glm::vec2(0.0f), glm::vec2(0.0f)};
  for (const Polygon2D& polygon : obstacles) {
    Box box{polygon.front(), polygon.front()};
    for (const glm::vec2 v : polygon) {
      box.min = glm::min(box.min, v);
      box.max = glm::max(box.max, v);
    }
    all = boxes_.empty() ? box : Box{glm::min(all.min, box.min), glm::max(all.max, box.max)};
    boxes_.push_back(box);
  }
  if (boxes_.empty()) {
    return;
  }
  origin_ = all.min;
  const glm::vec2 extent = glm::max(all.max - all.min, glm::vec2(1e-3f));
  const float per_obstacle = std::sqrt(extent.x * extent.y / static_cast<float>(boxes_.size()));
  bucket_size_ =
      std::max({per_obstacle, extent.x / kMaxBucketsPerAxis, extent.y / kMaxBucketsPerAxis, 1e-3f});
  buckets_ = glm::ivec2(glm::floor(extent / bucket_size_)) + 1;
  members_.resize(static_cast<std::size_t>(buckets_.x) * static_cast<std::size_t>(buckets_.y));
  for (std::size_t i = 0; i < boxes_.size(); ++i) {
    const glm::ivec2 lo = bucket_of(boxes_[i].min), hi = bucket_of(boxes_[i].max);
    for (int z = lo.y; z <= hi.y; ++z) {
      for (int x = lo.x; x <= hi.x; ++x) {
        members_[static_cast<std::size_t>(z) * static_cast<std::size_t>(buckets_.x) +
                 static_cast<std::size_t>(x)]
            .push_back(static_cast<int>(i));
      }
    }
  }
}

glm::ivec2 ObstacleIndex::bucket_of(glm::vec2 p) const {
  const glm::vec2 cell = glm::floor((p - origin_) / bucket_size_);
  return glm::clamp(glm::ivec2(cell), glm::ivec2(0), buckets_ - 1);
}

void ObstacleIndex::candidates(glm::vec2 lo, glm::vec2 hi, std::vector<int>& out) const {
  out.clear();
  if (boxes_.empty()) {
    return;
  }
  const glm::ivec2 a = bucket_of(lo), b = bucket_of(hi);
  for (int z = a.y; z <= b.y; ++z) {
    for (int x = a.x; x <= b.x; ++x) {
      const std::vector<int>& bucket =
          members_[static_cast<std::size_t>(z) * static_cast<std::size_t>(buckets_.x) +
                   static_cast<std::size_t>(x)];
      out.insert(out.end(), bucket.begin(), bucket.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

} // namespace crowd

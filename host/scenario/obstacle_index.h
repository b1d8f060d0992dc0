// Which of a 2D world's obstacles may meet a box: a uniform grid of buckets over their bounding
// boxes, so that placing a million agents among tens of thousands of obstacles looks at the few
// nearby ones instead of every obstacle for every candidate position.
#pragma once

#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <vector>

namespace crowd {

class ObstacleIndex {
public:
  struct Box {
    glm::vec2 min, max;
  };

  explicit ObstacleIndex(const std::vector<Polygon2D>& obstacles);

  /// The bounding box of obstacle `i`.
  const Box& box(int i) const { return boxes_[static_cast<std::size_t>(i)]; }

  /// Writes into `out` (cleared first), in increasing order, every obstacle whose bounding box
  /// meets the closed box [lo, hi], and possibly some nearby ones.
  void candidates(glm::vec2 lo, glm::vec2 hi, std::vector<int>& out) const;

private:
  glm::ivec2 bucket_of(glm::vec2 p) const;

  std::vector<Box> boxes_;
  glm::vec2 origin_{0.0f};
  float bucket_size_ = 1.0f;
  glm::ivec2 buckets_{1, 1};
  std::vector<std::vector<int>> members_;
};

} // namespace crowd

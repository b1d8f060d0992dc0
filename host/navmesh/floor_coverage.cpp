// Floor coverage of heightfield cells, tested at the cells' corners (floor_coverage.h).
#include "host/navmesh/floor_coverage.h"

#include <Recast.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace crowd {

namespace {

// Triangles are listed per block of this many columns along each axis.
constexpr int kBlock = 8;

} // namespace

FloorCoverage::FloorCoverage(const rcHeightfield& hf, const std::vector<float>& vertices,
                             const std::vector<int>& triangles, float climb)
    : vertices_(vertices), triangles_(triangles), climb_(climb), cell_height_(hf.ch),
      // A corner on a triangle's border counts as on it, whatever the float rounding of the
      // corner's position.
      tolerance_(1e-3f * hf.cs), origin_(hf.bmin[0], hf.bmin[2]), cell_size_(hf.cs) {
  block_x_ = (hf.width + kBlock) / kBlock;
  block_z_ = (hf.height + kBlock) / kBlock;
  blocks_.assign(static_cast<std::size_t>(block_x_) * block_z_, {});
  const float block_size = cell_size_ * kBlock;
  for (std::size_t t = 0; 3 * t < triangles_.size(); ++t) {
    glm::vec2 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
    for (int k = 0; k < 3; ++k) {
      const float* v = &vertices_[3 * static_cast<std::size_t>(triangles_[3 * t + k])];
      lo = glm::min(lo, glm::vec2(v[0], v[2]));
      hi = glm::max(hi, glm::vec2(v[0], v[2]));
    }
    const glm::vec2 a = (lo - tolerance_ - origin_) / block_size;
    const glm::vec2 b = (hi + tolerance_ - origin_) / block_size;
    const int x0 = std::max(0, static_cast<int>(std::floor(a.x)));
    const int x1 = std::min(block_x_ - 1, static_cast<int>(std::floor(b.x)));
    const int z0 = std::max(0, static_cast<int>(std::floor(a.y)));
    const int z1 = std::min(block_z_ - 1, static_cast<int>(std::floor(b.y)));
    for (int z = z0; z <= z1; ++z) {
      for (int x = x0; x <= x1; ++x) {
        blocks_[static_cast<std::size_t>(z) * block_x_ + x].push_back(static_cast<int>(t));
      }
    }
  }
}

bool FloorCoverage::on_floor(glm::vec2 p, float top) const {
  const float block_size = cell_size_ * kBlock;
  const int bx =
      std::clamp(static_cast<int>(std::floor((p.x - origin_.x) / block_size)), 0, block_x_ - 1);
  const int bz =
      std::clamp(static_cast<int>(std::floor((p.y - origin_.y) / block_size)), 0, block_z_ - 1);
  for (const int t : blocks_[static_cast<std::size_t>(bz) * block_x_ + bx]) {
    glm::vec3 v[3];
    for (int k = 0; k < 3; ++k) {
      const float* q = &vertices_[3 * static_cast<std::size_t>(triangles_[3 * t + k])];
      v[k] = {q[0], q[1], q[2]};
    }
    const glm::vec2 a(v[0].x, v[0].z), b(v[1].x, v[1].z), c(v[2].x, v[2].z);
    const float area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    if (std::abs(area) <= 1e-12f) {
      continue; // Vertical: no floor.
    }
    // Signed distances of p from the three edges, positive inside.
    bool inside = true;
    const glm::vec2 corners[3] = {a, b, c};
    float weights[3];
    for (int k = 0; k < 3 && inside; ++k) {
      const glm::vec2 e0 = corners[(k + 1) % 3], e1 = corners[(k + 2) % 3];
      const float edge_area = (e1.x - e0.x) * (p.y - e0.y) - (p.x - e0.x) * (e1.y - e0.y);
      weights[k] = edge_area / area;
      inside = edge_area / std::copysign(glm::length(e1 - e0), area) >= -tolerance_;
    }
    if (!inside) {
      continue;
    }
    const float y = weights[0] * v[0].y + weights[1] * v[1].y + weights[2] * v[2].y;
    if (y >= top - climb_ - cell_height_ && y <= top + cell_height_) {
      return true;
    }
  }
  return false;
}

bool FloorCoverage::covers(int x, int z, float top) const {
  const glm::vec2 lo =
      origin_ + cell_size_ * glm::vec2(static_cast<float>(x), static_cast<float>(z));
  for (const glm::vec2 corner : {lo, lo + glm::vec2(cell_size_, 0.0f),
                                 lo + glm::vec2(0.0f, cell_size_), lo + glm::vec2(cell_size_)}) {
    if (!on_floor(corner, top)) {
      return false;
    }
  }
  return true;
}

} // namespace crowd

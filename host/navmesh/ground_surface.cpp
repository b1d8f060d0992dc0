#include "host/navmesh/ground_surface.h"

#include <algorithm>
#include <cmath>

namespace crowd {

namespace {

/// Twice the signed area of the footprint of (a, b, c) in x/z.
float footprint_area2(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  return (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
}

// A face whose footprint is thinner than this (a wall seen from above) has no ground to give.
constexpr float kMinFootprintArea2 = 1e-6f;

} // namespace

GroundSurface::GroundSurface(const InputGeometry& geometry) {
  glm::vec2 lo{1e30f}, hi{-1e30f};
  for (const glm::ivec3& t : geometry.triangles) {
    const Triangle tri{geometry.vertices[static_cast<std::size_t>(t.x)],
                       geometry.vertices[static_cast<std::size_t>(t.y)],
                       geometry.vertices[static_cast<std::size_t>(t.z)]};
    if (std::abs(footprint_area2(tri.a, tri.b, tri.c)) < kMinFootprintArea2)
      continue;
    triangles_.push_back(tri);
    for (const glm::vec3& v : {tri.a, tri.b, tri.c}) {
      lo = glm::min(lo, glm::vec2(v.x, v.z));
      hi = glm::max(hi, glm::vec2(v.x, v.z));
    }
  }
  if (triangles_.empty())
    return;
  // About 4 triangles per cell on an even mesh, and at most 2^20 cells.
  const glm::vec2 size = glm::max(hi - lo, glm::vec2(1e-3f));
  cell_ = std::max(std::sqrt(size.x * size.y * 4.0f / static_cast<float>(triangles_.size())),
                   std::sqrt(size.x * size.y / float(1 << 20)));
  min_ = lo;
  columns_ = std::max(1, static_cast<int>(std::ceil(size.x / cell_)));
  rows_ = std::max(1, static_cast<int>(std::ceil(size.y / cell_)));
  // Each triangle goes in every cell its footprint's bounding box overlaps (counting sort).
  const auto cells_of = [&](const Triangle& t, auto&& visit) {
    const float x0 = std::min({t.a.x, t.b.x, t.c.x}), x1 = std::max({t.a.x, t.b.x, t.c.x});
    const float z0 = std::min({t.a.z, t.b.z, t.c.z}), z1 = std::max({t.a.z, t.b.z, t.c.z});
    const int c0 = std::clamp(static_cast<int>((x0 - min_.x) / cell_), 0, columns_ - 1);
    const int c1 = std::clamp(static_cast<int>((x1 - min_.x) / cell_), 0, columns_ - 1);
    const int r0 = std::clamp(static_cast<int>((z0 - min_.y) / cell_), 0, rows_ - 1);
    const int r1 = std::clamp(static_cast<int>((z1 - min_.y) / cell_), 0, rows_ - 1);
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c)
        visit(r * columns_ + c);
  };
  cell_start_.assign(static_cast<std::size_t>(columns_ * rows_) + 1, 0);
  for (const Triangle& t : triangles_)
    cells_of(t, [&](int cell) { ++cell_start_[static_cast<std::size_t>(cell) + 1]; });
  for (std::size_t k = 1; k < cell_start_.size(); ++k)
    cell_start_[k] += cell_start_[k - 1];
  items_.resize(static_cast<std::size_t>(cell_start_.back()));
  std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < triangles_.size(); ++i)
    cells_of(triangles_[i], [&](int cell) {
      items_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cell)]++)] =
          static_cast<int>(i);
    });
}

int GroundSurface::cell_of(float x, float z) const {
  const int c = static_cast<int>(std::floor((x - min_.x) / cell_));
  const int r = static_cast<int>(std::floor((z - min_.y) / cell_));
  if (c < 0 || r < 0 || c >= columns_ || r >= rows_)
    return -1;
  return r * columns_ + c;
}

float GroundSurface::height_under(const glm::vec3& point) const {
  const int cell = triangles_.empty() ? -1 : cell_of(point.x, point.z);
  if (cell < 0)
    return point.y;
  const float ceiling = point.y + kReachAbove;
  bool found = false;
  float best = 0.0f;
  const glm::vec3 p = point;
  for (int k = cell_start_[static_cast<std::size_t>(cell)];
       k < cell_start_[static_cast<std::size_t>(cell) + 1]; ++k) {
    const Triangle& t = triangles_[static_cast<std::size_t>(items_[static_cast<std::size_t>(k)])];
    // Barycentric coordinates of p's footprint; inside (edges included) when all are >= 0.
    const float area = footprint_area2(t.a, t.b, t.c);
    const float u = footprint_area2(p, t.b, t.c) / area;
    const float v = footprint_area2(t.a, p, t.c) / area;
    const float w = 1.0f - u - v;
    constexpr float kEdge = -1e-5f;
    if (u < kEdge || v < kEdge || w < kEdge)
      continue;
    const float y = u * t.a.y + v * t.b.y + w * t.c.y;
    if (y <= ceiling && (!found || y > best)) {
      best = y;
      found = true;
    }
  }
  return found ? best : point.y;
}

} // namespace crowd

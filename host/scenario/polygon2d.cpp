#include "host/scenario/polygon2d.h"

#include <algorithm>
#include <cmath>

namespace crowd {

namespace {

struct P {
  double x, z;
};

P at(const Polygon2D& polygon, std::size_t i) {
  const glm::vec2 v = polygon[i % polygon.size()];
  return {static_cast<double>(v.x), static_cast<double>(v.y)};
}

// Differences and products of float inputs are exact in double (53-bit mantissa), so the
// sign of this orientation is exact for any realistic coordinates.
double orient(P a, P b, P c) {
  return (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x);
}

bool on_segment(P a, P b, P p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.z, b.z) <= p.z &&
         p.z <= std::max(a.z, b.z);
}

int sign(double v) {
  return (v > 0.0) - (v < 0.0);
}

// True when the closed segments ab and cd share at least one point.
bool segments_touch(P a, P b, P c, P d) {
  const int o1 = sign(orient(a, b, c)), o2 = sign(orient(a, b, d));
  const int o3 = sign(orient(c, d, a)), o4 = sign(orient(c, d, b));
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    return true;
  }
  return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
         (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

} // namespace

double twice_signed_area(const Polygon2D& polygon) {
  double sum = 0.0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const P a = at(polygon, i), b = at(polygon, i + 1);
    sum += a.x * b.z - b.x * a.z;
  }
  return sum;
}

std::optional<std::string> polygon_defect(const Polygon2D& polygon) {
  const std::size_t n = polygon.size();
  if (n < 3) {
    return "must have at least 3 points, got " + std::to_string(n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (polygon[i] == polygon[(i + 1) % n]) {
      return "point " + std::to_string((i + 1) % n) + " repeats point " + std::to_string(i) +
             " (an edge of zero length)";
    }
  }
  // Zero area is judged relative to the polygon's size. Collinear points are reported as
  // such before the simplicity test (which would call them an edge doubling back); a bow tie
  // also sums to zero area but is reported as crossing edges, which says what is wrong.
  glm::vec2 lo = polygon[0], hi = polygon[0];
  for (const glm::vec2 v : polygon) {
    lo = glm::min(lo, v);
    hi = glm::max(hi, v);
  }
  const double extent = static_cast<double>(std::max(hi.x - lo.x, hi.y - lo.y));
  const double zero = 1e-9 * extent * extent;
  bool collinear = true;
  for (std::size_t i = 2; i < n && collinear; ++i) {
    collinear = std::abs(orient(at(polygon, 0), at(polygon, 1), at(polygon, i))) <= zero;
  }
  if (collinear) {
    return std::string("has zero area (its points are collinear)");
  }
  for (std::size_t i = 0; i < n; ++i) {
    const P a = at(polygon, i), b = at(polygon, i + 1), c = at(polygon, i + 2);
    // Adjacent edges share a point by construction; they are only wrong when the second
    // doubles back along the first.
    if (orient(a, b, c) == 0.0 && (b.x - a.x) * (c.x - b.x) + (b.z - a.z) * (c.z - b.z) < 0.0) {
      return "is not simple: edge " + std::to_string((i + 1) % n) + " doubles back along edge " +
             std::to_string(i);
    }
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) {
        continue; // adjacent through the closing edge
      }
      if (segments_touch(a, b, at(polygon, j), at(polygon, j + 1))) {
        return "is not simple: edge " + std::to_string(i) + " touches or crosses edge " +
               std::to_string(j) + " (edge k runs from point k to point k+1)";
      }
    }
  }
  if (std::abs(twice_signed_area(polygon)) <= zero) {
    return std::string("has zero area");
  }
  return std::nullopt;
}

bool point_in_polygon(const Polygon2D& polygon, glm::vec2 p) {
  bool inside = false;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::vec2 a = polygon[i], b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

float squared_distance_to_boundary(const Polygon2D& polygon, glm::vec2 p) {
  float best = INFINITY;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const glm::vec2 a = polygon[j], ab = polygon[i] - a;
    const float len2 = glm::dot(ab, ab);
    const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    const glm::vec2 d = p - (a + t * ab);
    best = std::min(best, glm::dot(d, d));
  }
  return best;
}

} // namespace crowd

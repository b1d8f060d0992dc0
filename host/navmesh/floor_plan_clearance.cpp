// Clearance from a 2D world's floor plan: exact distances from cell squares and segments to the
// bounds' sides and the obstacles' edges (floor_plan_clearance.h says why not from the raster).
#include "host/navmesh/floor_plan_clearance.h"

#include <Recast.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace crowd {

namespace {

// Buckets of segment_clearance's edge index: at most this many along each axis, at least
// kMinBucketSize metres wide.
constexpr int kMaxBucketsPerAxis = 256;
constexpr double kMinBucketSize = 2.0;

double cross(glm::dvec2 a, glm::dvec2 b) {
  return a.x * b.y - a.y * b.x;
}

double point_segment_distance(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

double point_box_distance(glm::dvec2 p, glm::dvec2 lo, glm::dvec2 hi) {
  const glm::dvec2 d = glm::max(glm::max(lo - p, p - hi), glm::dvec2(0.0));
  return glm::length(d);
}

// True when the segment a-b meets the closed box [lo, hi] (Liang-Barsky clipping).
bool segment_meets_box(glm::dvec2 a, glm::dvec2 b, glm::dvec2 lo, glm::dvec2 hi) {
  double t0 = 0.0, t1 = 1.0;
  const glm::dvec2 d = b - a;
  for (int axis = 0; axis < 2; ++axis) {
    const double p = d[axis];
    const double near_side = lo[axis] - a[axis], far_side = hi[axis] - a[axis];
    if (p == 0.0) {
      if (near_side > 0.0 || far_side < 0.0) {
        return false;
      }
      continue;
    }
    double ta = near_side / p, tb = far_side / p;
    if (ta > tb) {
      std::swap(ta, tb);
    }
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) {
      return false;
    }
  }
  return true;
}

// Two convex sets that do not meet are nearest at a vertex of one of them.
double box_segment_distance(glm::dvec2 lo, glm::dvec2 hi, glm::dvec2 a, glm::dvec2 b) {
  if (segment_meets_box(a, b, lo, hi)) {
    return 0.0;
  }
  double d = std::min(point_box_distance(a, lo, hi), point_box_distance(b, lo, hi));
  for (const glm::dvec2 corner : {lo, hi, glm::dvec2(lo.x, hi.y), glm::dvec2(hi.x, lo.y)}) {
    d = std::min(d, point_segment_distance(corner, a, b));
  }
  return d;
}

bool segments_cross(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c, glm::dvec2 d) {
  const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const double d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  return ((d1 > 0.0) != (d2 > 0.0)) && ((d3 > 0.0) != (d4 > 0.0));
}

double segment_segment_distance(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c, glm::dvec2 d) {
  if (segments_cross(a, b, c, d)) {
    return 0.0;
  }
  return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d),
                   point_segment_distance(c, a, b), point_segment_distance(d, a, b)});
}

// The polygon's points without repeated consecutive points or a closing copy of the first.
std::vector<glm::dvec2> distinct_points(const Polygon2D& polygon) {
  std::vector<glm::dvec2> out;
  for (const glm::vec2 p : polygon) {
    const glm::dvec2 q(p);
    if (out.empty() || out.back() != q) {
      out.push_back(q);
    }
  }
  while (out.size() > 1 && out.back() == out.front()) {
    out.pop_back();
  }
  return out;
}

} // namespace

FloorPlanClearance::FloorPlanClearance(const FloorPlan& plan, float radius)
    : radius_(std::max(0.0, static_cast<double>(radius))) {
  const glm::dvec2 lo(plan.min), hi(plan.max);
  edges_ = {{lo, {hi.x, lo.y}}, {{hi.x, lo.y}, hi}, {hi, {lo.x, hi.y}}, {{lo.x, hi.y}, lo}};
  glm::dvec2 box_lo = lo, box_hi = hi;
  for (const Polygon2D& obstacle : plan.obstacles) {
    const std::vector<glm::dvec2> points = distinct_points(obstacle);
    const std::size_t n = points.size();
    // Two points are a fence of zero thickness: one edge (as input_geometry.cpp's prism).
    const std::size_t edge_count = n == 2 ? 1 : (n >= 3 ? n : 0);
    for (std::size_t i = 0; i < edge_count; ++i) {
      edges_.push_back({points[i], points[(i + 1) % n]});
    }
    for (const glm::dvec2 p : points) {
      box_lo = glm::min(box_lo, p);
      box_hi = glm::max(box_hi, p);
    }
    if (n >= 3) {
      polygons_.push_back(points);
    }
  }

  const glm::dvec2 extent = box_hi - box_lo;
  bucket_size_ =
      std::max({kMinBucketSize, extent.x / kMaxBucketsPerAxis, extent.y / kMaxBucketsPerAxis});
  bucket_origin_ = box_lo;
  buckets_x_ = static_cast<int>(extent.x / bucket_size_) + 1;
  buckets_z_ = static_cast<int>(extent.y / bucket_size_) + 1;
  buckets_.assign(static_cast<std::size_t>(buckets_x_) * buckets_z_, {});
  for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
    const Edge& edge = edges_[static_cast<std::size_t>(e)];
    const glm::dvec2 a = (glm::min(edge.a, edge.b) - bucket_origin_) / bucket_size_;
    const glm::dvec2 b = (glm::max(edge.a, edge.b) - bucket_origin_) / bucket_size_;
    for (int z = std::max(0, static_cast<int>(a.y));
         z <= std::min(buckets_z_ - 1, static_cast<int>(b.y)); ++z) {
      for (int x = std::max(0, static_cast<int>(a.x));
           x <= std::min(buckets_x_ - 1, static_cast<int>(b.x)); ++x) {
        buckets_[static_cast<std::size_t>(z) * buckets_x_ + x].push_back(e);
      }
    }
  }
}

void FloorPlanClearance::edges_near(glm::dvec2 lo, glm::dvec2 hi, std::vector<int>& out) const {
  out.clear();
  const glm::dvec2 a = glm::floor((lo - bucket_origin_) / bucket_size_);
  const glm::dvec2 b = glm::floor((hi - bucket_origin_) / bucket_size_);
  const int x0 = std::max(0, static_cast<int>(a.x)),
            x1 = std::min(buckets_x_ - 1, static_cast<int>(b.x));
  const int z0 = std::max(0, static_cast<int>(a.y)),
            z1 = std::min(buckets_z_ - 1, static_cast<int>(b.y));
  for (int z = z0; z <= z1; ++z) {
    for (int x = x0; x <= x1; ++x) {
      const std::vector<int>& bucket = buckets_[static_cast<std::size_t>(z) * buckets_x_ + x];
      out.insert(out.end(), bucket.begin(), bucket.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void FloorPlanClearance::erode(rcCompactHeightfield& chf) {
  const int width = chf.width, height = chf.height;
  const double cs = chf.cs;
  const glm::dvec2 origin(chf.bmin[0], chf.bmin[2]);
  const double tolerance = kClearanceTolerance * cs;
  std::vector<unsigned char> blocked(static_cast<std::size_t>(width) * height, 0);
  auto cell_range = [&](double lo, double hi, int axis_cells, double axis_origin) {
    const int first = std::max(0, static_cast<int>(std::floor((lo - axis_origin) / cs)));
    const int last =
        std::min(axis_cells - 1, static_cast<int>(std::floor((hi - axis_origin) / cs)));
    return std::pair{first, last};
  };

  // Cells nearer than the radius to an edge (or touching it).
  for (const Edge& edge : edges_) {
    const glm::dvec2 lo = glm::min(edge.a, edge.b) - radius_,
                     hi = glm::max(edge.a, edge.b) + radius_;
    const auto [x0, x1] = cell_range(lo.x, hi.x, width, origin.x);
    const auto [z0, z1] = cell_range(lo.y, hi.y, height, origin.y);
    for (int z = z0; z <= z1; ++z) {
      for (int x = x0; x <= x1; ++x) {
        unsigned char& cell = blocked[static_cast<std::size_t>(z) * width + x];
        if (cell != 0) {
          continue;
        }
        const glm::dvec2 cell_lo = origin + cs * glm::dvec2(x, z);
        const double d = box_segment_distance(cell_lo, cell_lo + cs, edge.a, edge.b);
        if (d <= 0.0 || d < radius_ - tolerance) {
          cell = 1;
        }
      }
    }
  }

  // Cells inside an obstacle: those that meet its edges are marked above; the rest have their
  // centre inside. Even-odd scanlines through the cell centres of each row.
  std::vector<double> crossings;
  for (const std::vector<glm::dvec2>& polygon : polygons_) {
    glm::dvec2 lo = polygon.front(), hi = polygon.front();
    for (const glm::dvec2 p : polygon) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    const auto [z0, z1] = cell_range(lo.y, hi.y, height, origin.y);
    for (int z = z0; z <= z1; ++z) {
      const double zc = origin.y + (z + 0.5) * cs;
      crossings.clear();
      for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
        const glm::dvec2 a = polygon[j], b = polygon[i];
        if ((a.y > zc) != (b.y > zc)) {
          crossings.push_back(a.x + (zc - a.y) * (b.x - a.x) / (b.y - a.y));
        }
      }
      std::sort(crossings.begin(), crossings.end());
      for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
        const int x0 =
            std::max(0, static_cast<int>(std::ceil((crossings[k] - origin.x) / cs - 0.5)));
        const int x1 = std::min(
            width - 1, static_cast<int>(std::floor((crossings[k + 1] - origin.x) / cs - 0.5)));
        for (int x = x0; x <= x1; ++x) {
          blocked[static_cast<std::size_t>(z) * width + x] = 1;
        }
      }
    }
  }

  for (int z = 0; z < height; ++z) {
    for (int x = 0; x < width; ++x) {
      const std::size_t column = static_cast<std::size_t>(z) * width + x;
      if (blocked[column] == 0) {
        continue;
      }
      const rcCompactCell& cell = chf.cells[column];
      for (unsigned int i = cell.index, end = cell.index + cell.count; i < end; ++i) {
        chf.areas[i] = RC_NULL_AREA;
      }
    }
  }
}

float FloorPlanClearance::segment_clearance(const glm::vec3& p, const glm::vec3& q) {
  const glm::dvec2 a(p.x, p.z), b(q.x, q.z);
  std::vector<int> near;
  edges_near(glm::min(a, b) - radius_, glm::max(a, b) + radius_, near);
  // Beyond the radius the exact value does not matter to the caller: report the radius.
  double d = radius_;
  for (const int e : near) {
    const Edge& edge = edges_[static_cast<std::size_t>(e)];
    d = std::min(d, segment_segment_distance(a, b, edge.a, edge.b));
  }
  return static_cast<float>(d);
}

} // namespace crowd

// Clearance in a 2D world, measured from its exact floor plan: the bounds' four sides and the
// obstacles' edges.
#pragma once

#include "host/navmesh/clearance.h"
#include "host/navmesh/input_geometry.h"

#include <vector>

namespace crowd {

/// Recast rasterises an obstacle conservatively: every cell its triangles touch becomes solid,
/// so a wall face inside a cell, or on a cell border (where the float arithmetic of
/// rasterizeTri in RecastRasterization.cpp may also take the next cell), takes up to a whole
/// cell beyond the face; Recast's ledge filter then drops the grid's outer ring, because it
/// treats a neighbour outside the grid as a drop (rcFilterLedgeSpans in RecastFilter.cpp).
/// Measured from the floor plan instead, a cell is walkable exactly when its square is at least
/// the radius from every edge and outside every obstacle, whatever the cell grid.
class FloorPlanClearance final : public Clearance {
public:
  FloorPlanClearance(const FloorPlan& plan, float radius);

  void erode(rcCompactHeightfield& chf) override;
  float segment_clearance(const glm::vec3& p, const glm::vec3& q) override;

private:
  struct Edge {
    glm::dvec2 a, b;
  };
  /// Edges whose box meets [lo, hi], each once.
  void edges_near(glm::dvec2 lo, glm::dvec2 hi, std::vector<int>& out) const;

  double radius_;
  std::vector<Edge> edges_;
  std::vector<std::vector<glm::dvec2>> polygons_; ///< Obstacles with 3 points or more.
  // A uniform grid of buckets over the plan, each listing the edges whose box meets it, for
  // segment_clearance's queries.
  glm::dvec2 bucket_origin_{0.0};
  double bucket_size_ = 1.0;
  int buckets_x_ = 1, buckets_z_ = 1;
  std::vector<std::vector<int>> buckets_;
};

} // namespace crowd

// Clearance in a mesh world, measured on Recast's compact heightfield from the cells where the
// walkable floor ends.
#pragma once

#include "host/navmesh/clearance.h"

#include <cstdint>
#include <vector>

namespace crowd {

/// A mesh world has no exact outline of what blocks agents; what Recast's rasterisation and
/// filters leave is a heightfield whose walkable spans connect to their neighbours
/// (rcBuildCompactHeightfield: a step of at most max_climb with room for the agent's height).
/// Where a span has no connection in a direction, the floor ends at that side of its cell
/// (a wall, a drop, a step too high, the grid's edge): the neighbouring cell's square is a
/// blocker. Distances are exact between squares (Euclidean, so a convex corner keeps the
/// radius too), not Recast's chamfer approximation (rcErodeWalkableArea in RecastArea.cpp,
/// whose corners come nearer than the radius).
///
/// The blocker squares may reach up to a cell past the real wall (rasterisation marks whole
/// cells), so a straight wall costs up to one cell beyond the radius, plus less than one more
/// where the radius is not a whole number of cells.
class GridClearance final : public Clearance {
public:
  /// `chf` must outlive this object; its connections are read, never changed.
  GridClearance(const rcCompactHeightfield& chf, float radius);

  void erode(rcCompactHeightfield& chf) override;
  float segment_clearance(const glm::vec3& p, const glm::vec3& q) override;

private:
  /// Smallest distance from `p` (cell units, x/z from the grid's origin) to a blocker square
  /// found within `reach` cells of the column of span `start`, or `limit` if none is nearer.
  double point_clearance(glm::dvec2 p, int start, int reach, double limit);
  /// Smallest gap between the square of span `start` and a blocker square, or `limit`.
  double square_clearance(int start, double limit);
  /// Spans reachable from `start` through connections without leaving the columns within
  /// `reach` of its own; calls visit(span, column x, column z) for each (stops when it returns
  /// false).
  template <typename Visit> void visit_window(int start, int reach, Visit&& visit);

  const rcCompactHeightfield& chf_;
  double radius_cells_;
  int reach_; ///< ceil(radius in cells): the farthest column a blocker that matters can be in.
  std::vector<int> column_of_; ///< Per span, its column (x + z * width).
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 0;
  std::vector<int> queue_;
};

} // namespace crowd

// How far the navmesh stays from what an agent's disc must not touch (walls, obstacles, drops,
// the world's bounds): the interface the build erodes the walkable cells and checks the
// simplified contours with. Two implementations: FloorPlanClearance measures from a 2D world's
// exact edges, GridClearance from the cells Recast's rasterisation left without a walkable
// neighbour (mesh worlds).
#pragma once

#include <glm/glm.hpp>

struct rcCompactHeightfield;

namespace crowd {

/// A cell counts as clear of a blocker when it is at least the radius minus this fraction of a
/// cell away: cell borders are float multiples of the cell size from the grid's origin, so a
/// wall exactly the radius from a border may come out a few ulps nearer, which would otherwise
/// cost a whole cell.
inline constexpr double kClearanceTolerance = 1e-4;

class Clearance {
public:
  virtual ~Clearance() = default;

  /// Marks RC_NULL_AREA every walkable span of `chf` whose cell, the square of side cell_size
  /// over it, comes nearer than the agent radius to a blocker (or touches one). The walkable
  /// area left is then the agent radius clear of blockers wherever a point lies in its cells,
  /// and loses less than a cell more than the radius along a straight wall (the navmesh's
  /// edges can only lie on cell borders).
  virtual void erode(rcCompactHeightfield& chf) = 0;

  /// The smallest distance from the segment p-q (world coordinates, at the floor height of the
  /// walkable surface it lies on) to a blocker, capped at the agent radius (a larger distance
  /// may come out as the radius); 0 where the segment leaves the floor.
  virtual float segment_clearance(const glm::vec3& p, const glm::vec3& q) = 0;
};

} // namespace crowd

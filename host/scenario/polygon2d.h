// Plane geometry on (x, z) for scenario obstacles: validity of a polygon when the scenario is
// read, and containment / clearance tests when agents are placed.
#pragma once

#include "host/scenario/scenario.h"

#include <cstddef>
#include <glm/glm.hpp>
#include <optional>
#include <string>

namespace crowd {

/// Twice the signed area (positive for counter-clockwise in x/z), in double so that the
/// zero-area test is not fooled by float rounding.
double twice_signed_area(const Polygon2D& polygon);

/// Why `polygon` is not a simple polygon with positive area ("has zero area", "edge 0 crosses
/// edge 2", ...), or nothing when it is one. Needs at least 3 points. O(n^2): obstacles are
/// small.
std::optional<std::string> polygon_defect(const Polygon2D& polygon);

/// True when `p` is strictly inside the polygon (crossing-number test; points on an edge may
/// go either way).
bool point_in_polygon(const Polygon2D& polygon, glm::vec2 p);

/// Squared distance from `p` to the nearest edge of the polygon (its boundary, not its area).
float squared_distance_to_boundary(const Polygon2D& polygon, glm::vec2 p);

} // namespace crowd

// Building blocks of the verification scenarios' 2D worlds: walls as thin obstacle boxes,
// with gaps for doors. The scenario format has walls only as obstacle polygons (a wall is a
// thin rectangle, shared/spec/scenario.md).
#pragma once

#include "host/scenario/scenario.h"

#include <vector>

namespace crowd {

/// The box [x0, x1] x [z0, z1] as an obstacle polygon.
Polygon2D box(float x0, float z0, float x1, float z1);

/// A door: its centre along the wall and its clear width, metres.
struct Door {
  float center = 0.0f;
  float width = 1.0f;
};

/// A wall along x from x0 to x1 filling z in [z0, z1], with the doors left open.
void wall_along_x(std::vector<Polygon2D>& out, float x0, float x1, float z0, float z1,
                  const std::vector<Door>& doors = {});
/// A wall along z from z0 to z1 filling x in [x0, x1], with the doors left open.
void wall_along_z(std::vector<Polygon2D>& out, float z0, float z1, float x0, float x1,
                  const std::vector<Door>& doors = {});

} // namespace crowd

#include "host/verify/floor_plan.h"

#include <algorithm>

namespace crowd {
namespace {

/// The pieces of [from, to] left between the doors, as (start, end) pairs.
std::vector<std::pair<float, float>> solid_pieces(float from, float to, std::vector<Door> doors) {
  std::sort(doors.begin(), doors.end(),
            [](const Door& a, const Door& b) { return a.center < b.center; });
  std::vector<std::pair<float, float>> pieces;
  float start = from;
  for (const Door& door : doors) {
    const float open_from = door.center - 0.5f * door.width;
    const float open_to = door.center + 0.5f * door.width;
    if (open_from > start)
      pieces.emplace_back(start, open_from);
    start = std::max(start, open_to);
  }
  if (to > start)
    pieces.emplace_back(start, to);
  return pieces;
}

} // namespace

Polygon2D box(float x0, float z0, float x1, float z1) {
  return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
}

void wall_along_x(std::vector<Polygon2D>& out, float x0, float x1, float z0, float z1,
                  const std::vector<Door>& doors) {
  for (const auto& [a, b] : solid_pieces(x0, x1, doors))
    out.push_back(box(a, z0, b, z1));
}

void wall_along_z(std::vector<Polygon2D>& out, float z0, float z1, float x0, float x1,
                  const std::vector<Door>& doors) {
  for (const auto& [a, b] : solid_pieces(z0, z1, doors))
    out.push_back(box(x0, a, x1, b));
}

} // namespace crowd

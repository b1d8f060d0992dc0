#include "host/verify/rimea_office_floor.h"

#include "host/verify/floor_plan.h"
#include "host/verify/rimea_common.h"

namespace crowd {
namespace {

constexpr float kRoom = 5.0f;       ///< room width along the corridor
constexpr float kWall = 0.2f;       ///< wall thickness
constexpr float kCorridorLo = 5.0f; ///< corridor z in [5, 7]
constexpr float kCorridorHi = 7.0f;
constexpr float kDepth = 12.0f; ///< building z in [0, 12]
constexpr float kOutside = 3.0f;

} // namespace

Scenario office_floor(const std::string& name, float duration) {
  Scenario s =
      rimea_scenario(name, {-kOutside, 0.0f}, {kOfficeLength + kOutside, kDepth}, duration);
  auto& walls = s.world.obstacles;
  std::vector<Door> doors;
  for (int i = 0; i < kOfficeRooms / 2; ++i)
    doors.push_back({kRoom * (static_cast<float>(i) + 0.5f), 1.0f});
  // Corridor walls with the rooms' doors.
  wall_along_x(walls, 0.0f, kOfficeLength, kCorridorLo - kWall, kCorridorLo, doors);
  wall_along_x(walls, 0.0f, kOfficeLength, kCorridorHi, kCorridorHi + kWall, doors);
  // Partitions between rooms.
  for (int i = 1; i < kOfficeRooms / 2; ++i) {
    const float x = kRoom * static_cast<float>(i);
    walls.push_back(box(x - 0.5f * kWall, 0.0f, x + 0.5f * kWall, kCorridorLo - kWall));
    walls.push_back(box(x - 0.5f * kWall, kCorridorHi + kWall, x + 0.5f * kWall, kDepth));
  }
  // The building's ends, open only where the corridor ends (the exits).
  for (const float x : {-kWall, kOfficeLength}) {
    walls.push_back(box(x, 0.0f, x + kWall, kCorridorLo));
    walls.push_back(box(x, kCorridorHi, x + kWall, kDepth));
  }
  return s;
}

std::pair<glm::vec2, glm::vec2> office_room(int room) {
  const int column = room % (kOfficeRooms / 2);
  const bool upper = room >= kOfficeRooms / 2;
  const float x0 = kRoom * static_cast<float>(column) + 0.5f * kWall + 0.3f;
  const float x1 = kRoom * static_cast<float>(column + 1) - 0.5f * kWall - 0.3f;
  const float z0 = upper ? kCorridorHi + kWall + 0.3f : 0.3f;
  const float z1 = upper ? kDepth - 0.3f : kCorridorLo - kWall - 0.3f;
  return {{x0, z0}, {x1, z1}};
}

glm::vec2 office_exit_goal(bool right) {
  return {right ? kOfficeLength + 1.5f : -1.5f, 0.5f * (kCorridorLo + kCorridorHi)};
}

std::pair<glm::vec2, glm::vec2> office_exit_line(bool right) {
  const float x = right ? kOfficeLength : 0.0f;
  return {{x, kCorridorLo}, {x, kCorridorHi}};
}

} // namespace crowd

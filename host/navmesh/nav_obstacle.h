// A dynamic obstacle as the navmesh takes it (NavMesh::add_obstacle): DetourTileCache's two
// shapes, an upright cylinder and a box turned about the vertical.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

namespace crowd {

struct NavObstacle {
  enum class Shape : std::uint8_t { Cylinder, Box };
  Shape shape = Shape::Cylinder;
  glm::vec3 position{0.0f};  ///< Its centre at its foot (the floor under it), m.
  float radius = 0.5f;       ///< Cylinder: its radius, m, > 0.
  glm::vec2 half_size{0.5f}; ///< Box: half its extent along x and z before the turn, m, > 0.
  float yaw = 0.0f;          ///< Box: the turn about the vertical, radians (x toward z).
  float height = 2.0f;       ///< Up from its foot, m, > 0.
};

} // namespace crowd

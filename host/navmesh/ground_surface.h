// The real ground under a point: the scenario's own geometry (the 2D world's floor, or the OBJ
// mesh), not the navmesh, whose polygons lie above it by up to a cell height plus the detail
// mesh's sampling error (0.2 m on a floor at 0 at the default settings; 1.6 m on plaza_mesh's
// 1.5 m platform). Film exports stand their characters on this.
#pragma once

#include "host/navmesh/input_geometry.h"

#include <glm/glm.hpp>
#include <vector>

namespace crowd {

class GroundSurface {
public:
  /// How far above a point the ground may be found: an agent's navmesh height is at or above
  /// the surface it stands on, by less than this; a floor higher still is another storey.
  static constexpr float kReachAbove = 0.5f;

  explicit GroundSurface(const InputGeometry& geometry);

  /// The ground's height under `point`: of the triangles whose ground footprint contains
  /// (x, z), the highest at or below y + kReachAbove (walls and other near-vertical faces have
  /// no footprint to speak of and are left out). `point.y` where there is none (off the
  /// geometry).
  float height_under(const glm::vec3& point) const;

private:
  struct Triangle {
    glm::vec3 a, b, c;
  };
  int cell_of(float x, float z) const;

  std::vector<Triangle> triangles_;
  glm::vec2 min_{0.0f};
  float cell_ = 1.0f;
  int columns_ = 1, rows_ = 1;
  std::vector<int> cell_start_; ///< [cells + 1] into items_
  std::vector<int> items_;      ///< triangle indices, by cell
};

} // namespace crowd

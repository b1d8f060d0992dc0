// Plain coloured geometry on the ground, ready for the `fill` and `lines` programs
// (shaders/shapes.vert, wide_lines.geom): triangles, and line segments of one width in pixels.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

struct ShapeVertex {
  glm::vec2 position{0.0f}; ///< Ground (x, z).
  glm::vec4 colour{1.0f};
};

struct ShapeLayer {
  std::vector<ShapeVertex> triangles; ///< 3 vertices per triangle.
  std::vector<ShapeVertex> lines;     ///< 2 vertices per segment.
  float line_width_pixels = 1.0f;

  void add_line(glm::vec2 a, glm::vec2 b, glm::vec4 colour) {
    lines.push_back({a, colour});
    lines.push_back({b, colour});
  }
  void add_triangle(glm::vec2 a, glm::vec2 b, glm::vec2 c, glm::vec4 colour) {
    triangles.push_back({a, colour});
    triangles.push_back({b, colour});
    triangles.push_back({c, colour});
  }
  /// A convex polygon as a fan.
  void add_convex(std::span<const glm::vec2> polygon, glm::vec4 colour) {
    for (std::size_t k = 2; k < polygon.size(); ++k)
      add_triangle(polygon[0], polygon[k - 1], polygon[k], colour);
  }
  void add_outline(std::span<const glm::vec2> polygon, glm::vec4 colour) {
    for (std::size_t k = 0; k < polygon.size(); ++k)
      add_line(polygon[k], polygon[(k + 1) % polygon.size()], colour);
  }
  void add_square(glm::vec2 centre, float half_size, glm::vec4 colour) {
    const glm::vec2 a = centre + glm::vec2(-half_size, -half_size);
    const glm::vec2 b = centre + glm::vec2(half_size, -half_size);
    const glm::vec2 c = centre + glm::vec2(half_size, half_size);
    const glm::vec2 d = centre + glm::vec2(-half_size, half_size);
    add_triangle(a, b, c, colour);
    add_triangle(a, c, d, colour);
  }
  void add_circle(glm::vec2 centre, float radius, glm::vec4 colour, int segments = 32) {
    for (int k = 0; k < segments; ++k) {
      const float a0 = 6.2831853f * static_cast<float>(k) / static_cast<float>(segments);
      const float a1 = 6.2831853f * static_cast<float>(k + 1) / static_cast<float>(segments);
      add_line(centre + radius * glm::vec2(std::cos(a0), std::sin(a0)),
               centre + radius * glm::vec2(std::cos(a1), std::sin(a1)), colour);
    }
  }
};

} // namespace crowd

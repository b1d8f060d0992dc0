// The top-down view: world x to the right, world z downwards on screen (so image rows follow z),
// a centre and a scale. Maps between the ground, pixels and OpenGL clip space; pans and zooms.
#pragma once

#include <glm/glm.hpp>

namespace crowd {

struct ViewCamera {
  glm::vec2 centre{0.0f}; ///< Ground point (x, z) at the middle of the frame.
  float pixels_per_metre = 10.0f;
  int width = 800, height = 600; ///< Frame size in pixels.

  /// Shows the ground rectangle [lo, hi] whole, with `margin` (fraction) around it.
  static ViewCamera fit(glm::vec2 lo, glm::vec2 hi, int width, int height, float margin = 0.04f);

  /// Ground (x, z) to pixel coordinates: (0, 0) is the top-left corner of the frame, pixel
  /// (i, j) covers [i, i + 1) x [j, j + 1).
  glm::vec2 to_pixel(glm::vec2 ground) const;
  glm::vec2 to_ground(glm::vec2 pixel) const;
  /// Ground (x, z, 0, 1) to clip space, for the shaders' world_to_clip.
  glm::mat4 world_to_clip() const;

  /// Moves the view by a drag of `pixels`.
  void pan(glm::vec2 pixels);
  /// Zooms by `factor`, keeping the ground point under `pixel` in place.
  void zoom_at(glm::vec2 pixel, float factor);
};

} // namespace crowd

#include "host/render/camera.h"

#include <algorithm>

namespace crowd {

ViewCamera ViewCamera::fit(glm::vec2 lo, glm::vec2 hi, int width, int height, float margin) {
  ViewCamera camera;
  camera.width = width;
  camera.height = height;
  camera.centre = (lo + hi) * 0.5f;
  const glm::vec2 size = glm::max(hi - lo, glm::vec2(1e-3f)) * (1.0f + 2.0f * margin);
  camera.pixels_per_metre =
      std::min(static_cast<float>(width) / size.x, static_cast<float>(height) / size.y);
  return camera;
}

glm::vec2 ViewCamera::to_pixel(glm::vec2 ground) const {
  return (ground - centre) * pixels_per_metre +
         glm::vec2(static_cast<float>(width), static_cast<float>(height)) * 0.5f;
}

glm::vec2 ViewCamera::to_ground(glm::vec2 pixel) const {
  return (pixel - glm::vec2(static_cast<float>(width), static_cast<float>(height)) * 0.5f) /
             pixels_per_metre +
         centre;
}

glm::mat4 ViewCamera::world_to_clip() const {
  // x_clip = (x - cx) * s * 2 / w; y_clip = -(z - cz) * s * 2 / h (z grows downwards).
  const float sx = 2.0f * pixels_per_metre / static_cast<float>(width);
  const float sy = -2.0f * pixels_per_metre / static_cast<float>(height);
  glm::mat4 m(1.0f);
  m[0][0] = sx;
  m[1][1] = sy;
  m[3][0] = -centre.x * sx;
  m[3][1] = -centre.y * sy;
  return m;
}

void ViewCamera::pan(glm::vec2 pixels) {
  centre -= pixels / pixels_per_metre;
}

void ViewCamera::zoom_at(glm::vec2 pixel, float factor) {
  const glm::vec2 anchor = to_ground(pixel);
  pixels_per_metre = std::clamp(pixels_per_metre * factor, 0.01f, 10000.0f);
  centre += anchor - to_ground(pixel);
}

} // namespace crowd

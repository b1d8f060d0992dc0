// A framebuffer object to draw frames into without a window, and reading them back.
#pragma once

#include "host/render/rgba_image.h"

#include <epoxy/gl.h>

namespace crowd {

class OffscreenFramebuffer {
public:
  OffscreenFramebuffer(int width, int height); ///< Binds it. Throws std::runtime_error.
  ~OffscreenFramebuffer();
  OffscreenFramebuffer(const OffscreenFramebuffer&) = delete;
  OffscreenFramebuffer& operator=(const OffscreenFramebuffer&) = delete;

  void bind() const;
  /// The pixels, rows top to bottom.
  RgbaImage read() const;

private:
  int width_, height_;
  GLuint framebuffer_ = 0, colour_ = 0;
};

} // namespace crowd

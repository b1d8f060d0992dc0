#include "host/render/offscreen_framebuffer.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace crowd {

OffscreenFramebuffer::OffscreenFramebuffer(int width, int height) : width_(width), height_(height) {
  GLint largest = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &largest);
  if (width < 1 || height < 1 || width > largest || height > largest)
    throw std::runtime_error("frame size " + std::to_string(width) + "x" + std::to_string(height) +
                             " is outside 1.." + std::to_string(largest));
  glGenFramebuffers(1, &framebuffer_);
  glGenRenderbuffers(1, &colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("the offscreen framebuffer is incomplete");
}

OffscreenFramebuffer::~OffscreenFramebuffer() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteRenderbuffers(1, &colour_);
  glDeleteFramebuffers(1, &framebuffer_);
}

void OffscreenFramebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
}

RgbaImage OffscreenFramebuffer::read() const {
  RgbaImage image;
  image.width = width_;
  image.height = height_;
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height_));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  // OpenGL's rows start at the bottom; images start at the top.
  image.pixels.resize(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(&image.pixels[static_cast<std::size_t>(y) * row],
                &bottom_up[static_cast<std::size_t>(height_ - 1 - y) * row], row);
  return image;
}

} // namespace crowd

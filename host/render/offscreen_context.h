// A headless OpenGL 3.3 core context with no display and no GPU: EGL on Mesa's surfaceless
// platform (llvmpipe, the software rasterizer, when there is no GPU), drawing into a
// framebuffer object. `crowd render` and the render tests use it.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace crowd {

/// No OpenGL context could be created; what() says which EGL call failed and how to fix it.
class GlContextError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class OffscreenContext {
public:
  /// Creates the context and makes it current on this thread. Throws GlContextError.
  OffscreenContext();
  ~OffscreenContext();
  OffscreenContext(const OffscreenContext&) = delete;
  OffscreenContext& operator=(const OffscreenContext&) = delete;

  /// "OpenGL 4.5 (Core Profile) Mesa 22.3.6, llvmpipe ..." for messages.
  std::string description() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

#include "host/render/offscreen_context.h"

#include <cstdio>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

namespace crowd {
namespace {

std::string egl_error(const char* call) {
  char code[16];
  std::snprintf(code, sizeof(code), "0x%04x", static_cast<unsigned>(eglGetError()));
  return std::string(call) + " failed (EGL error " + code +
         "); install Mesa's EGL and software rasterizer (libegl-mesa0, libgl1-mesa-dri)";
}

/// Mesa's surfaceless platform needs neither X nor Wayland nor a GPU
/// (EGL_MESA_platform_surfaceless). Where the client library lacks it, the default display is
/// tried.
EGLDisplay open_display() {
  if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay display =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display != EGL_NO_DISPLAY)
      return display;
  }
  return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

} // namespace

struct OffscreenContext::Impl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
};

OffscreenContext::OffscreenContext() : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.display = open_display();
  if (m.display == EGL_NO_DISPLAY)
    throw GlContextError(egl_error("eglGetPlatformDisplay"));
  EGLint major = 0, minor = 0;
  if (!eglInitialize(m.display, &major, &minor))
    throw GlContextError(egl_error("eglInitialize"));
  if (!eglBindAPI(EGL_OPENGL_API))
    throw GlContextError(egl_error("eglBindAPI(EGL_OPENGL_API)"));
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  const bool surfaceless_ok = epoxy_has_egl_extension(m.display, "EGL_KHR_surfaceless_context");
  if (!eglChooseConfig(m.display, config_attributes, &config, 1, &configs) || configs < 1) {
    // The surfaceless platform offers configs without pbuffer support: ask for any GL one.
    const EGLint any_gl[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!eglChooseConfig(m.display, any_gl, &config, 1, &configs) || configs < 1)
      throw GlContextError(egl_error("eglChooseConfig (OpenGL)"));
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  m.context = eglCreateContext(m.display, config, EGL_NO_CONTEXT, context_attributes);
  if (m.context == EGL_NO_CONTEXT)
    throw GlContextError(egl_error("eglCreateContext (OpenGL 3.3 core)"));
  if (!surfaceless_ok) {
    // We draw into framebuffer objects; a 1x1 pbuffer only makes the context current.
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    m.surface = eglCreatePbufferSurface(m.display, config, pbuffer_attributes);
    if (m.surface == EGL_NO_SURFACE)
      throw GlContextError(egl_error("eglCreatePbufferSurface"));
  }
  if (!eglMakeCurrent(m.display, m.surface, m.surface, m.context))
    throw GlContextError(egl_error("eglMakeCurrent"));
  if (epoxy_gl_version() < 33)
    throw GlContextError("OpenGL 3.3 or later is needed, the context offers " +
                         std::to_string(epoxy_gl_version() / 10) + "." +
                         std::to_string(epoxy_gl_version() % 10));
}

OffscreenContext::~OffscreenContext() {
  Impl& m = *impl_;
  if (m.display == EGL_NO_DISPLAY)
    return;
  eglMakeCurrent(m.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (m.surface != EGL_NO_SURFACE)
    eglDestroySurface(m.display, m.surface);
  if (m.context != EGL_NO_CONTEXT)
    eglDestroyContext(m.display, m.context);
  eglTerminate(m.display);
}

std::string OffscreenContext::description() const {
  const auto text = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s ? s : "?");
  };
  return "OpenGL " + text(GL_VERSION) + ", " + text(GL_RENDERER);
}

} // namespace crowd

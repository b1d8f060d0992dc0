#include "host/viewer/viewer_window.h"

#include "host/render/agent_picking.h"
#include "host/render/crowd_renderer.h"
#include "host/render/live_source.h"
#include "host/render/rgba_image.h"
#include "host/render/trail_history.h"
#include "host/sim/crowd_solver.h"

#if defined(CROWD_HAS_CUDA)
#include "cuda/interop/gl_position_interop.h"
#endif

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

std::string glfw_error() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}

struct GlfwSession {
  GlfwSession() {
    if (!glfwInit())
      throw std::runtime_error("cannot open a window (" + glfw_error() +
                               "); without a display use 'crowd render'");
  }
  ~GlfwSession() { glfwTerminate(); }
};

/// Everything the callbacks change.
struct ViewerState {
  FrameSource* source = nullptr;
  ViewOptions view;
  ViewCamera camera;
  bool paused = false;
  bool step_once = false;
  double speed = 1.0; ///< Multiple of the base step rate.
  bool dragging = false, dragged = false;
  glm::vec2 drag_from{0.0f};
  bool quit = false;

  void fit() {
    const int w = camera.width, h = camera.height;
    camera = ViewCamera::fit(source->scene().bounds_min, source->scene().bounds_max, w, h);
  }
};

ViewerState& state_of(GLFWwindow* window) {
  return *static_cast<ViewerState*>(glfwGetWindowUserPointer(window));
}

/// Cursor position in framebuffer pixels (they differ from window units on HiDPI screens).
glm::vec2 cursor_pixels(GLFWwindow* window) {
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window, &x, &y);
  int ww = 1, wh = 1, fw = 1, fh = 1;
  glfwGetWindowSize(window, &ww, &wh);
  glfwGetFramebufferSize(window, &fw, &fh);
  return {static_cast<float>(x) * static_cast<float>(fw) / static_cast<float>(std::max(ww, 1)),
          static_cast<float>(y) * static_cast<float>(fh) / static_cast<float>(std::max(wh, 1))};
}

void on_key(GLFWwindow* window, int key, int, int action, int) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT)
    return;
  ViewerState& s = state_of(window);
  ViewOptions& v = s.view;
  switch (key) {
  case GLFW_KEY_ESCAPE:
  case GLFW_KEY_Q:
    s.quit = true;
    break;
  case GLFW_KEY_SPACE:
    s.paused = !s.paused;
    break;
  case GLFW_KEY_N:
  case GLFW_KEY_RIGHT:
    s.paused = true;
    s.step_once = true;
    break;
  case GLFW_KEY_EQUAL:
  case GLFW_KEY_KP_ADD:
    s.speed = std::min(s.speed * 2.0, 64.0);
    break;
  case GLFW_KEY_MINUS:
  case GLFW_KEY_KP_SUBTRACT:
    s.speed = std::max(s.speed * 0.5, 1.0 / 16.0);
    break;
  case GLFW_KEY_C:
    // speed, state, type, speed, ...
    v.colouring = static_cast<AgentColouring>((static_cast<int>(v.colouring) + 1) % 3);
    break;
  case GLFW_KEY_1:
    v.navmesh = !v.navmesh;
    break;
  case GLFW_KEY_2:
    v.trails = !v.trails;
    break;
  case GLFW_KEY_3:
    v.samples = !v.samples;
    break;
  case GLFW_KEY_4:
    v.neighbours = !v.neighbours;
    break;
  case GLFW_KEY_5:
    v.walls = !v.walls;
    break;
  case GLFW_KEY_6:
    v.corridor = !v.corridor;
    break;
  case GLFW_KEY_H:
    v.hud = !v.hud;
    break;
  case GLFW_KEY_F:
    s.fit();
    break;
  default:
    break;
  }
}

void on_mouse_button(GLFWwindow* window, int button, int action, int) {
  ViewerState& s = state_of(window);
  if (button != GLFW_MOUSE_BUTTON_LEFT && button != GLFW_MOUSE_BUTTON_RIGHT)
    return;
  if (action == GLFW_PRESS) {
    s.dragging = true;
    s.dragged = false;
    s.drag_from = cursor_pixels(window);
    return;
  }
  s.dragging = false;
  if (button == GLFW_MOUSE_BUTTON_LEFT && !s.dragged)
    s.view.selected =
        pick_agent(s.source->scene(), s.source->frame(), s.camera.to_ground(cursor_pixels(window)));
}

void on_cursor(GLFWwindow* window, double, double) {
  ViewerState& s = state_of(window);
  if (!s.dragging)
    return;
  const glm::vec2 now = cursor_pixels(window);
  const glm::vec2 moved = now - s.drag_from;
  if (s.dragged || std::fabs(moved.x) + std::fabs(moved.y) > 3.0f) {
    s.dragged = true;
    s.camera.pan(moved);
    s.drag_from = now;
  }
}

void on_scroll(GLFWwindow* window, double, double dy) {
  ViewerState& s = state_of(window);
  s.camera.zoom_at(cursor_pixels(window), static_cast<float>(std::pow(1.15, dy)));
}

void on_framebuffer_size(GLFWwindow* window, int width, int height) {
  ViewerState& s = state_of(window);
  s.camera.width = std::max(width, 1);
  s.camera.height = std::max(height, 1);
}

} // namespace

void run_viewer(FrameSource& source, const ViewerSettings& settings) {
  GlfwSession glfw;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  const std::string title = "crowd view - " + source.scene().name;
  GLFWwindow* window =
      glfwCreateWindow(settings.width, settings.height, title.c_str(), nullptr, nullptr);
  if (window == nullptr)
    throw std::runtime_error("cannot open an OpenGL 3.3 window (" + glfw_error() + ")");
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);

  ViewerState state;
  state.source = &source;
  state.view = settings.view;
  state.paused = settings.start_paused;
  glfwGetFramebufferSize(window, &state.camera.width, &state.camera.height);
  state.fit();
  glfwSetWindowUserPointer(window, &state);
  glfwSetKeyCallback(window, on_key);
  glfwSetMouseButtonCallback(window, on_mouse_button);
  glfwSetCursorPosCallback(window, on_cursor);
  glfwSetScrollCallback(window, on_scroll);
  glfwSetFramebufferSizeCallback(window, on_framebuffer_size);

  {
    CrowdRenderer renderer(source.scene());
#if defined(CROWD_HAS_CUDA)
    // Live on the CUDA backend: positions go from the executor to the vertex buffer on the
    // device. Where CUDA cannot share this context's buffer, the host upload is used instead.
    std::unique_ptr<GlPositionInterop> interop;
    const void* device_positions = nullptr;
    if (auto* live = dynamic_cast<LiveSource*>(&source))
      if (const CrowdSolver* solver = live->simulation().crowd_solver();
          solver != nullptr && !solver->rows_move()) // the device's rows are the ids
        device_positions = solver->executor().device_positions();
    if (device_positions != nullptr) {
      try {
        interop = std::make_unique<GlPositionInterop>(renderer.position_buffer());
        renderer.set_positions_written_externally(true);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "note: %s; drawing from host positions\n", e.what());
      }
    }
#endif
    TrailHistory trails(state.view.trail_length);
    trails.push(source.frame());
    // Real time at x1: a film CSV's frames at its frame rate, steps at 1 / dt.
    const double base_rate = settings.steps_per_second > 0.0 ? settings.steps_per_second
                             : source.film_fps() > 0.0
                                 ? source.film_fps()
                                 : 1.0 / std::max(static_cast<double>(source.scene().dt), 1e-3);
    using Clock = std::chrono::steady_clock;
    const Clock::time_point opened = Clock::now();
    Clock::time_point last = opened;
    double owed_steps = 0.0;
    while (!glfwWindowShouldClose(window) && !state.quit) {
      glfwPollEvents();
      const Clock::time_point now = Clock::now();
      const double elapsed = std::chrono::duration<double>(now - last).count();
      last = now;
      if (settings.close_after_seconds > 0.0 &&
          std::chrono::duration<double>(now - opened).count() > settings.close_after_seconds)
        state.quit = true;
      int steps = 0;
      if (state.step_once) {
        steps = 1;
        state.step_once = false;
      } else if (!state.paused) {
        // At most 8 steps per drawn frame, so a slow step rate does not snowball.
        owed_steps = std::min(owed_steps + elapsed * base_rate * state.speed, 8.0);
        steps = static_cast<int>(owed_steps);
        owed_steps -= steps;
      }
      for (int k = 0; k < steps && !source.at_end(); ++k) {
        source.advance();
        trails.push(source.frame());
      }
#if defined(CROWD_HAS_CUDA)
      if (interop)
        interop->copy_from_device(device_positions,
                                  source.frame().positions.size() * sizeof(glm::vec3));
#endif
      ShapeLayer trail_layer;
      trail_layer.line_width_pixels = 1.5f;
      if (state.view.trails)
        trails.draw(trail_layer);
      char status[160];
      std::snprintf(status, sizeof(status),
                    "%s  x%g  [space] pause [n] step [+/-] speed "
                    "[c] colour [1-6] layers [f] fit",
                    source.at_end() ? "end" : (state.paused ? "paused" : "running"), state.speed);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      draw_source_frame(renderer, source, trail_layer, state.camera, state.view, status);
      if (!settings.screenshot.empty() && (state.quit || glfwWindowShouldClose(window))) {
        RgbaImage image;
        image.width = state.camera.width;
        image.height = state.camera.height;
        std::vector<std::uint8_t> rows(static_cast<std::size_t>(image.width) *
                                       static_cast<std::size_t>(image.height) * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
        const std::size_t row = static_cast<std::size_t>(image.width) * 4;
        image.pixels.resize(rows.size());
        for (int y = 0; y < image.height; ++y)
          std::memcpy(&image.pixels[static_cast<std::size_t>(y) * row],
                      &rows[static_cast<std::size_t>(image.height - 1 - y) * row], row);
        write_png(image, settings.screenshot);
      }
      glfwSwapBuffers(window);
    }
  }
  glfwDestroyWindow(window);
}

} // namespace crowd

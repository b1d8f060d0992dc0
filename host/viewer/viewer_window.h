// The interactive viewer: a GLFW window (OpenGL 3.3 core) showing a frame source through the
// shared CrowdRenderer. Mouse: click selects an agent, drag pans, wheel zooms. Keys: space
// pause, N / right arrow step, + / - speed, C colour by speed/state, 1-6 navmesh, trails,
// samples, neighbours, walls, corridor, H text, F fit, Esc / Q quit.
#pragma once

#include "host/render/frame_source.h"
#include "host/render/view_options.h"

namespace crowd {

struct ViewerSettings {
  int width = 1280, height = 800;
  ViewOptions view;
  double steps_per_second = 0.0; ///< 0: real time (1 / dt).
  bool start_paused = false;
  /// Close by itself after this many seconds (0 = never): for smoke tests under Xvfb.
  double close_after_seconds = 0.0;
  /// Write the last frame shown to this PNG when the window closes ("" = none).
  std::string screenshot;
};

/// Opens the window and runs until it is closed. Throws std::runtime_error when no window can
/// be opened (no display: use `crowd render` instead).
void run_viewer(FrameSource& source, const ViewerSettings& settings);

} // namespace crowd

// `crowd render`: draws a scenario's run (live, or replayed from a trajectory or film CSV)
// without a display or GPU, into PNG frames and/or a video: per simulation step, or per film
// frame (--fps, or a film CSV) numbered by film frame.
#pragma once

#include "cuda/core/solver_options.h"
#include "host/render/view_options.h"

#include <optional>
#include <string>
#include <vector>

namespace crowd {

/// Frame rate of a video of per-step frames (and of a film CSV of a single frame).
inline constexpr double kDefaultVideoFps = 25.0;

struct RenderOptions {
  std::string scenario;
  std::string trajectory;       ///< Replay this per-step or film CSV ("" = simulate live).
  std::string backend = "auto"; ///< Live mode.
  std::string avoidance_model;  ///< Live mode: every agent's avoidance model ("" = its own).
  std::optional<int> steps;     ///< Live mode: overrides the scenario's steps.
  int threads = 0;              ///< Live mode, cpu backend.
  std::string frames;           ///< PNG pattern, e.g. out/%05d.png ("" = none).
  std::string video;            ///< Video file, e.g. out.mp4 ("" = none).
  int every = 1;                ///< Draw every K-th frame of the source.
  int from = 0;                 ///< Draw no frame of an earlier step (film frame number).
  std::vector<float> region;    ///< Ground rectangle x0, z0, x1, z1 to show (empty = all).
  /// Film frames at this rate: live, the run resampled as `crowd run --fps` does; a film CSV
  /// must have this rate. Also the video's rate. Unset: per-step frames (a film CSV's own rate).
  std::optional<double> fps;
  /// Live film frames, as crowd run's options of these names: the number of the frame at the
  /// end of the preroll (unset: kFilmStartFrame), the seconds simulated before it, the frames
  /// drawn before it and after the shot's last frame (the run is longer by both).
  std::optional<int> start_frame;
  std::optional<double> preroll;
  std::optional<int> handles;
  int width = 1280, height = 720;
  std::string colour = "speed"; ///< speed, state or type.
  std::string overlays = "navmesh,trails,samples,neighbours,walls,corridor,hud";
  int select = -1;    ///< Agent whose debug overlays are drawn.
  bool quiet = false; ///< No progress bar or summary.
};

int render_command(const RenderOptions& options);

} // namespace crowd

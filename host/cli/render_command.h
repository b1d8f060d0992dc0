// `crowd render`: draws a scenario's run (live, or replayed from a trajectory CSV) without a
// display or GPU, into PNG frames and/or a video.
#pragma once

#include "host/render/view_options.h"
#include "host/sim/solver_options.h"

#include <optional>
#include <string>
#include <vector>

namespace crowd {

struct RenderOptions {
  std::string scenario;
  std::string trajectory;       ///< Replay this CSV ("" = simulate live).
  std::string backend = "auto"; ///< Live mode.
  std::optional<int> steps;     ///< Live mode: overrides the scenario's steps.
  int threads = 0;              ///< Live mode, cpu backend.
  std::string frames;           ///< PNG pattern, e.g. out/%05d.png ("" = none).
  std::string video;            ///< Video file, e.g. out.mp4 ("" = none).
  int every = 1;                ///< Draw every K-th frame of the source.
  int from = 0;                 ///< Draw no frame of an earlier step.
  std::vector<float> region;    ///< Ground rectangle x0, z0, x1, z1 to show (empty = all).
  double fps = 25.0;
  int width = 1280, height = 720;
  std::string colour = "speed"; ///< speed or state.
  std::string overlays = "navmesh,trails,samples,neighbours,walls,corridor,hud";
  int select = -1;    ///< Agent whose debug overlays are drawn.
  bool quiet = false; ///< No progress bar or summary.
};

int render_command(const RenderOptions& options);

} // namespace crowd

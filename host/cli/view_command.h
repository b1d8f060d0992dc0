// `crowd view`: the interactive viewer, live (simulating as it draws) or replaying a
// trajectory CSV.
#pragma once

#include "host/viewer/viewer_window.h"

#include <optional>
#include <string>

namespace crowd {

struct ViewCommandOptions {
  std::string scenario;
  std::string trajectory;       ///< Replay this CSV ("" = live).
  std::string backend = "auto"; ///< Live mode.
  std::string avoidance_model;  ///< Live mode: every agent's avoidance model ("" = its own).
  std::optional<int> steps;
  int threads = 0;
  std::string colour = "speed";
  std::string overlays = "navmesh,trails,samples,neighbours,walls,corridor,hud";
  int select = -1;
  ViewerSettings window;
};

int view_command(ViewCommandOptions options);

} // namespace crowd

// The frame source the command line asks for: a replay when a trajectory file is given (of
// film frames when its header is the film CSV's), a live simulation otherwise (resampled to
// film frames when film options are given).
#pragma once

#include "host/render/film_sources.h"
#include "host/render/frame_source.h"
#include "host/sim/simulation.h"

#include <filesystem>
#include <memory>
#include <optional>

namespace crowd {

/// Throws ScenarioError, NavmeshError, TrajectoryError or std::runtime_error. `film` applies
/// to a live run only.
std::unique_ptr<FrameSource> open_frame_source(const std::filesystem::path& scenario_file,
                                               const std::filesystem::path& trajectory_file,
                                               const SimulationOptions& options,
                                               std::optional<int> steps,
                                               const std::optional<LiveFilmOptions>& film = {});

} // namespace crowd

// The frame source the command line asks for: a replay when a trajectory file is given, a
// live simulation otherwise.
#pragma once

#include "host/render/frame_source.h"
#include "host/sim/simulation.h"

#include <filesystem>
#include <memory>
#include <optional>

namespace crowd {

/// Throws ScenarioError, NavmeshError, TrajectoryError or std::runtime_error.
std::unique_ptr<FrameSource> open_frame_source(const std::filesystem::path& scenario_file,
                                               const std::filesystem::path& trajectory_file,
                                               const SimulationOptions& options,
                                               std::optional<int> steps);

} // namespace crowd

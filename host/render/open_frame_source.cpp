#include "host/render/open_frame_source.h"

#include "host/render/live_source.h"
#include "host/render/replay_source.h"

namespace crowd {

std::unique_ptr<FrameSource> open_frame_source(const std::filesystem::path& scenario_file,
                                               const std::filesystem::path& trajectory_file,
                                               const SimulationOptions& options,
                                               std::optional<int> steps) {
  Scenario scenario = load_scenario(scenario_file);
  if (!trajectory_file.empty())
    return std::make_unique<ReplaySource>(scenario, trajectory_file);
  return std::make_unique<LiveSource>(std::move(scenario), options, steps);
}

} // namespace crowd

// Frames of a simulation run as they are drawn (any backend).
#pragma once

#include "host/render/frame_source.h"
#include "host/sim/simulation.h"

#include <algorithm>

namespace crowd {

class LiveSource final : public FrameSource {
public:
  /// Runs the scenario for `steps` steps (the scenario's own count when not given).
  LiveSource(Scenario scenario, const SimulationOptions& options, std::optional<int> steps = {});

  const SceneData& scene() const override { return scene_; }
  const SceneFrame& frame() const override { return frame_; }
  int last_step() const override { return last_step_; }
  int remaining_frames() const override { return std::max(0, last_step_ - frame_.step); }
  void advance() override;
  std::optional<AgentDebugView> inspect(int agent) const override;
  std::string debug_unavailable() const override;
  std::string description() const override;

  Simulation& simulation() { return simulation_; }

private:
  void capture();

  Simulation simulation_;
  SceneData scene_;
  SceneFrame frame_;
  int last_step_ = 0;
};

} // namespace crowd

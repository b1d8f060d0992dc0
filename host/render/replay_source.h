// Frames read from a trajectory CSV (`crowd run --out`), checked against the scenario.
#pragma once

#include "host/output/trajectory_reader.h"
#include "host/render/frame_source.h"

#include <filesystem>

namespace crowd {

class ReplaySource final : public FrameSource {
public:
  /// Builds the scenario's navmesh and agents, reads and checks the trajectory. Throws
  /// ScenarioError, NavmeshError or TrajectoryError.
  ReplaySource(const Scenario& scenario, const std::filesystem::path& trajectory_file);

  const SceneData& scene() const override { return scene_; }
  const SceneFrame& frame() const override { return frame_; }
  int last_step() const override { return trajectory_.frames.back().step; }
  int remaining_frames() const override {
    return static_cast<int>(trajectory_.frames.size() - 1 - index_);
  }
  void advance() override;
  std::optional<AgentDebugView> inspect(int) const override { return std::nullopt; }
  std::string debug_unavailable() const override;
  std::string description() const override;

private:
  void show(std::size_t index);

  std::filesystem::path file_;
  SceneData scene_;
  Trajectory trajectory_;
  std::size_t index_ = 0;
  SceneFrame frame_;
};

} // namespace crowd

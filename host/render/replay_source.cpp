#include "host/render/replay_source.h"

namespace crowd {
namespace {

SceneData replay_scene(const Scenario& scenario) {
  const NavMesh navmesh = NavMesh::build(scenario);
  return make_scene(scenario, navmesh, populate(scenario, navmesh));
}

} // namespace

ReplaySource::ReplaySource(const Scenario& scenario, const std::filesystem::path& trajectory_file)
    : file_(trajectory_file), scene_(replay_scene(scenario)),
      trajectory_(read_trajectory(trajectory_file, static_cast<int>(scene_.setups.size()))) {
  check_trajectory_matches(trajectory_, trajectory_file, scenario, scene_.setups);
  show(0);
}

void ReplaySource::advance() {
  if (index_ + 1 < trajectory_.frames.size())
    show(index_ + 1);
}

void ReplaySource::show(std::size_t index) {
  index_ = index;
  const TrajectoryFrame& f = trajectory_.frames[index];
  frame_.step = f.step;
  frame_.time = f.time;
  frame_.positions = f.positions;
  frame_.velocities = f.velocities;
  frame_.present = f.present;
  frame_.ms_per_step.reset();
}

std::string ReplaySource::debug_unavailable() const {
  return "no debug overlays in a replay (a trajectory has no solver state)";
}

std::string ReplaySource::description() const {
  return "replay of " + file_.filename().string();
}

} // namespace crowd

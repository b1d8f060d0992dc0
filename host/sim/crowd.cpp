#include "host/sim/crowd.h"

#include "cuda/core/executor.h"
#include "cuda/kernels/fault_guard.h"
#include "host/scenario/agent_params_check.h"
#include "host/sim/crowd_solver.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace crowd {
namespace {

std::string text(const glm::vec3& v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

NavMesh adopt_or_refuse(const dtNavMesh& navmesh) {
  try {
    return NavMesh::adopt(navmesh);
  } catch (const NavmeshError& e) {
    throw ApiError(std::string("Crowd: ") + e.what());
  }
}

std::unique_ptr<Executor> make_executor(const CrowdOptions& options) {
  CrowdOptions::Executor kind = options.executor;
#if defined(CROWD_HAS_CUDA)
  if (kind == CrowdOptions::Executor::Auto)
    kind = cuda_device_count() > 0 ? CrowdOptions::Executor::Cuda : CrowdOptions::Executor::Cpu;
  if (kind == CrowdOptions::Executor::Cuda) {
    if (cuda_device_count() == 0)
      throw ApiError("Crowd: the CUDA executor was asked for, but no CUDA device is present; "
                     "use CrowdOptions::Executor::Cpu or Auto");
    return make_cuda_executor();
  }
#else
  if (kind == CrowdOptions::Executor::Cuda)
    throw ApiError("Crowd: this build has no CUDA executor (nvcc was not found when it was "
                   "configured); use CrowdOptions::Executor::Cpu");
#endif
  return make_cpu_executor(options.solver.threads);
}

} // namespace

struct Crowd::Impl {
  Impl(const dtNavMesh& detour, const CrowdOptions& options)
      : navmesh(adopt_or_refuse(detour)), solver(navmesh, options.solver, make_executor(options)) {}

  NavMesh navmesh; // before solver, which keeps a reference to it
  CrowdSolver solver;
  std::vector<AgentParams> params;
  std::vector<glm::vec3> targets;
  std::vector<std::uint8_t> removed;

  void check_id(const char* call, int id) const {
    if (id < 0 || id >= static_cast<int>(params.size()))
      throw ApiError(std::string(call) + ": unknown agent id " + std::to_string(id) +
                     " (ids are 0.." + std::to_string(static_cast<int>(params.size()) - 1) + ")");
  }
  void check_active(const char* call, int id) const {
    check_id(call, id);
    if (removed[static_cast<std::size_t>(id)])
      throw ApiError(std::string(call) + ": agent " + std::to_string(id) + " was removed");
  }
};

Crowd::Crowd(const dtNavMesh& navmesh, const CrowdOptions& options)
    : impl_(std::make_unique<Impl>(navmesh, options)) {}
Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

glm::vec3 Crowd::query_extents(const AgentParams& params) const {
  const glm::vec3 detour_crowd(2.0f * params.radius, 1.5f * params.radius, 2.0f * params.radius);
  return glm::max(detour_crowd, impl_->navmesh.placement_extents());
}

int Crowd::add_agent(const glm::vec3& position, const AgentParams& params) {
  if (!is_finite(position))
    throw ApiError("add_agent: position must be finite");
  if (const auto problem = agent_params_problem(params))
    throw ApiError("add_agent: " + *problem);
  const auto placed = impl_->navmesh.nearest_point(position, query_extents(params));
  if (!placed)
    throw ApiError("add_agent: no navmesh near " + text(position));
  AgentSetup setup;
  setup.position = *placed;
  setup.goal = *placed;
  setup.params = params;
  setup.json_path = "api";
  const int id = impl_->solver.add_agent(setup);
  // Standing without a target, as dtCrowd::addAgent leaves an agent.
  impl_->solver.stop_agent(id);
  impl_->params.push_back(params);
  impl_->targets.push_back(*placed);
  impl_->removed.push_back(0);
  return id;
}

void Crowd::remove_agent(int id) {
  impl_->check_active("remove_agent", id);
  impl_->solver.remove_agent(id);
  impl_->removed[static_cast<std::size_t>(id)] = 1;
}

void Crowd::request_move_target(int id, const glm::vec3& target) {
  impl_->check_active("request_move_target", id);
  if (!is_finite(target))
    throw ApiError("request_move_target: target must be finite");
  const auto placed = impl_->navmesh.nearest_point(
      target, query_extents(impl_->params[static_cast<std::size_t>(id)]));
  if (!placed)
    throw ApiError("request_move_target: no navmesh near " + text(target));
  impl_->targets[static_cast<std::size_t>(id)] = *placed;
  impl_->solver.set_goal(id, *placed);
}

void Crowd::reset_move_target(int id) {
  impl_->check_active("reset_move_target", id);
  impl_->solver.stop_agent(id);
}

void Crowd::update(float dt) {
  if (!(dt > 0.0f && dt <= 1.0f))
    throw ApiError("update: dt must be in (0, 1] seconds, got " + std::to_string(dt));
  impl_->solver.step(dt);
}

int Crowd::agent_count() const {
  return static_cast<int>(impl_->params.size());
}

bool Crowd::is_active(int id) const {
  return id >= 0 && id < agent_count() && !impl_->removed[static_cast<std::size_t>(id)];
}

glm::vec3 Crowd::position(int id) const {
  impl_->check_id("position", id);
  return impl_->solver.positions()[static_cast<std::size_t>(id)];
}

glm::vec2 Crowd::velocity(int id) const {
  impl_->check_id("velocity", id);
  return impl_->solver.velocities()[static_cast<std::size_t>(id)];
}

glm::vec3 Crowd::target(int id) const {
  impl_->check_id("target", id);
  return impl_->targets[static_cast<std::size_t>(id)];
}

CrowdTargetState Crowd::target_state(int id) const {
  impl_->check_id("target_state", id);
  if (impl_->removed[static_cast<std::size_t>(id)])
    return CrowdTargetState::None;
  switch (impl_->solver.navigator().target_state(id)) {
  case TargetState::None:
    return CrowdTargetState::None;
  case TargetState::WaitingForPath:
    return CrowdTargetState::Requesting;
  case TargetState::Valid:
    return CrowdTargetState::Valid;
  case TargetState::Failed:
    return CrowdTargetState::Failed;
  }
  return CrowdTargetState::None;
}

std::string Crowd::executor_name() const {
  return impl_->solver.name();
}

const NavMesh& Crowd::navmesh() const {
  return impl_->navmesh;
}

} // namespace crowd

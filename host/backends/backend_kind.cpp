#include "host/backends/backend_kind.h"

#include "cuda/core/executor.h"
#include "host/backends/detour_backend.h"
#include "host/sim/crowd_solver.h"

#include <stdexcept>

namespace crowd {

BackendKind parse_backend_kind(const std::string& name) {
  if (name == "auto")
    return BackendKind::Auto;
  if (name == "cpu")
    return BackendKind::Cpu;
  if (name == "cuda")
    return BackendKind::Cuda;
  if (name == "detour")
    return BackendKind::Detour;
  throw std::invalid_argument("unknown backend '" + name + "' (use auto, cpu, cuda or detour)");
}

bool cuda_device_available() {
#if defined(CROWD_HAS_CUDA)
  return cuda_device_count() > 0;
#else
  return false;
#endif
}

std::unique_ptr<CrowdBackend> make_backend(BackendKind kind, const NavMesh& navmesh,
                                           const SolverOptions& options, int detour_capacity,
                                           float detour_max_radius,
                                           [[maybe_unused]] int cuda_device) {
  if (kind == BackendKind::Auto)
    kind = cuda_device_available() ? BackendKind::Cuda : BackendKind::Cpu;
  switch (kind) {
  case BackendKind::Cpu:
    return std::make_unique<CrowdSolver>(navmesh, options, make_cpu_executor(options.threads));
  case BackendKind::Cuda:
#if defined(CROWD_HAS_CUDA)
    return std::make_unique<CrowdSolver>(navmesh, options, make_cuda_executor(cuda_device));
#else
    throw std::runtime_error("backend 'cuda' is not available: this build has no CUDA backend "
                             "(nvcc was not found when it was configured); use --backend cpu");
#endif
  case BackendKind::Detour:
    return std::make_unique<DetourCrowdBackend>(navmesh, detour_capacity, detour_max_radius);
  case BackendKind::Auto:
    break;
  }
  throw std::logic_error("unreachable backend kind");
}

} // namespace crowd

// Which engine runs a crowd: our solver on the CPU or CUDA executor, or the unmodified
// DetourCrowd as the reference. One choice for the Crowd API, the Simulation and the CLI's
// --backend.
#pragma once

#include "cuda/core/solver_options.h"
#include "host/backends/backend.h"

#include <memory>
#include <string>

namespace crowd {

class NavMesh;

enum class BackendKind {
  Auto,   ///< cuda where this build has it and a device is present, else cpu.
  Cpu,    ///< Our solver, its kernels on the CPU executor over SolverOptions::threads threads.
  Cuda,   ///< Our solver, its kernels on the CUDA executor.
  Detour, ///< DetourCrowd itself (host/backends/detour_backend.h), the reference.
};

/// Parses "auto", "cpu", "cuda", "detour"; throws std::invalid_argument otherwise.
BackendKind parse_backend_kind(const std::string& name);
/// True when this build has the CUDA backend and a CUDA device is present.
bool cuda_device_available();

/// The backend of `kind` on `navmesh` (which must outlive it). DetourCrowd cannot grow after
/// dtCrowd::init: `detour_capacity` agents at once, of radius at most `detour_max_radius` (m),
/// for the detour backend only. The cuda backend runs on device `cuda_device` (make_cuda_executor;
/// < 0: the current device). Throws std::runtime_error for cuda in a build without it or on a
/// machine without a device, or for a capacity DetourCrowd cannot hold; std::invalid_argument
/// for solver options out of range.
std::unique_ptr<CrowdBackend> make_backend(BackendKind kind, const NavMesh& navmesh,
                                           const SolverOptions& options, int detour_capacity,
                                           float detour_max_radius, int cuda_device = -1);

} // namespace crowd

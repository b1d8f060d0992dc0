// Runs the kernel stages of one step (3 grid, 4 proximity, 5 steering, 6 avoidance,
// 7 integrate, 8 collisions) on the host's AgentArrays: in place on the CPU, or on a GPU
// with the inputs uploaded and positions and velocities downloaded.
#pragma once

#include "cuda/kernels/collision.h"
#include "host/sim/agent_arrays.h"
#include "host/sim/stage_timer.h"
#include "host/sim/wall_grid_builder.h"

#include <cstddef>
#include <memory>
#include <string>

namespace crowd {

struct KernelStepParams {
  float dt = 0.1f;
  int collision_iterations = 4;
  CollisionParams collision;
  GridSpec agent_grid; ///< Grid for the neighbour search (cells >= the largest query range).
};

class Executor {
public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  /// The wall grid, kept for the whole run (device memory for the CUDA executor).
  virtual void set_walls(const WallGridData& walls) = 0;
  /// One step of the kernel stages; adds each stage's time to `times`.
  virtual void step(AgentArrays& agents, const KernelStepParams& params, StageTimes& times) = 0;
  virtual std::size_t host_memory_bytes() const = 0;
  virtual std::size_t device_memory_bytes() const { return 0; }
  /// Device address of the positions (one glm::vec3 per agent) as the last step's kernels left
  /// them, for CUDA-GL interop in the viewer; null where there is no device.
  virtual const void* device_positions() const { return nullptr; }
};

/// The CPU executor, spreading agents over `threads` workers (0 = all cores).
std::unique_ptr<Executor> make_cpu_executor(int threads);

#if defined(CROWD_HAS_CUDA)
/// The CUDA executor on the current device. Throws std::runtime_error when none is present.
std::unique_ptr<Executor> make_cuda_executor();
/// Number of CUDA devices present (0 when the runtime finds none).
int cuda_device_count();
#endif

} // namespace crowd

// Whether the CUDA tests have a device, and whether it is GPGPU-Sim (the CI lane .ci/gpu-sim,
// which runs the kernels' PTX on the CPU: results are real, times are not, and it is about a
// hundred thousand times slower than a GPU, so tests choose smaller scenes there).
#pragma once

#if defined(CROWD_HAS_CUDA)

#include "cuda/core/executor.h"

#include <string>

namespace crowd::test {

inline constexpr const char* kNoCudaDevice =
    "no CUDA device: the CUDA executor is compiled but cannot run here (bash .ci/gpu-sim runs "
    "these tests under GPGPU-Sim)";

inline bool gpu_is_simulated() {
  return cuda_device_name().rfind("GPGPU-Sim", 0) == 0;
}

/// `on_gpu` on a real device, `on_simulator` under GPGPU-Sim.
inline int size_for_device(int on_gpu, int on_simulator) {
  return gpu_is_simulated() ? on_simulator : on_gpu;
}

} // namespace crowd::test

#endif

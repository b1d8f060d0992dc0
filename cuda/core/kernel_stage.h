// The stages of the kernel part of a step, in the order of dtCrowd::update, and their names in
// StageTimes and the metrics' stage_ms. Executor::step (cuda/core/executor.cpp) runs them in
// this order; the CPU executor has nothing to upload or download and reports neither.
#pragma once

#include <array>
#include <cstddef>

namespace crowd {

enum class KernelStage : int {
  Upload,     ///< The host's per-step inputs reach the executor's memory.
  Grid,       ///< 3: the agent grid (cell keys, sort, cell ranges).
  Proximity,  ///< 4: neighbours and wall segments of every agent.
  Steering,   ///< 5: preferred velocity plus separation -> desired velocity.
  Avoidance,  ///< 6: velocity sampling -> new velocity.
  Integrate,  ///< 7: acceleration limit and move.
  Collisions, ///< 8: Jacobi passes of collision resolution.
  Download,   ///< What the host reads back reaches it.
};

inline constexpr std::size_t kKernelStageCount = 8;

inline constexpr std::array<const char*, kKernelStageCount> kKernelStageNames{
    "upload", "grid", "proximity", "steering", "avoidance", "integrate", "collisions", "download"};

constexpr const char* stage_name(KernelStage stage) {
  return kKernelStageNames[static_cast<std::size_t>(stage)];
}

} // namespace crowd

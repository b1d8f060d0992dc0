// The trajectory CSV of shared/spec/outputs.md: `step,time,agent,x,y,z,vx,vz`.
#pragma once

#include "host/output/metrics.h"

#include <cstdio>
#include <filesystem>
#include <glm/glm.hpp>
#include <span>

namespace crowd {

/// Writes frames to a temporary file beside `path` and renames it into place on finish(), so
/// a failed run never leaves a half-written file under the requested name. Positions and
/// velocities are written in the shortest form that reads back to the same float; time is
/// step x dt written as the shortest decimal (at most 9 places) within float precision, so
/// step 700 at dt 0.1 reads "70". Identical runs give identical bytes.
class TrajectoryWriter {
public:
  explicit TrajectoryWriter(std::filesystem::path path); ///< Throws std::runtime_error.
  ~TrajectoryWriter(); ///< Without finish(): removes the temporary file.
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  /// One row per agent that is present (is_present: not Removed, not yet to enter).
  void write_frame(int step, double time, std::span<const glm::vec3> positions,
                   std::span<const glm::vec2> velocities, std::span<const AgentPhase> phases);
  /// Flushes, closes and renames into place. Throws std::runtime_error on I/O failure.
  void finish();

private:
  std::filesystem::path path_, temp_path_;
  std::FILE* file_ = nullptr;
};

} // namespace crowd

// The trajectory CSV of shared/spec/outputs.md: `step,time,agent,x,y,z,vx,vz`.
#pragma once

#include "host/output/frame_sink.h"
#include "host/output/metrics.h"
#include "host/output/streaming_file.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <span>

namespace crowd {

/// Writes frames to a temporary file beside `path` and renames it into place on finish(), so
/// a failed run never leaves a half-written file under the requested name. Each frame
/// reaches the temporary file whole, in one write, as soon as it is given (see
/// StreamingFile). Numbers as in number_format.h: step 700 at dt 0.1 reads "70". Identical
/// runs give identical bytes.
class TrajectoryWriter : public FrameSink {
public:
  explicit TrajectoryWriter(std::filesystem::path path); ///< Throws std::runtime_error.

  /// One row per agent that is present (is_present: not Removed, not yet to enter).
  void write_frame(int step, double time, std::span<const glm::vec3> positions,
                   std::span<const glm::vec2> velocities, std::span<const AgentPhase> phases);
  void write_frame(const FrameView& frame) override;
  /// Syncs, closes and renames into place. Throws std::runtime_error on I/O failure.
  void finish() override;
  void save(ArchiveWriter& out) override;
  void restore(ArchiveReader& in) override;

private:
  StreamingFile file_;
};

} // namespace crowd

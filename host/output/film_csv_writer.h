// Film frames as CSV: `frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,
// playback_rate`, one row per shown agent (heading in degrees, gait by name).
#pragma once

#include "host/output/frame_sink.h"
#include "host/output/streaming_file.h"

#include <filesystem>

namespace crowd {

/// A heading (radians) in the degrees the CSV holds, rounded as the writer rounds it: a frame
/// drawn from the film and one read back from its CSV hold the same bits.
float heading_in_degrees(float radians);

/// Like the per-step trajectory (same number formats, same temporary-then-rename file) but
/// one block of rows per film frame, and the agent's type label after its index (quoted as in
/// RFC 4180 when it holds a comma, quote or line break).
class FilmCsvWriter : public FrameSink {
public:
  explicit FilmCsvWriter(std::filesystem::path path); ///< Throws std::runtime_error.

  void write_frame(const FrameView& frame) override;
  void finish() override;
  void save(ArchiveWriter& out) override;
  void restore(ArchiveReader& in) override;

private:
  StreamingFile file_;
};

} // namespace crowd

// Film frames as per-agent tracks in one JSON file.
#pragma once

#include "host/output/frame_sink.h"
#include "host/output/streaming_file.h"

#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

namespace crowd {

/// Writes
///   {"fps": F, "frames": N, "start_frame": S, "gaits": ["idle", "walk", "run", "turn", "wait"],
///    "agents": [
///     {"id": 0, "type": "agent", "prototype": "agent", "variation": 0, "variation_seed": s,
///      "scale": 1, "color": [r, g, b], "first_frame": f, "x": [...], "y": [...], "z": [...],
///      "vx": [...], "vz": [...], "heading": [...], "gait": [...], "cycle_phase": [...],
///      "playback_rate": [...]},
///   ...]}
/// where element j of an agent's arrays is its state in film frame first_frame + j, from the
/// first to the last frame it is shown in (null in a frame between them where it is not
/// shown; first_frame null and empty arrays for an agent never shown). The file holds frames
/// S .. S + N - 1, numbered as the film resampler numbers them (FilmOptions: crowd run starts
/// at 1001 by default). heading is in degrees about +y (0 facing +z),
/// gait the index of its name in "gaits", cycle_phase and playback_rate as
/// host/output/locomotion.h defines them.
///
/// Tracks are the transpose of frames, so frames stream to a binary temporary file of
/// fixed-size records; finish() reads it back a block of agents at a time (at most
/// block_bytes of samples in memory, kBlockBytes unless given) and writes their tracks. Memory
/// holds one frame, the block, the type labels and one agent count per frame.
class TrackJsonWriter : public FrameSink {
public:
  static constexpr std::size_t kBlockBytes = 32u << 20;

  /// Throws std::runtime_error.
  TrackJsonWriter(std::filesystem::path path, double fps, std::size_t block_bytes = kBlockBytes);

  void write_frame(const FrameView& frame) override;
  void finish() override;
  void save(ArchiveWriter& out) override;
  void restore(ArchiveReader& in) override;
  std::vector<std::filesystem::path> keep_streams_after_finish() override;

private:
  struct Record {
    float x, y, z, vx, vz;
    float heading;       ///< Degrees about +y, 0 facing +z.
    float cycle_phase;   ///< [0, 1)
    float playback_rate; ///< Speed over the gait clip's authored speed.
    std::uint32_t gait;  ///< Gait's number.
    std::uint32_t shown;
  };

  std::filesystem::path path_;
  double fps_;
  std::size_t block_bytes_;
  std::unique_ptr<StreamingFile> records_;
  std::vector<std::uint32_t> agents_per_frame_;
  long long start_frame_ = 0; ///< The number of the first frame written.
  // Each agent's character (host/output/character_cast.h), as first seen.
  std::vector<std::string> prototypes_;
  std::vector<int> variations_;
  std::vector<std::uint32_t> variation_seeds_;
  std::vector<float> scales_;
  std::vector<glm::vec3> colors_;
  std::vector<std::string> types_;
  std::vector<Record> frame_buffer_;
  bool keep_streams_ = false;
};

} // namespace crowd

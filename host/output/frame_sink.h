// One state of every agent, and the interface every trajectory output implements, so that
// `crowd run` drives the per-step CSV and the film exports the same way.
#pragma once

#include "host/output/character_cast.h"
#include "host/output/locomotion.h"
#include "host/output/metrics.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

struct FrameView {
  int number = 0;  ///< Simulation step, or film frame for film exports.
  double time = 0; ///< Seconds.
  std::span<const glm::vec3> positions;
  std::span<const glm::vec2> velocities; ///< (vx, vz)
  /// Removed = not shown (removed, or, in a film frame, not spawned yet).
  std::span<const AgentPhase> phases;
  std::span<const std::string> types; ///< Type label per agent (AgentParams::type).
  // Film frames only (empty in per-step frames): the characters' facing
  // (host/output/character_motion.h).
  std::span<const float> headings;   ///< Radians about +y, 0 facing +z.
  std::span<const float> turn_rates; ///< Radians per second about +y.
  // ... and their locomotion (host/output/locomotion.h).
  std::span<const Gait> gaits;
  std::span<const float> cycle_phases;   ///< [0, 1)
  std::span<const float> playback_rates; ///< Speed over the gait clip's authored speed.
  // ... and who they are (host/output/character_cast.h), per agent.
  std::span<const CharacterLook> looks;
};

class FrameSink {
public:
  virtual ~FrameSink() = default;
  /// Frames come in increasing number; agents keep their index, and only ever get added.
  virtual void write_frame(const FrameView& frame) = 0;
  /// Completes the file under its requested name. Throws std::runtime_error on I/O failure.
  /// A sink destroyed without finish() leaves nothing under the requested name.
  virtual void finish() = 0;

  /// Checkpoints (host/checkpoint/archive.h), one mechanism for every sink: save() syncs the
  /// sink's streams (StreamingFile::save: temporary name and length) and records its own
  /// state; restore(), on a sink made with the same arguments, continues those streams cut
  /// back to the recorded lengths and takes the state back.
  virtual void save(ArchiveWriter& out) = 0;
  virtual void restore(ArchiveReader& in) = 0;
  /// A sink whose finished file is assembled from streams (USD, tracks) keeps them after
  /// finish() when this was called, so that `crowd resume` can continue them; returns them.
  /// Sinks whose finished file is their one stream keep nothing (resume reads the file).
  virtual std::vector<std::filesystem::path> keep_streams_after_finish() { return {}; }
};

} // namespace crowd

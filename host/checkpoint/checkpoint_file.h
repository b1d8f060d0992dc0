// A checkpoint file: a header that says what wrote it, then the archive body and its
// checksum, so that a file from another build, a damaged or a truncated one is refused before
// any of it is used.
//
//   "CROWDCKP"            8 bytes, magic
//   format version        u32 (kCheckpointFormat)
//   build version         u64 length + bytes ("crowd 0.1.0")
//   body length           u64
//   body checksum         u64, FNV-1a 64 of the body (host/checkpoint/fnv1a.h)
//   body                  ArchiveWriter bytes
#pragma once

#include "host/checkpoint/archive.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace crowd {

/// Bumped whenever the body's layout changes, or what it refers to: corridors and cached
/// path trees hold polygon refs of the navmesh, which resume rebuilds from the scenario.
/// 2: the navmesh's erosion and default cell size changed (host/navmesh/clearance.h), so a
/// scenario's navmesh from a format-1 build has other polygons; and the film exports' state
/// changed (CharacterMotion in the resampler, the USD writer's held attributes); and each
/// agent's setup holds its `arrival` and `standoff`, the run options theirs, and the crowd-flow
/// observers their state.
/// 3: the simulation holds whether each agent's current goal can be reached (set_goal
/// measures the new route), and the corridor navigator no longer keeps a radius per agent.
/// 4: avoidance parameters name their model and hold the force model's parameters.
/// 5: avoidance parameters hold ORCA's parameters.
/// 6: avoidance parameters hold the time-to-collision model's; the agent arrays its state (the
/// collider lists and clocks) and each agent's corridor direction.
/// 7: the simulation counts the off-mesh links crossed, and the corridor navigator holds each
/// agent's crossing of a link (where it is on it) and whether its corners end at one.
/// 8: the corridor navigator holds its 16 query filters and each agent's filter type, the
/// agent parameters their query filter type, each agent's setup its leader and offset (scenario
/// extension `follow`), and the simulation each follower's last planned goal and replan clock.
inline constexpr std::uint32_t kCheckpointFormat = 8;

/// "crowd <project version>": a checkpoint is resumed only by the build version that wrote
/// it, since another version may step the same state differently.
std::string crowd_build_version();

/// The file's bytes: header, then body.
std::vector<std::uint8_t>
checkpoint_file_bytes(const ArchiveWriter& body,
                      const std::string& build_version = crowd_build_version(),
                      std::uint32_t format = kCheckpointFormat);

/// Writes header and body atomically (host/checkpoint/atomic_file.h): a kill while writing
/// leaves the previous checkpoint under `file`. Throws std::runtime_error on I/O failure.
void write_checkpoint_file(const std::filesystem::path& file, const ArchiveWriter& body,
                           const std::string& build_version = crowd_build_version(),
                           std::uint32_t format = kCheckpointFormat);

/// A checkpoint's body, checked: read with reader().
class CheckpointBody {
public:
  /// Reads and checks `file`. Throws CheckpointError "<file>: ..." when it cannot be read,
  /// is not a checkpoint, was written by another version, or is damaged or truncated (naming
  /// the byte offset).
  explicit CheckpointBody(const std::filesystem::path& file);
  /// The same checks on a checkpoint's bytes; `file` names them in messages.
  CheckpointBody(std::vector<std::uint8_t> bytes, std::string file);
  ArchiveReader reader() const;
  /// The body's checksum, as stored and checked: two checkpoints with the same one hold the same
  /// state.
  std::uint64_t checksum() const { return checksum_; }

private:
  void check();

  std::string file_;
  std::vector<std::uint8_t> bytes_;
  std::size_t body_offset_ = 0;
  std::uint64_t checksum_ = 0;
};

} // namespace crowd

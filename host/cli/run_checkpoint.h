// What `crowd resume` needs from a checkpoint besides the simulation and output state: the
// run's options (paths made absolute, so a resume from another directory finds the same
// files) and fingerprints of the run's input files, so that a scenario or mesh edited since
// the checkpoint is refused rather than resumed into a different shot.
#pragma once

#include "host/cli/run_command.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// Files and their FNV-1a 64 hashes (host/checkpoint/fnv1a.h).
struct InputFingerprints {
  std::vector<std::pair<std::string, std::uint64_t>> files;

  /// Hashes each file (the scenario and, for mesh worlds, its OBJ). Throws
  /// std::runtime_error when one cannot be read.
  static InputFingerprints of(const std::vector<std::filesystem::path>& files);
  /// Throws CheckpointError "<checkpoint>: <file> changed since the checkpoint was written"
  /// for the first file whose bytes differ now (or that cannot be read).
  void check_unchanged(const std::string& checkpoint) const;
};

/// `options` with every path made absolute.
RunOptions with_absolute_paths(RunOptions options);

void save_run_record(ArchiveWriter& out, const RunOptions& options, int total_steps,
                     const InputFingerprints& inputs);
struct RunRecord {
  RunOptions options;
  int total_steps = 0;
  InputFingerprints inputs;
};
RunRecord restore_run_record(ArchiveReader& in);

} // namespace crowd

// A file written piece by piece under a hidden temporary name beside its target and renamed
// into place only when complete: the requested name holds either nothing or the whole file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// Each append() reaches the kernel with write(2) before it returns (no user-space buffer),
/// so a process killed outright (SIGKILL) leaves the temporary file holding everything
/// appended before the kill. commit() syncs the data to disk, then renames it into place.
class StreamingFile {
public:
  /// Creates `.NAME.tmpXXXXXXXXXXXX` beside `path` (same directory, so the rename is atomic;
  /// a random suffix, so two runs writing the same name do not collide). Throws
  /// std::runtime_error naming `what` (e.g. "trajectory output"), the file and the error.
  StreamingFile(std::filesystem::path path, std::string what);
  ~StreamingFile(); ///< Without commit(): removes the temporary file.
  StreamingFile(const StreamingFile&) = delete;
  StreamingFile& operator=(const StreamingFile&) = delete;

  /// Writes all of `bytes`. Throws std::runtime_error on I/O failure.
  void append(std::string_view bytes);
  /// Syncs, closes and renames into place. Throws std::runtime_error on failure (the
  /// temporary file is removed).
  void commit();

  /// Closes the file and keeps the temporary file (a later `crowd resume` continues it):
  /// neither committed nor removed.
  void release();

  /// Checkpoints (host/checkpoint/archive.h): syncs the data to disk, then records the
  /// temporary name and the length written so far.
  void save(ArchiveWriter& out);
  /// Continues the stream a save() recorded, cut back to the recorded length: from its
  /// temporary file when that still holds the length (the run was killed), else, when
  /// `committed_is_stream`, from the first bytes of the file committed under path() (the run
  /// was interrupted and finished its outputs). This file's own temporary is dropped or
  /// reused. Throws CheckpointError naming the checkpoint, the output and the missing file.
  void restore(ArchiveReader& in, bool committed_is_stream);

  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temporary_path() const { return temp_path_; }
  bool committed() const { return fd_ < 0; }

private:
  std::string error(const std::string& verb, const std::filesystem::path& file) const;

  std::filesystem::path path_, temp_path_;
  std::string what_;
  int fd_ = -1;
  std::uint64_t size_ = 0; ///< Bytes appended.
};

} // namespace crowd

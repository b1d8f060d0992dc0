#include "host/output/streaming_file.h"

#include "host/checkpoint/archive.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unistd.h>

namespace crowd {

StreamingFile::StreamingFile(std::filesystem::path path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  std::random_device rd;
  const auto suffix = std::to_string(rd()) + std::to_string(rd());
  temp_path_ =
      path_.parent_path() / ("." + path_.filename().string() + ".tmp" + suffix.substr(0, 12));
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw std::runtime_error(error("cannot create", temp_path_) + ": " + std::strerror(errno));
}

StreamingFile::~StreamingFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
  }
}

std::string StreamingFile::error(const std::string& verb, const std::filesystem::path& file) const {
  return what_ + ": " + verb + " " + file.string();
}

void StreamingFile::append(std::string_view bytes) {
  if (fd_ < 0)
    throw std::runtime_error(error("write after finish to", path_));
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      throw std::runtime_error(error("cannot write", temp_path_) + ": " + std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    size_ += static_cast<std::uint64_t>(n);
  }
}

void StreamingFile::commit() {
  if (fd_ < 0)
    throw std::runtime_error(error("finish called twice for", path_));
  // fdatasync before the rename: otherwise a power loss soon after could leave the new name
  // pointing at a file whose data never reached the disk.
  const bool synced = ::fdatasync(fd_) == 0;
  const int sync_errno = errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  std::error_code ec;
  if (!synced || !closed) {
    std::filesystem::remove(temp_path_, ec);
    throw std::runtime_error(error("cannot write", temp_path_) + ": " +
                             std::strerror(synced ? errno : sync_errno));
  }
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    throw std::runtime_error(error("cannot rename " + temp_path_.string() + " to", path_) + ": " +
                             ec.message());
  }
}

void StreamingFile::release() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
}

void StreamingFile::save(ArchiveWriter& out) {
  if (fd_ < 0)
    throw std::runtime_error(error("checkpoint after finish of", path_));
  if (::fdatasync(fd_) != 0)
    throw std::runtime_error(error("cannot write", temp_path_) + ": " + std::strerror(errno));
  out.put(temp_path_.string());
  out.put(size_);
}

void StreamingFile::restore(ArchiveReader& in, bool committed_is_stream) {
  const std::filesystem::path recorded(in.get<std::string>());
  const auto size = in.get<std::uint64_t>();
  if (fd_ < 0)
    throw std::runtime_error(error("restore after finish of", path_));
  std::error_code ec;
  const auto size_of = [&](const std::filesystem::path& file) -> std::uint64_t {
    const auto n = std::filesystem::file_size(file, ec);
    return ec ? 0 : static_cast<std::uint64_t>(n);
  };
  const auto fail = [&](const std::string& what) {
    throw CheckpointError(in.file() + ": cannot resume " + what_ + " " + path_.string() + ": " +
                          what);
  };
  if (recorded != temp_path_ && std::filesystem::exists(recorded, ec) &&
      size_of(recorded) >= size) {
    // Killed: continue the temporary file of that run where the checkpoint left it.
    const int fd = ::open(recorded.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(size)) != 0 || ::lseek(fd, 0, SEEK_END) < 0) {
      const std::string reason = std::strerror(errno);
      if (fd >= 0)
        ::close(fd);
      fail("cannot reopen " + recorded.string() + ": " + reason);
    }
    ::close(fd_);
    std::filesystem::remove(temp_path_, ec);
    fd_ = fd;
    temp_path_ = recorded;
    size_ = size;
    return;
  }
  if (!committed_is_stream || size_of(path_) < size)
    fail(recorded.string() + " is missing or shorter than the " + std::to_string(size) +
         " bytes the checkpoint recorded" +
         (committed_is_stream ? ", and so is " + path_.string() : ""));
  // Interrupted: the output was finished under its name; its first bytes are the stream.
  if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) < 0)
    fail(std::string("cannot reset ") + temp_path_.string() + ": " + std::strerror(errno));
  size_ = 0;
  const int from = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (from < 0)
    fail(std::string("cannot read ") + path_.string() + ": " + std::strerror(errno));
  std::string chunk(1 << 20, '\0');
  while (size_ < size) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - size_));
    const ssize_t n = ::read(from, chunk.data(), want);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ::close(from);
      fail("cannot read " + path_.string());
    }
    append(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
  }
  ::close(from);
}

} // namespace crowd

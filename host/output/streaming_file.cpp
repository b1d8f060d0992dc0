#include "host/output/streaming_file.h"

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

} // namespace crowd

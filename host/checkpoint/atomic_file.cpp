#include "host/checkpoint/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace crowd {

std::filesystem::path temporary_path_for(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(::getpid());
  return temp;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  const std::filesystem::path temp = temporary_path_for(path);
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr)
    throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    throw std::runtime_error(path.string() + ": write failed: " + std::strerror(errno));
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) {
    std::remove(temp.c_str());
    throw std::runtime_error(path.string() + ": cannot rename into place: " + error.message());
  }
}

} // namespace crowd

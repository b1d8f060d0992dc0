#include "host/checkpoint/fnv1a.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace crowd {

std::uint64_t fnv1a64_of_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw std::runtime_error(file.string() + ": cannot read: " + std::strerror(errno));
  std::vector<char> chunk(1 << 20);
  std::uint64_t hash = kFnv1aOffsetBasis;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    hash = fnv1a64(reinterpret_cast<const std::uint8_t*>(chunk.data()),
                   static_cast<std::size_t>(in.gcount()), hash);
  }
  if (in.bad())
    throw std::runtime_error(file.string() + ": cannot read");
  return hash;
}

} // namespace crowd

// FNV-1a, 64 bits (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/): a short,
// dependency-free hash that detects damaged checkpoint bodies and changed input files. Not
// a cryptographic hash: it guards against accidents, not against tampering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace crowd {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ull;

/// Hash of `size` bytes, continuing from `hash` (the offset basis for a fresh hash).
constexpr std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size,
                                std::uint64_t hash = kFnv1aOffsetBasis) {
  constexpr std::uint64_t kPrime = 1099511628211ull;
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= kPrime;
  }
  return hash;
}

/// Hash of a file's bytes. Throws std::runtime_error naming the file when it cannot be read.
std::uint64_t fnv1a64_of_file(const std::filesystem::path& file);

} // namespace crowd

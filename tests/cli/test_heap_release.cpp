// The command line's heap policy (host/cli/heap_release.h): an array freed goes back to the
// system, so a run's resident memory follows what it holds.
#include "host/cli/heap_release.h"

#include <cstddef>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <unistd.h>

namespace crowd {
namespace {

/// This process's resident memory, bytes (/proc/self/statm); 0 where it cannot be read.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident))
    return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// Holds `bytes` resident (every page written), then frees them.
void hold_and_free(std::size_t bytes) {
  const std::unique_ptr<char[]> block(new char[bytes]);
  for (std::size_t at = 0; at < bytes; at += 4096)
    block[at] = static_cast<char>(at);
  // Kept from being optimised away: the pages must really be written.
  ASSERT_NE(block[bytes / 4096 * 4096 - 4096], 1);
}

// Whether a sanitizer's allocator, which keeps its own heap (and holds freed blocks back to
// catch their use), replaces the C library's.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerHeap = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
constexpr bool kSanitizerHeap = true;
#else
constexpr bool kSanitizerHeap = false;
#endif
#else
constexpr bool kSanitizerHeap = false;
#endif

TEST(HeapRelease, AnArrayFreedAfterALargerOneLeavesNothingResident) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the policy is glibc's mallopt; this C library keeps its own";
#endif
  if (kSanitizerHeap)
    GTEST_SKIP() << "a sanitizer's allocator replaces glibc's here: the policy does not apply "
                    "(the release build runs this test)";
  release_freed_blocks_to_the_system();
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  // The pattern of a step's arrays: a large one freed (by default glibc then serves blocks up to
  // its size from the heap, and trims the heap only past twice it), then a smaller one.
  hold_and_free(24 * kMiB);
  const std::size_t before = resident_bytes();
  ASSERT_GT(before, 0u) << "/proc/self/statm unreadable";
  hold_and_free(16 * kMiB);
  const std::size_t after = resident_bytes();
  EXPECT_LT(after, before + 4 * kMiB)
      << "16 MiB freed stayed resident: " << (after - before) / kMiB << " MiB more than before";
}

} // namespace
} // namespace crowd

// Large freed blocks back to the system (heap_release.h).
#include "host/cli/heap_release.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace crowd {

void release_freed_blocks_to_the_system() {
#if defined(__GLIBC__)
  // Setting it turns off glibc's dynamic threshold, and with it the dynamic trim threshold,
  // which would stay at 128 KiB: the heap's top would go back to the system whenever that much
  // of it is free, and be faulted in again at the next allocation (rank 0 of 2 on the
  // 64,000-agent bench scene, 60 steps: 156 thousand page faults so, 88 thousand with 4 MiB,
  // the same peak; 16 MiB kept 13 MB more resident alone).
  mallopt(M_MMAP_THRESHOLD, 8 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024);
#endif
}

} // namespace crowd

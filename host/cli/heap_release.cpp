// Large freed blocks back to the system (heap_release.h).
#include "host/cli/heap_release.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace crowd {

void release_freed_blocks_to_the_system() {
#if defined(__GLIBC__)
  // Setting it turns off glibc's dynamic threshold (and with it the dynamic trim threshold).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

} // namespace crowd

// Large freed blocks go back to the system at once, so that a run's resident memory follows what
// it holds: what a farm's jobs and an MPI run's ranks are sized by (the split summary's peak).
#pragma once

namespace crowd {

/// Has the C library map every block of 128 KiB or more on its own and unmap it when freed
/// (glibc's mallopt M_MMAP_THRESHOLD; nothing elsewhere). By default glibc raises that
/// threshold to the size of the largest mapped block freed so far (up to 32 MiB): once a step's
/// arrays have grown past a few of their sizes, later ones come from the heap and stay resident
/// when freed. The 64,000-agent bench scene, 60 steps, `--threads 1`, peaked at 269 MB resident
/// that way and at 228 MB with the threshold fixed, in the same time a step (243.3 and 245.3 ms
/// against 248.0 and 245.6, alternating; 2026-11-29).
void release_freed_blocks_to_the_system();

} // namespace crowd

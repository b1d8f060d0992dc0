// Large freed blocks go back to the system at once, so that a run's resident memory follows what
// it holds: what a farm's jobs and an MPI run's ranks are sized by (the split summary's peak).
#pragma once

namespace crowd {

/// Has the C library map every block of 8 MiB or more on its own and unmap it when freed, and
/// trim the heap's top past 4 MiB free (glibc's mallopt M_MMAP_THRESHOLD and M_TRIM_THRESHOLD;
/// nothing elsewhere). By default glibc raises the first to the size of the largest mapped block
/// freed so far (up to 32 MiB), and the heap's trim threshold to twice it: once a step's arrays
/// have grown past a few of their sizes, later ones come from the heap and stay resident when
/// freed. Smaller blocks stay on the heap, to be reused without faulting their pages in again.
/// The 64,000-agent bench scene, 60 steps, `--threads 1` (2026-11-29; the path trees held once
/// and the crowd's parameters shared, in all four): by default 242 MB peak resident and 71 thousand
/// page faults in 18.10 s; fixed at 128 KiB, 205 MB and 197 thousand in 18.60 s (the path trees'
/// buffers, mapped afresh for every tree built); at 8 MiB, 205 MB and 86 thousand in 18.11 s; at 16
/// MiB, 223 MB (the pool's columns, of 8 to 16 MB, then grow on the heap by copying).
void release_freed_blocks_to_the_system();

} // namespace crowd

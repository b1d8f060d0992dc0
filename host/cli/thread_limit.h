// `--threads N` for a whole command: every parallel loop of the process, not the solver's alone.
#pragma once

#include <oneapi/tbb/global_control.h>
#include <optional>

namespace crowd {

/// The threads of one of `ranks_on_machine` processes that share a machine, where --threads was
/// not given: its share of the cores (the machine's hardware threads divided among them), at
/// most what oneTBB would take (the cores the launcher bound it to), at least 1. Without it each
/// rank of a node took every core: 4 ranks, 4 times as many threads as cores.
int share_of_cores(int ranks_on_machine);

/// While alive, the process runs its work on at most `threads` threads; 0 sets no limit (every
/// core). The solver runs its stages in an arena of `threads` already (SolverOptions::threads),
/// but the rest of a step's parallel loops (the schedule's scans, the stuck detector, the
/// metrics and the lane order) and the outputs' run on oneTBB's default arena, which takes every
/// core: `crowd run --threads 1` ran on two threads on a 2-core machine, and under mpirun every
/// rank of a node took every core of it. oneTBB's global_control (max_allowed_parallelism)
/// caps every arena of the process at once.
class ThreadLimit {
public:
  explicit ThreadLimit(int threads);

private:
  std::optional<tbb::global_control> control_;
};

} // namespace crowd

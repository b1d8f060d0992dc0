// Whether an MPI launcher (mpirun or mpiexec) started this process as one of several ranks.
// This build has no MPI: under `mpirun -n 4 crowd run ...` every rank would run the whole scene
// on its own and write the same output files over each other. The launchers say how many
// processes they started in the environment of each, which is read here so that the command
// refuses with one clear message instead.
#pragma once

#include <optional>
#include <string>

namespace crowd {

struct LauncherRanks {
  int size = 1;         ///< Processes the launcher started.
  int rank = 0;         ///< This one's rank among them, 0 to size - 1.
  std::string variable; ///< The environment variable that said so.
};

/// The ranks an MPI launcher started this process among, as its environment says: Open MPI's
/// OMPI_COMM_WORLD_SIZE and _RANK, MPICH's and Intel MPI's PMI_SIZE and PMI_RANK (Hydra), or
/// MVAPICH2's MV2_COMM_WORLD_SIZE and _RANK. Nothing when none of them is set (or says 1).
std::optional<LauncherRanks> launcher_ranks();

/// The message of a build without MPI started as one of `ranks`.
std::string no_mpi_message(const LauncherRanks& ranks);

} // namespace crowd

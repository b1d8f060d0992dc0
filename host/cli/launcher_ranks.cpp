#include "host/cli/launcher_ranks.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace crowd {
namespace {

/// The environment variable `name` as a whole number, if it is one.
std::optional<int> integer_variable(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr)
    return std::nullopt;
  int value = 0;
  const char* end = text + std::strlen(text);
  const auto [at, error] = std::from_chars(text, end, value);
  if (error != std::errc() || at != end)
    return std::nullopt;
  return value;
}

struct LauncherVariables {
  const char* size;
  const char* rank;
};

constexpr LauncherVariables kLaunchers[] = {
    {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, // Open MPI (Debian's openmpi-bin)
    {"PMI_SIZE", "PMI_RANK"},                         // MPICH and Intel MPI (Hydra)
    {"MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK"},   // MVAPICH2
};

} // namespace

std::optional<LauncherRanks> launcher_ranks() {
  for (const LauncherVariables& launcher : kLaunchers) {
    const std::optional<int> size = integer_variable(launcher.size);
    if (!size || *size <= 1)
      continue;
    LauncherRanks ranks;
    ranks.size = *size;
    ranks.rank = integer_variable(launcher.rank).value_or(0);
    ranks.variable = launcher.size;
    return ranks;
  }
  return std::nullopt;
}

std::string no_mpi_message(const LauncherRanks& ranks) {
  return "crowd: started as one of " + std::to_string(ranks.size) + " ranks (" + ranks.variable +
         "=" + std::to_string(ranks.size) +
         "), but this build has no MPI: it cannot split one crowd across ranks, and each rank "
         "would run the whole scene and write the same files over the others'. Run crowd "
         "without mpirun, or with one rank (mpirun -n 1)";
}

} // namespace crowd

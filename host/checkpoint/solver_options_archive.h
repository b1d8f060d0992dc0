// SolverOptions in checkpoints (host/checkpoint/archive.h): one field list, which `crowd
// resume`'s run record and a Crowd's checkpoint both write, so that an option added to
// SolverOptions is added here once.
#pragma once

#include "cuda/core/solver_options.h"

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

void save_solver_options(ArchiveWriter& out, const SolverOptions& options);
SolverOptions restore_solver_options(ArchiveReader& in);

} // namespace crowd

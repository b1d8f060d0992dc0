#include "host/backends/backend.h"

#include "host/checkpoint/archive.h"

#include <stdexcept>

namespace crowd {

void CrowdBackend::save(ArchiveWriter&) const {
  throw CheckpointError("checkpoints need the cpu or cuda backend: the " + name() +
                        " backend's internal state cannot be saved");
}

void CrowdBackend::split_across_processes(AgentShare* share) {
  if (share != nullptr)
    throw std::runtime_error(
        "the " + name() +
        " backend cannot split a run across processes: use --backend cpu or cuda");
}

void CrowdBackend::restore(ArchiveReader& in) {
  in.fail("checkpoints need the cpu or cuda backend");
}

} // namespace crowd

#include "host/backends/backend.h"

#include "host/checkpoint/archive.h"

namespace crowd {

void CrowdBackend::save(ArchiveWriter&) const {
  throw CheckpointError("checkpoints need the cpu or cuda backend: the " + name() +
                        " backend's internal state cannot be saved");
}

void CrowdBackend::restore(ArchiveReader& in) {
  in.fail("checkpoints need the cpu or cuda backend");
}

} // namespace crowd

// The agent arrays (cuda/core/agent_arrays.h) in checkpoints (host/checkpoint/archive.h): every
// array but the corridors, which the corridor navigator saves with the rest of its state.
#pragma once

#include "cuda/core/agent_arrays.h"

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

void save_agent_arrays(ArchiveWriter& out, const AgentArrays& arrays);
/// Reads what save_agent_arrays wrote, checking every length. Counts as a layout change
/// (layout_version grows), so a device mirror uploads everything again.
void restore_agent_arrays(ArchiveReader& in, AgentArrays& arrays);

} // namespace crowd

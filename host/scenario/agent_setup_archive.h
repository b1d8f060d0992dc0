// AgentSetup in checkpoints (host/checkpoint/archive.h): the setups are saved whole, since
// the API (add_agent, set_goal) changes them after the scenario made them.
#pragma once

#include "host/scenario/population.h"

#include <cstddef>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

void save_agent_setup(ArchiveWriter& out, const AgentSetup& setup);
/// Agent `id`'s setup as save_agent_setup wrote it. Fails the reader (CheckpointError naming
/// the agent) on parameters out of their ranges (agent_params_check.h), which a damaged file may
/// hold and every agent added through the scenario or the API was refused for.
AgentSetup restore_agent_setup(ArchiveReader& in, std::size_t id);

} // namespace crowd

// AgentSetup in checkpoints (host/checkpoint/archive.h): the setups are saved whole, since
// the API (add_agent, set_goal) changes them after the scenario made them.
#pragma once

#include "host/scenario/population.h"

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

void save_agent_setup(ArchiveWriter& out, const AgentSetup& setup);
AgentSetup restore_agent_setup(ArchiveReader& in);

} // namespace crowd

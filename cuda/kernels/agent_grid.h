// The agent grid as the neighbour search reads it: the uniform grid of agent ids plus, in the
// same sorted order, a copy of what the search reads of each agent (x, y, z, height in one
// 16-byte load). Scanning a row of cells then reads consecutive memory instead of gathering
// position[j] and height[j] at random j, FLAME GPU 2's spatial messages, which carry the
// message data sorted by cell (src/flamegpu/runtime/messaging/MessageSpatial2D.cu).
#pragma once

#include "cuda/kernels/uniform_grid.h"

namespace crowd {

/// What the neighbour search needs of one agent: position (x, y, z) and height (w).
CROWD_HD glm::vec4 agent_grid_point(glm::vec3 position, float height) {
  return {position.x, position.y, position.z, height};
}

struct AgentGridView {
  GridView grid;                    // items are agent ids
  const glm::vec4* point = nullptr; // [items] agent_grid_point of grid.items[k]
};

} // namespace crowd

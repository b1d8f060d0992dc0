// Turns a scenario's explicit agents and groups into concrete agents placed on the navmesh.
#pragma once

#include "host/scenario/scenario.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace crowd {

class NavMesh;

/// One agent ready to simulate. Index in the returned vector = the agent's id in every
/// output (explicit agents first, then each group in order).
struct AgentSetup {
  glm::vec3 position{0.0f}; ///< On the navmesh (snapped to the walkable surface).
  glm::vec3 goal{0.0f};     ///< As requested (y from the walkable surface for 2D points);
                            ///< may be off the navmesh or unreachable.
  AgentParams params;
  std::string json_path; ///< Where it was defined: "agents[3]" or "groups[1]".
};

/// Expands groups (seeded with scenario.seed) and places every agent. Rect spawns draw
/// uniformly over the walkable part of the rectangle, clear of obstacles and of agents placed
/// before (discs do not overlap); circle spawns are evenly spaced on the circle. Throws
/// ScenarioError for an agent that starts inside an obstacle or off the walkable area (naming
/// `agents[i].position` or `groups[g].spawn`), or a rect spawn that cannot fit its count.
std::vector<AgentSetup> populate(const Scenario& scenario, const NavMesh& navmesh);

} // namespace crowd

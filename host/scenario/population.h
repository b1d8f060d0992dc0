// Turns a scenario's explicit agents and groups into concrete agents placed on the navmesh.
#pragma once

#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace crowd {

class NavMesh;

/// A waypoint of one agent: where (like a goal: as requested, y from the walkable surface
/// for 2D points) and how long it stands there once arrived, seconds.
struct RouteWaypoint {
  glm::vec3 position{0.0f};
  float wait = 0.0f;
};

/// Where and when an agent of a run is, and where it heads: all of its AgentSetup but its
/// parameters, which a run holds apart, their shared part once (agent_setup_table.h).
struct AgentPlacement {
  glm::vec3 position{0.0f}; ///< On the navmesh (snapped to the walkable surface).
  glm::vec3 goal{0.0f};     ///< As requested (y from the walkable surface for 2D points);
                            ///< may be off the navmesh or unreachable.
  std::string json_path;    ///< Where it was defined: "agents[3]", "groups[1]", "emitters[0]".
  /// Seconds after the start of the run at which the agent enters (start delay, emitter
  /// schedule); 0 for agents present from the first frame.
  double start_time = 0.0;
  std::vector<RouteWaypoint> waypoints; ///< Visited in order before `goal`.
  /// Scenario extension `follow`: the id of the agent it follows, -1 for none. A follower's
  /// goal is its leader's position plus `follow_offset`, moved with the leader every step.
  int leader = -1;
  glm::vec3 follow_offset{0.0f};
};

/// One agent ready to simulate. Index in the returned vector = the agent's id in every
/// output (explicit agents first, then each group in order, then each emitter's agents in
/// the order they enter).
struct AgentSetup : AgentPlacement {
  AgentParams params;
};

/// Expands groups and emitters (seeded with scenario.seed) and places every agent. Rect
/// spawns draw uniformly over the walkable part of the rectangle, clear of obstacles and of
/// agents placed before (discs do not overlap); circle spawns are evenly spaced on the circle.
/// Emitters' agents are placed clear of obstacles only: whether other agents stand there is
/// known when they enter (the simulation holds an agent back while its place is taken).
/// Throws ScenarioError for an agent that starts inside an obstacle or off the walkable area
/// (naming `agents[i].position` or `groups[g].spawn`), or a rect spawn that cannot fit its
/// count.
std::vector<AgentSetup> populate(const Scenario& scenario, const NavMesh& navmesh);

} // namespace crowd

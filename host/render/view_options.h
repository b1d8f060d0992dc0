// What the viewer and `crowd render` draw: colour mode, layers and the selected agent's
// overlays. Each flag is a key in the viewer and a name for `crowd render --overlays`.
#pragma once

#include <optional>
#include <string>

namespace crowd {

/// How agents are coloured (host/render/agent_style.h): by speed over top speed, by state, or
/// by type label. The values are agents.vert's colour_mode.
enum class AgentColouring { Speed = 0, State = 1, Type = 2 };

/// "speed", "state" or "type"; nothing for another name.
std::optional<AgentColouring> parse_agent_colouring(const std::string& name);

struct ViewOptions {
  AgentColouring colouring = AgentColouring::Speed;
  bool navmesh = true;    ///< Navmesh polygons and edges.
  bool trails = true;     ///< Recent path of every agent.
  bool samples = true;    ///< Selected agent: velocity samples coloured by penalty.
  bool neighbours = true; ///< Selected agent: links to the agents it avoids.
  bool walls = true;      ///< Selected agent: the wall segments it avoids.
  bool corridor = true;   ///< Selected agent: its path corridor.
  bool hud = true;        ///< Step, agents, ms per step.
  int selected = -1;      ///< Agent id, or -1.
  int trail_length = 40;  ///< Frames kept per trail.
};

/// Sets the layers from a comma-separated list of names (navmesh, trails, samples, neighbours,
/// walls, corridor, hud; "all" or "none"): those listed on, the others off. Returns the first
/// unknown name, or nothing when all are known.
std::optional<std::string> set_overlays(ViewOptions& options, const std::string& names);

} // namespace crowd

#include "host/render/view_options.h"

#include <sstream>
#include <utility>

namespace crowd {

std::optional<AgentColouring> parse_agent_colouring(const std::string& name) {
  if (name == "speed")
    return AgentColouring::Speed;
  if (name == "state")
    return AgentColouring::State;
  if (name == "type")
    return AgentColouring::Type;
  return std::nullopt;
}

std::optional<std::string> set_overlays(ViewOptions& options, const std::string& names) {
  std::pair<const char*, bool*> flags[] = {
      {"navmesh", &options.navmesh}, {"trails", &options.trails},
      {"samples", &options.samples}, {"neighbours", &options.neighbours},
      {"walls", &options.walls},     {"corridor", &options.corridor},
      {"hud", &options.hud}};
  for (auto& [name, flag] : flags)
    *flag = false;
  std::istringstream list(names);
  std::string name;
  while (std::getline(list, name, ',')) {
    if (name == "none")
      continue;
    bool known = false;
    for (auto& [flag_name, flag] : flags)
      if (name == flag_name || name == "all") {
        *flag = true;
        known = true;
      }
    if (!known)
      return name;
  }
  return std::nullopt;
}

} // namespace crowd

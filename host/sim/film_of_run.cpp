#include "host/sim/film_of_run.h"

#include <climits>
#include <cmath>

namespace crowd {

std::set<std::string> agent_type_labels(const Scenario& scenario) {
  std::set<std::string> labels;
  for (const ExplicitAgentSpec& agent : scenario.agents)
    labels.insert(agent.params.type);
  for (const GroupSpec& group : scenario.groups)
    labels.insert(group.base.type);
  for (const GroupSpec& emitter : scenario.emitters)
    labels.insert(emitter.base.type);
  return labels;
}

std::optional<int> film_run_steps(int steps, float dt, double fps, double preroll, int handles) {
  const double extra_seconds = preroll + handles / fps;
  if (extra_seconds <= 0.0)
    return steps;
  const double extra = std::ceil(extra_seconds / static_cast<double>(dt) - 1e-9);
  const double total = static_cast<double>(steps) + extra;
  if (total > static_cast<double>(INT_MAX))
    return std::nullopt;
  return static_cast<int>(total);
}

FilmOfRun film_of_run(const Simulation& sim, double max_turn_rate_degrees, int start_frame,
                      double preroll, int handles) {
  FilmOfRun film;
  FilmOptions& options = film.options;
  options.max_turn_rate_degrees = max_turn_rate_degrees;
  options.facing_hint = [&sim](int id) { return sim.walking_direction(id); };
  options.ground_height = [&sim](const glm::vec3& p) { return sim.ground_height(p); };
  options.start_frame = start_frame;
  options.preroll = preroll;
  options.handles = handles;
  film.cast = std::make_shared<const CharacterCast>(sim.scenario().seed, sim.scenario().characters,
                                                    agent_type_labels(sim.scenario()));
  options.clips = [&sim, cast = film.cast](int id) -> const LocomotionClips& {
    return cast->spec(sim.agent_type(id)).clips;
  };
  options.look = [&sim, cast = film.cast](int id) {
    const AgentParams params = sim.agent_params(id);
    return cast->look(id, params.type, params.radius);
  };
  return film;
}

} // namespace crowd

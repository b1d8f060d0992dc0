#include "host/distributed/domain_tally.h"

#include <algorithm>

namespace crowd {

DomainTally::DomainTally(int domains, float halo, float tolerance)
    : assignment_(domains, tolerance) {
  figures_.domains = assignment_.domains();
  figures_.halo = std::max(halo, 0.0f);
}

void DomainTally::observe(std::span<const glm::vec3> positions,
                          std::span<const AgentPhase> phases) {
  const std::size_t n = std::min(positions.size(), phases.size());
  const int domains = figures_.domains;
  present_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    present_[i] = is_present(phases[i]) ? 1 : 0;
  assignment_.place(positions.first(n), present_);
  const std::span<const int> domain = assignment_.domain_of_agents();
  const DomainSplit& split = assignment_.split();

  ghosts_.assign(static_cast<std::size_t>(domains), 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!present_[i])
      continue;
    for (int e = 0; e < domains; ++e)
      if (e != domain[i] && split.box(e).distance_to(positions[i]) <= figures_.halo)
        ++ghosts_[static_cast<std::size_t>(e)];
  }

  ++figures_.steps;
  const std::span<const int> agents = assignment_.present_per_domain();
  for (int d = 0; d < domains; ++d) {
    const auto k = static_cast<std::size_t>(d);
    agent_sum_ += agents[k];
    ghost_sum_ += ghosts_[k];
    figures_.max_agents = std::max(figures_.max_agents, agents[k]);
    figures_.max_ghosts = std::max(figures_.max_ghosts, ghosts_[k]);
  }
}

DomainFigures DomainTally::figures() const {
  DomainFigures f = figures_;
  if (f.steps == 0)
    return f;
  const double domain_steps = static_cast<double>(f.steps) * f.domains;
  f.mean_agents = agent_sum_ / domain_steps;
  f.mean_ghosts = ghost_sum_ / domain_steps;
  f.halo_fraction = agent_sum_ > 0 ? ghost_sum_ / agent_sum_ : 0.0;
  // The first step has no step before it to migrate from.
  f.rebalances = assignment_.rebalances();
  f.migrations_per_step =
      f.steps > 1 ? static_cast<double>(assignment_.migrations()) / static_cast<double>(f.steps - 1)
                  : 0.0;
  return f;
}

} // namespace crowd

#include "host/distributed/domain_tally.h"

#include <algorithm>

namespace crowd {

DomainTally::DomainTally(int domains, float halo, float tolerance) : tolerance_(tolerance) {
  figures_.domains = std::max(domains, 1);
  figures_.halo = std::max(halo, 0.0f);
}

void DomainTally::observe(std::span<const glm::vec3> positions,
                          std::span<const AgentPhase> phases) {
  const std::size_t n = std::min(positions.size(), phases.size());
  const int domains = figures_.domains;
  present_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    present_[i] = is_present(phases[i]) ? 1 : 0;
  owner_.resize(n, -1);

  // Each present agent's domain (-1 absent), found once, and the agents per domain.
  const auto place = [&] {
    agents_.assign(static_cast<std::size_t>(domains), 0);
    domain_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      domain_[i] = present_[i] ? split_.domain_of(positions[i]) : -1;
      if (domain_[i] >= 0)
        ++agents_[static_cast<std::size_t>(domain_[i])];
    }
  };
  if (!split_made_) {
    split_ = DomainSplit::bisect(positions.first(n), present_, domains);
    split_made_ = true;
  }
  place();
  const long long present = std::count(present_.begin(), present_.end(), 1);
  const double mean = static_cast<double>(present) / domains;
  if (present > 0 &&
      *std::max_element(agents_.begin(), agents_.end()) > (1.0 + tolerance_) * mean + 1.0) {
    split_ = DomainSplit::bisect(positions.first(n), present_, domains);
    ++figures_.rebalances;
    place();
  }

  ghosts_.assign(static_cast<std::size_t>(domains), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int d = domain_[i];
    if (d >= 0 && owner_[i] >= 0 && owner_[i] != d)
      ++migrations_;
    owner_[i] = d;
    if (d < 0)
      continue;
    for (int e = 0; e < domains; ++e)
      if (e != d && split_.box(e).distance_to(positions[i]) <= figures_.halo)
        ++ghosts_[static_cast<std::size_t>(e)];
  }

  ++figures_.steps;
  for (int d = 0; d < domains; ++d) {
    const auto k = static_cast<std::size_t>(d);
    agent_sum_ += agents_[k];
    ghost_sum_ += ghosts_[k];
    figures_.max_agents = std::max(figures_.max_agents, agents_[k]);
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
  f.migrations_per_step =
      f.steps > 1 ? static_cast<double>(migrations_) / static_cast<double>(f.steps - 1) : 0.0;
  return f;
}

} // namespace crowd

#include "host/distributed/domain_tally.h"

#include <algorithm>

namespace crowd {

DomainTally::DomainTally(int domains, float halo, float tolerance)
    : domains_(std::max(domains, 1)), halo_(std::max(halo, 0.0f)), tolerance_(tolerance) {
  figures_.domains = domains_;
  figures_.halo = halo_;
}

void DomainTally::observe(std::span<const glm::vec3> positions,
                          std::span<const AgentPhase> phases) {
  const std::size_t n = std::min(positions.size(), phases.size());
  present_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    present_[i] = is_present(phases[i]) ? 1 : 0;
  owner_.resize(n, -1);

  agents_.assign(static_cast<std::size_t>(domains_), 0);
  const auto count_agents = [&] {
    std::fill(agents_.begin(), agents_.end(), 0);
    for (std::size_t i = 0; i < n; ++i)
      if (present_[i])
        ++agents_[static_cast<std::size_t>(split_.domain_of(positions[i]))];
  };
  if (!split_made_) {
    split_ = DomainSplit::bisect(positions.first(n), present_, domains_);
    split_made_ = true;
  }
  count_agents();
  const long long present = std::count(present_.begin(), present_.end(), 1);
  const double mean = static_cast<double>(present) / domains_;
  if (present > 0 &&
      *std::max_element(agents_.begin(), agents_.end()) > (1.0 + tolerance_) * mean + 1.0) {
    split_ = DomainSplit::bisect(positions.first(n), present_, domains_);
    ++figures_.rebalances;
    count_agents();
  }

  ghosts_.assign(static_cast<std::size_t>(domains_), 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!present_[i]) {
      owner_[i] = -1;
      continue;
    }
    const int d = split_.domain_of(positions[i]);
    if (owner_[i] >= 0 && owner_[i] != d)
      ++migrations_;
    owner_[i] = d;
    for (int e = 0; e < domains_; ++e)
      if (e != d && split_.box(e).distance_to(positions[i]) <= halo_)
        ++ghosts_[static_cast<std::size_t>(e)];
  }

  ++figures_.steps;
  for (int d = 0; d < domains_; ++d) {
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
  const double domain_steps = static_cast<double>(f.steps) * domains_;
  f.mean_agents = agent_sum_ / domain_steps;
  f.mean_ghosts = ghost_sum_ / domain_steps;
  f.halo_fraction = agent_sum_ > 0 ? ghost_sum_ / agent_sum_ : 0.0;
  // The first step has no step before it to migrate from.
  f.migrations_per_step =
      f.steps > 1 ? static_cast<double>(migrations_) / static_cast<double>(f.steps - 1) : 0.0;
  return f;
}

} // namespace crowd

#include "host/distributed/domain_assignment.h"

#include <algorithm>

namespace crowd {

DomainAssignment::DomainAssignment(int domains, float tolerance)
    : domains_(std::max(domains, 1)), tolerance_(std::max(tolerance, 0.0f)) {}

void DomainAssignment::count_domains(std::span<const glm::vec3> positions,
                                     std::span<const std::uint8_t> present) {
  present_count_.assign(static_cast<std::size_t>(domains_), 0);
  domain_.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    domain_[i] = split_.domain_of(positions[i]);
    if (present[i])
      ++present_count_[static_cast<std::size_t>(domain_[i])];
  }
}

void DomainAssignment::place(std::span<const glm::vec3> positions,
                             std::span<const std::uint8_t> present) {
  const std::size_t n = std::min(positions.size(), present.size());
  positions = positions.first(n);
  present = present.first(n);
  if (!split_made_) {
    split_ = DomainSplit::bisect(positions, present, domains_);
    split_made_ = true;
  }
  count_domains(positions, present);
  const long long present_agents = std::count(present.begin(), present.end(), 1);
  const double mean = static_cast<double>(present_agents) / domains_;
  if (present_agents > 0 && *std::max_element(present_count_.begin(), present_count_.end()) >
                                (1.0 + tolerance_) * mean + 1.0) {
    split_ = DomainSplit::bisect_along(split_, positions, present);
    ++rebalances_;
    count_domains(positions, present);
  }
  previous_domain_.resize(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const int now = present[i] ? domain_[i] : -1;
    if (now >= 0 && previous_domain_[i] >= 0 && previous_domain_[i] != now)
      ++migrations_;
    previous_domain_[i] = now;
  }
}

} // namespace crowd

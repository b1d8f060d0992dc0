#include "host/distributed/domain_assignment.h"

#include <algorithm>

namespace crowd {

DomainAssignment::DomainAssignment(int domains, float tolerance)
    : domains_(std::max(domains, 1)), tolerance_(std::max(tolerance, 0.0f)) {}

void DomainAssignment::count_domains(std::span<const glm::vec3> positions,
                                     std::span<const std::uint8_t> work) {
  present_count_.assign(static_cast<std::size_t>(domains_), 0);
  work_sum_.assign(static_cast<std::size_t>(domains_), 0);
  domain_.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    domain_[i] = split_.domain_of(positions[i]);
    if (work[i] > 0) {
      ++present_count_[static_cast<std::size_t>(domain_[i])];
      work_sum_[static_cast<std::size_t>(domain_[i])] += work[i];
    }
  }
}

void DomainAssignment::place(std::span<const glm::vec3> positions,
                             std::span<const std::uint8_t> work) {
  const std::size_t n = std::min(positions.size(), work.size());
  positions = positions.first(n);
  work = work.first(n);
  if (!split_made_) {
    split_ = DomainSplit::bisect(positions, work, domains_);
    split_made_ = true;
  }
  count_domains(positions, work);
  long long total = 0;
  for (const long long w : work_sum_)
    total += w;
  const double mean = static_cast<double>(total) / domains_;
  // One agent's work of slack: no cut can balance finer than that.
  const double largest_agent = work.empty() ? 0.0 : *std::max_element(work.begin(), work.end());
  if (total > 0 && static_cast<double>(*std::max_element(work_sum_.begin(), work_sum_.end())) >
                       (1.0 + tolerance_) * mean + largest_agent) {
    split_ = DomainSplit::bisect_along(split_, positions, work);
    ++rebalances_;
    count_domains(positions, work);
  }
  previous_domain_.resize(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const int now = work[i] > 0 ? domain_[i] : -1;
    if (now >= 0 && previous_domain_[i] >= 0 && previous_domain_[i] != now)
      ++migrations_;
    previous_domain_[i] = now;
  }
}

} // namespace crowd

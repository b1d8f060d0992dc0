// An observer of a run as if it were split across MPI ranks (issue 13): it reads positions and
// phases and steers nothing. Each step it places every agent in its domain (DomainSplit),
// counts the agents that crossed into another domain since the last step (migrations) and, per
// domain, the agents of other domains within the halo of its box (the ghosts a rank would
// receive), and bisects again when the largest domain holds more than (1 + tolerance) times
// the mean. These are the figures that size the split's traffic (docs/distributed-model.md),
// taken from a real run on one process.
#pragma once

#include "host/distributed/domain_assignment.h"
#include "host/output/metrics.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

struct DomainFigures {
  int domains = 0;
  float halo = 0.0f;        ///< m
  int steps = 0;            ///< Steps observed.
  double mean_agents = 0;   ///< Per domain and step.
  int max_agents = 0;       ///< In any domain at any step.
  double mean_ghosts = 0;   ///< Per domain and step.
  int max_ghosts = 0;       ///< In any domain at any step.
  double halo_fraction = 0; ///< Ghosts over agents, all steps.
  double migrations_per_step = 0;
  long long rebalances = 0; ///< Bisections after the first.
};

class DomainTally {
public:
  /// `domains` >= 1; `halo` (m, >= 0): the largest query range plus a margin;
  /// `tolerance`: the imbalance that triggers a new bisection.
  DomainTally(int domains, float halo, float tolerance = 0.1f);

  void observe(std::span<const glm::vec3> positions, std::span<const AgentPhase> phases);
  DomainFigures figures() const;
  const DomainSplit& split() const { return assignment_.split(); }

private:
  DomainAssignment assignment_;
  std::vector<std::uint8_t> present_;
  std::vector<int> ghosts_; ///< Scratch, per domain.
  DomainFigures figures_;   ///< Its domains and halo too: the tally's settings.
  double agent_sum_ = 0, ghost_sum_ = 0;
};

} // namespace crowd

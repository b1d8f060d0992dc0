// Runs one verification scenario with the suite's backend, handing every step to the test's
// observers (host/verify/line_crossings.h, host/verify/area_sampler.h), which only read the
// simulation.
#pragma once

#include "host/output/metrics.h"
#include "host/verify/verify_types.h"

#include <functional>
#include <vector>

namespace crowd {

/// Called after every step, the initial state first (step 0).
using StepObserver = std::function<void(const Simulation&)>;

struct VerifyRun {
  MetricsSummary metrics;
  int steps = 0;         ///< Steps run.
  double seconds = 0.0;  ///< Simulated time at the end.
  bool all_done = false; ///< No agent left walking, waiting or still to enter.
};

/// Runs `scenario` until every agent has arrived or been removed, or for its whole step
/// count when `until_done` is false (or when they never all finish).
VerifyRun run_verify_scenario(const VerifyScenario& scenario, const VerifyContext& context,
                              const std::vector<StepObserver>& observers, bool until_done = true);

} // namespace crowd

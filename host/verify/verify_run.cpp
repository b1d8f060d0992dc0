#include "host/verify/verify_run.h"

#include <algorithm>

namespace crowd {
namespace {

bool all_done(const Simulation& sim) {
  const auto phases = sim.phases();
  return std::none_of(phases.begin(), phases.end(), [](AgentPhase p) {
    return p == AgentPhase::Walking || p == AgentPhase::Waiting || p == AgentPhase::Pending;
  });
}

} // namespace

VerifyRun run_verify_scenario(const VerifyScenario& scenario, const VerifyContext& context,
                              const std::vector<StepObserver>& observers, bool until_done) {
  Simulation sim(scenario.scenario, context.options);
  const int total = scenario.scenario.step_count();
  for (const StepObserver& observe : observers)
    observe(sim);
  VerifyRun run;
  while (sim.step_index() < total && !(until_done && all_done(sim))) {
    sim.step();
    for (const StepObserver& observe : observers)
      observe(sim);
    if (context.step_done)
      context.step_done(scenario.file_stem, sim.step_index(), total, sim.last_step_ms());
  }
  run.metrics = sim.metrics();
  run.steps = sim.step_index();
  run.seconds = sim.time();
  run.all_done = all_done(sim);
  return run;
}

} // namespace crowd

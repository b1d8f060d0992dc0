#include "cuda/core/executor.h"

namespace crowd {

// The one list of a step's kernel phases, in the order of dtCrowd::update (DetourCrowd.cpp):
// the proximity grid and neighbour queries, steering with separation, velocity planning
// (obstacle avoidance), integration, then collision handling, iterated. Each executor times
// its own phases (wall clock on the CPU, events on the CUDA stream) and reports them in
// end_step.
void Executor::step(AgentArrays& agents, const KernelStepParams& params, StageTimes& times) {
  begin_step(agents, params);
  build_grid();
  find_proximity();
  steer();
  choose_velocities();
  integrate();
  for (int pass = 0; pass < params.collision_iterations; ++pass)
    resolve_collisions(pass);
  end_step(times);
}

} // namespace crowd

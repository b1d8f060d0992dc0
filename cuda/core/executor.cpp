#include "cuda/core/executor.h"

#include "cuda/kernels/corridor_following.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/combinable.h>
#include <oneapi/tbb/parallel_for.h>

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

namespace {

template <class F> void for_each_agent(int count, F&& f) {
  tbb::parallel_for(tbb::blocked_range<int>(0, count, 16), [&](const tbb::blocked_range<int>& r) {
    for (int i = r.begin(); i < r.end(); ++i)
      f(i);
  });
}

} // namespace

void Executor::follow_corridors(AgentArrays& agents, float range_factor) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view();
  glm::vec2* preferred_velocity = agents.preferred_velocity.data();
  for_each_agent(agents.corridors.count(), [&](int i) {
    follow_corridor(i, navmesh_tables_, rows, view, preferred_velocity, range_factor);
  });
}

NavmeshCorrections Executor::move_corridors(AgentArrays& agents) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view();
  tbb::combinable<NavmeshCorrections> corrections;
  for_each_agent(agents.corridors.count(), [&](int i) {
    const float put_back = move_corridor_of_agent(i, navmesh_tables_, rows, view);
    corrections.local().add(put_back, view.radius[i]);
  });
  // Count and maximum do not depend on the order the workers are combined in.
  return corrections.combine([](const NavmeshCorrections& x, const NavmeshCorrections& y) {
    return NavmeshCorrections{x.count + y.count,
                              x.max_distance > y.max_distance ? x.max_distance : y.max_distance};
  });
}

} // namespace crowd

#include "cuda/core/executor.h"

#include "cuda/core/parallel_agents.h"
#include "cuda/kernels/corridor_following.h"

#include <algorithm>
#include <oneapi/tbb/combinable.h>
#include <stdexcept>

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

void Executor::set_agent_share(AgentShare* share) {
  if (share != nullptr)
    throw std::runtime_error("the " + name() +
                             " executor cannot split a run across processes: use the cpu or cuda "
                             "backend");
}

namespace {

/// The agents gathered by the workers in `asked`, ascending, into `out`. Reserved to the
/// total first, so that out's capacity (counted in the host memory figure) does not depend on
/// the order the workers' lists come in.
void gather_ascending(tbb::combinable<std::vector<std::int32_t>>& asked,
                      std::vector<std::int32_t>& out) {
  out.clear();
  std::size_t total = 0;
  asked.combine_each([&](const std::vector<std::int32_t>& some) { total += some.size(); });
  out.reserve(total);
  asked.combine_each([&](const std::vector<std::int32_t>& some) {
    out.insert(out.end(), some.begin(), some.end());
  });
  std::sort(out.begin(), out.end());
}

} // namespace

void Executor::fetch_corridor_starts(AgentArrays& agents, std::span<const std::int32_t> which,
                                     std::span<std::int32_t> first) {
  for (std::size_t j = 0; j < which.size(); ++j)
    first[j] = agents.corridors.first_polygon(which[j]);
}

void Executor::check_corridors(AgentArrays& agents) {
  const CorridorView rows = agents.corridors.view();
  parallel_for_each_agent(agents.corridors.count(), 64,
                          [&](int i) { check_corridor_of_agent(i, navmesh_tables_, rows); });
}

void Executor::follow_corridors(AgentArrays& agents, float range_factor) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view_without_rotations();
  const SteeringRow steering{agents.preferred_velocity.data(), agents.corridor_direction.data()};
  tbb::combinable<std::vector<std::int32_t>> asked;
  parallel_for_each_chunk(agents.corridors.count(), 16, [&](int begin, int end) {
    for (int i = begin; i < end; ++i)
      follow_corridor(i, navmesh_tables_, rows, view, steering, range_factor);
    // Then the chunk's flagged agents (rare), so that the loop above stays lean.
    for (int i = begin; i < end; ++i)
      if (rows.state[i] & kCorridorAskBits)
        asked.local().push_back(i);
  });
  gather_ascending(asked, agents.corridors.asked);
}

NavmeshCorrections Executor::move_corridors(AgentArrays& agents) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view_without_rotations();
  tbb::combinable<NavmeshCorrections> corrections;
  tbb::combinable<std::vector<std::int32_t>> asked;
  parallel_for_each_chunk(agents.corridors.count(), 16, [&](int begin, int end) {
    NavmeshCorrections chunk;
    for (int i = begin; i < end; ++i)
      chunk.add(move_corridor_of_agent(i, navmesh_tables_, rows, path_trees_, view),
                view.radius[i]);
    corrections.local().add(chunk);
    for (int i = begin; i < end; ++i)
      if (rows.state[i] & kCorridorAskMove)
        asked.local().push_back(i);
  });
  gather_ascending(asked, agents.corridors.asked);
  // Count and maximum do not depend on the order the chunks are combined in.
  NavmeshCorrections total;
  corrections.combine_each([&](const NavmeshCorrections& c) { total.add(c); });
  return total;
}

} // namespace crowd

#include "cuda/core/executor.h"

#include "cuda/core/parallel_agents.h"
#include "cuda/kernels/corridor_following.h"

#include <algorithm>
#include <oneapi/tbb/combinable.h>
#include <optional>
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
  check_corridors_of(agents, std::nullopt);
}

void Executor::follow_corridors(AgentArrays& agents, float range_factor) {
  follow_corridors_of(agents, range_factor, std::nullopt);
}

NavmeshCorrections Executor::move_corridors(AgentArrays& agents) {
  return move_corridors_of(agents, std::nullopt);
}

namespace {

/// The agent ids the corridor phases visit: [0, count), or `only`'s.
struct PhaseAgents {
  std::span<const std::int32_t> only;
  bool everyone = true;
  int count = 0;

  int size() const { return everyone ? count : static_cast<int>(only.size()); }
  int operator[](int k) const { return everyone ? k : only[static_cast<std::size_t>(k)]; }
};

PhaseAgents phase_agents(const AgentArrays& agents,
                         std::optional<std::span<const std::int32_t>> only) {
  return only ? PhaseAgents{*only, false, 0} : PhaseAgents{{}, true, agents.corridors.count()};
}

} // namespace

void Executor::check_corridors_of(AgentArrays& agents,
                                  std::optional<std::span<const std::int32_t>> only) {
  const CorridorView rows = agents.corridors.view();
  const PhaseAgents visit = phase_agents(agents, only);
  parallel_for_each_agent(visit.size(), 64,
                          [&](int k) { check_corridor_of_agent(visit[k], navmesh_tables_, rows); });
}

void Executor::follow_corridors_of(AgentArrays& agents, float range_factor,
                                   std::optional<std::span<const std::int32_t>> only) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view_without_rotations();
  const SteeringRow steering{agents.preferred_velocity.data(), agents.corridor_direction.data()};
  const PhaseAgents visit = phase_agents(agents, only);
  tbb::combinable<std::vector<std::int32_t>> asked;
  parallel_for_each_chunk(visit.size(), 16, [&](int begin, int end) {
    for (int k = begin; k < end; ++k)
      follow_corridor(visit[k], navmesh_tables_, rows, view, steering, range_factor);
    // Then the chunk's flagged agents (rare), so that the loop above stays lean.
    for (int k = begin; k < end; ++k)
      if (rows.state[visit[k]] & kCorridorAskBits)
        asked.local().push_back(visit[k]);
  });
  gather_ascending(asked, agents.corridors.asked);
}

NavmeshCorrections Executor::move_corridors_of(AgentArrays& agents,
                                               std::optional<std::span<const std::int32_t>> only) {
  const CorridorView rows = agents.corridors.view();
  const AgentView view = agents.view_without_rotations();
  const PhaseAgents visit = phase_agents(agents, only);
  tbb::combinable<NavmeshCorrections> corrections;
  tbb::combinable<std::vector<std::int32_t>> asked;
  parallel_for_each_chunk(visit.size(), 16, [&](int begin, int end) {
    NavmeshCorrections chunk;
    for (int k = begin; k < end; ++k) {
      const int i = visit[k];
      chunk.add(move_corridor_of_agent(i, navmesh_tables_, rows, path_trees_, view),
                view.radius[i]);
    }
    corrections.local().add(chunk);
    for (int k = begin; k < end; ++k)
      if (rows.state[visit[k]] & kCorridorAskMove)
        asked.local().push_back(visit[k]);
  });
  gather_ascending(asked, agents.corridors.asked);
  // Count and maximum do not depend on the order the chunks are combined in.
  NavmeshCorrections total;
  corrections.combine_each([&](const NavmeshCorrections& c) { total.add(c); });
  return total;
}

} // namespace crowd

#include "host/sim/agent_debug_view.h"

#include "cuda/kernels/avoidance.h"
#include "host/paths/corridor_navigator.h"
#include "host/sim/cpu_block.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"

#include <DetourNavMesh.h>
#include <algorithm>
#include <cfloat>
#include <type_traits>

namespace crowd {
namespace {

/// The corridor's polygons as outlines (Detour's polygon vertices, in order).
std::vector<std::vector<glm::vec3>> corridor_outlines(const NavMesh& navmesh,
                                                      std::span<const dtPolyRef> refs) {
  std::vector<std::vector<glm::vec3>> outlines;
  const dtNavMesh& mesh = navmesh.detour();
  for (const dtPolyRef ref : refs) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    if (dtStatusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly)))
      continue;
    std::vector<glm::vec3>& outline = outlines.emplace_back();
    for (int k = 0; k < poly->vertCount; ++k) {
      const float* v = &tile->verts[poly->verts[k] * 3];
      outline.emplace_back(v[0], v[1], v[2]);
    }
  }
  return outlines;
}

/// The CPU block interface (host/sim/cpu_block.h) scoring every sample in full, as the GPU
/// does, and making the reference's choice among them (LevelSamples::taken_at), which is
/// CpuBlock's answer; each admissible sample is recorded with its full penalty and level. A
/// time-to-collision fan is recorded besides in full, from the kernel's own context: every
/// sample's velocity, smoothed ratio and score (its ratio before smoothing is the scratch's).
class SampleRecordingBlock : public CpuBlock {
public:
  SampleRecordingBlock(std::vector<VelocitySample>& samples, std::vector<TtcDebugSample>& fan)
      : samples_(samples), fan_(fan) {}

  template <class Samples> ArgMin argmin(int n, const Samples& samples) {
    if constexpr (std::is_same_v<Samples, TtcSamples>) {
      for (int t = 0; t < n; ++t) {
        TtcDebugSample& s = fan_.emplace_back();
        s.velocity = samples.ctx->velocity(t);
        s.smoothed = samples.smoothed[t];
        s.score = s.smoothed < 0.0f ? -FLT_MAX : ttc_score(*samples.ctx, t, s.smoothed);
      }
    }
    ArgMin best;
    for (int t = 0; t < n; ++t) {
      SampleTerms terms;
      const float penalty = samples.full_penalty(t, terms);
      glm::vec2 velocity;
      if (!samples.velocity(t, velocity))
        continue;
      samples_.push_back({velocity, penalty, level_});
      if (samples.taken_at(penalty, terms, best.value))
        best = {penalty, t};
    }
    ++level_;
    return best;
  }

private:
  std::vector<VelocitySample>& samples_;
  std::vector<TtcDebugSample>& fan_;
  int level_ = 0;
};

} // namespace

AgentDebugView inspect_agent(const AgentArrays& a, const CorridorNavigator& navigator,
                             const NavMesh& navmesh, const StandoffParams& standoff, float dt,
                             int id) {
  AgentDebugView view;
  view.agent = id;
  // The neighbour and collider lists name rows; the view names agents (AgentArrays::id_of).
  const int row = a.row_of(id);
  const auto i = static_cast<std::size_t>(row);
  if (a.mode[i] == kAgentInactive)
    return view;
  const auto row_k = i * static_cast<std::size_t>(a.max_neighbors);
  const auto row_s = i * static_cast<std::size_t>(a.max_segments);
  for (int t = 0; t < a.neighbor_count[i]; ++t)
    view.neighbours.push_back(a.id_of(a.neighbor_index[row_k + static_cast<std::size_t>(t)]));
  for (int t = 0; t < a.segment_count[i]; ++t)
    view.wall_segments.push_back(a.segment[row_s + static_cast<std::size_t>(t)]);
  view.corridor = corridor_outlines(navmesh, navigator.corridor(id));

  const AvoidanceParams& own_params =
      a.avoidance_params[static_cast<std::size_t>(a.avoidance_set[i])];
  const bool ttc = own_params.model == kAvoidanceTtc;
  if (ttc) {
    view.ttc_state = a.ttc_state[i];
    for (int t = 0; t < view.ttc_state.collider_count; ++t)
      view.colliders.push_back(a.id_of(a.collider_index[row_k + static_cast<std::size_t>(t)]));
    // As ttc_choose_velocity tests its clocks: a forced passage first, else the stop clock.
    view.forced = ttc_clock_running(view.ttc_state.force_time, dt);
    view.stopped = !view.forced && ttc_clock_running(view.ttc_state.stop_time, dt);
  }

  // The avoidance kernel itself (choose_velocity) on a crowd of this agent (index 0), its
  // neighbours and its colliders (each agent once), through a block that records every sample
  // it scores.
  AgentArrays local;
  local.max_neighbors = a.max_neighbors;
  local.max_segments = a.max_segments;
  local.avoidance_params = {own_params};
  std::vector<int> copied; // the row in `a` of each agent of `local`
  const auto local_index = [&](int j) {
    const auto found = std::find(copied.begin(), copied.end(), j);
    if (found != copied.end())
      return static_cast<std::int32_t>(found - copied.begin());
    const auto at = static_cast<std::size_t>(j);
    const int k = local.append(a.position[at], a.radius[at], a.height[at], a.max_accel[at],
                               a.query_range[at], a.separation_weight[at], 0);
    const auto to = static_cast<std::size_t>(k);
    local.mode[to] = a.mode[at];
    local.desired_speed[to] = a.desired_speed[at];
    local.preferred_velocity[to] = a.preferred_velocity[at];
    local.corridor_direction[to] = a.corridor_direction[at];
    local.velocity[to] = a.velocity[at];
    local.desired_velocity[to] = a.desired_velocity[at];
    local.standoff_clock[to] = a.standoff_clock[at];
    copied.push_back(j);
    return static_cast<std::int32_t>(k);
  };
  local_index(row);
  local.neighbor_count[0] = static_cast<std::int32_t>(view.neighbours.size());
  for (std::size_t k = 0; k < view.neighbours.size(); ++k)
    local.neighbor_index[k] = local_index(a.row_of(view.neighbours[k]));
  local.segment_count[0] = static_cast<std::int32_t>(view.wall_segments.size());
  std::copy(view.wall_segments.begin(), view.wall_segments.end(), local.segment.begin());
  if (ttc) {
    local.ttc_state[0] = view.ttc_state;
    for (std::size_t k = 0; k < view.colliders.size(); ++k)
      local.collider_index[k] = local_index(a.row_of(view.colliders[k]));
  }

  // Its corridor row (fetched for view.corridor above), as local's row 0.
  AgentView local_view = local.view();
  local_view.corridors = a.corridor_rows(navigator.tables());
  if (local_view.corridors.polys != nullptr) {
    local_view.corridors.polys += i * static_cast<std::size_t>(a.corridors.capacity);
    local_view.corridors.size += i;
  }

  if (ttc && own_params.ttc.reference == kTtcCorridor)
    for_each_corridor_side(local_view.corridors, 0, [&](int, glm::vec2 p, glm::vec2 q) {
      view.corridor_sides.emplace_back(p.x, p.y, q.x, q.y);
    });

  SampleRecordingBlock block(view.samples, view.ttc_samples);
  CpuAvoidanceScratch scratch(local.max_neighbors, local.max_segments);
  const AvoidanceScratch shared = scratch.view();
  choose_velocity(block, 0, local_view, shared, standoff, dt);
  // The fan's ratios before smoothing, as the kernel left them in its scratch.
  for (std::size_t s = 0; s < view.ttc_samples.size(); ++s)
    view.ttc_samples[s].ratio = shared.ttc_ratio[s];
  view.chosen_velocity = local.new_velocity[0];
  const AvoidanceParams& params = local.avoidance_params[0];
  if (params.model == kAvoidanceMass) {
    // The pushes mass_velocity sums, before its speed limit.
    const AgentView agents = local.view();
    view.neighbour_push = mass_push(0, agents, params.mass);
    const glm::vec2 pushed = agents.desired_velocity[0] + view.neighbour_push;
    view.wall_push = held_off_walls(0, agents, params.mass, pushed) - pushed;
  }
  if (params.model == kAvoidanceOrca) {
    // The half-planes the linear program chose in (orca_velocity builds them the same way).
    view.half_planes.resize(
        static_cast<std::size_t>(orca_line_capacity(local.max_neighbors, local.max_segments)));
    const int count = orca_lines(0, local.view(), params.orca, dt, view.half_planes.data(),
                                 view.wall_half_planes);
    view.half_planes.resize(static_cast<std::size_t>(count));
  }
  return view;
}

std::optional<AgentDebugView> inspect_agent(const Simulation& simulation, int id) {
  const int index = simulation.backend_index(id); // validates the id
  const CrowdSolver* solver = simulation.crowd_solver();
  if (solver == nullptr)
    return std::nullopt;
  if (index < 0) {
    AgentDebugView waiting; // not entered yet: nothing the solver sees
    waiting.agent = id;
    return waiting;
  }
  // The solver's arrays are numbered by backend index; the view speaks agent ids.
  solver->read_back_for_inspection(index);
  AgentDebugView view = inspect_agent(solver->arrays(), solver->navigator(), simulation.navmesh(),
                                      solver->standoff_params(), simulation.scenario().dt, index);
  view.agent = id;
  for (int& neighbour : view.neighbours)
    neighbour = simulation.agent_of_backend_index(neighbour);
  for (int& collider : view.colliders)
    collider = simulation.agent_of_backend_index(collider);
  return view;
}

} // namespace crowd

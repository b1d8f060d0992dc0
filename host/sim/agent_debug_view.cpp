#include "host/sim/agent_debug_view.h"

#include "cuda/kernels/avoidance.h"
#include "host/paths/corridor_navigator.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"

#include <DetourNavMesh.h>
#include <cfloat>

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

} // namespace

AgentDebugView inspect_agent(const AgentArrays& a, const CorridorNavigator& navigator,
                             const NavMesh& navmesh, int id) {
  AgentDebugView view;
  view.agent = id;
  const auto i = static_cast<std::size_t>(id);
  if (a.mode[i] == kAgentInactive)
    return view;
  const auto row_k = i * static_cast<std::size_t>(a.max_neighbors);
  const auto row_s = i * static_cast<std::size_t>(a.max_segments);
  for (int t = 0; t < a.neighbor_count[i]; ++t)
    view.neighbours.push_back(a.neighbor_index[row_k + static_cast<std::size_t>(t)]);
  for (int t = 0; t < a.segment_count[i]; ++t)
    view.wall_segments.push_back(a.segment[row_s + static_cast<std::size_t>(t)]);
  view.corridor = corridor_outlines(navmesh, navigator.corridor(id));

  // choose_velocity (cuda/kernels/avoidance.h) step by step, keeping every sample.
  SamplerAgent agent;
  agent.position = a.position[i];
  agent.radius = a.radius[i];
  agent.max_speed = a.desired_speed[i];
  agent.velocity = a.velocity[i];
  agent.desired_velocity = a.desired_velocity[i];
  if (!(agent.max_speed > 0.0f))
    return view; // only the zero velocity is admitted; nothing is sampled
  const AvoidanceParams params = a.avoidance_params[static_cast<std::size_t>(a.avoidance_set[i])];
  std::vector<SamplerCircle> circles;
  for (const int j : view.neighbours) {
    const auto n = static_cast<std::size_t>(j);
    circles.push_back(
        prepare_circle(agent, a.position[n], a.radius[n], a.velocity[n], a.desired_velocity[n]));
  }
  std::vector<SamplerSegment> segments;
  for (const glm::vec4& s : view.wall_segments)
    segments.push_back(prepare_segment(agent, {s.x, s.y}, {s.z, s.w}));
  SamplerContext ctx = make_sampler_context(agent, params);
  ctx.circles = circles.data();
  ctx.circle_count = static_cast<int>(circles.size());
  ctx.segments = segments.data();
  ctx.segment_count = static_cast<int>(segments.size());
  std::vector<glm::vec2> pattern(kMaxPatternSamples);
  build_sample_pattern(params, agent.desired_velocity, pattern.data());
  const int samples = params.samples_per_level();

  float radius = agent.max_speed * (1.0f - params.vel_bias);
  glm::vec2 centre = agent.desired_velocity * params.vel_bias;
  for (int level = 0; level < params.adaptive_depth; ++level) {
    // The kernel's argmin: lowest penalty, ties to the lowest sample index.
    float best = FLT_MAX;
    glm::vec2 chosen{0.0f};
    for (int s = 0; s < samples; ++s) {
      glm::vec2 vcand;
      if (!candidate_velocity(ctx, centre, radius, pattern[static_cast<std::size_t>(s)], vcand))
        continue;
      const float penalty = sample_penalty(ctx, vcand, FLT_MAX);
      view.samples.push_back({vcand, penalty, level});
      if (penalty < best) {
        best = penalty;
        chosen = vcand;
      }
    }
    centre = chosen;
    radius *= 0.5f;
  }
  view.chosen_velocity = centre;
  return view;
}

std::optional<AgentDebugView> inspect_agent(const Simulation& simulation, int id) {
  simulation.position(id); // validates the id
  const CrowdSolver* solver = simulation.crowd_solver();
  if (solver == nullptr)
    return std::nullopt;
  return inspect_agent(solver->arrays(), solver->navigator(), simulation.navmesh(), id);
}

} // namespace crowd

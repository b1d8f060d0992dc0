// What the solver sees around one agent, for the viewer's debug overlays (as Recast's demo
// shows for its selected agent): the velocity samples of the avoidance stage with their
// penalties (DetourCrowd's sampling), its pushes (the force model), its half-planes (ORCA) or
// its fan with the time-to-collision ratios and its stop and passage clocks (the ttc model), the
// neighbours and wall segments the proximity stage found, and the corridor.
#pragma once

#include "cuda/core/agent_arrays.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/mass_avoidance.h"
#include "cuda/kernels/orca_avoidance.h"
#include "cuda/kernels/standoff.h"
#include "host/navmesh/navmesh.h"

#include <glm/glm.hpp>
#include <optional>
#include <vector>

namespace crowd {

class CorridorNavigator;
class Simulation;

/// One candidate velocity the sampler scored.
struct VelocitySample {
  glm::vec2 velocity{0.0f}; ///< (vx, vz) m/s
  float penalty = 0.0f;     ///< The full penalty (no early exit).
  int level = 0;            ///< Refinement level, 0 = the coarsest pattern.
};

/// One sample of a time-to-collision agent's fan (cuda/kernels/ttc_avoidance.h).
struct TtcDebugSample {
  glm::vec2 velocity{0.0f}; ///< (vx, vz) m/s: TtcContext::velocity.
  /// Time to collision over the horizon, in [0, 1] (1 safest), before smoothing; kTtcLeaves (-1)
  /// for a velocity that leaves the navmesh (ttc_ratio).
  float ratio = 0.0f;
  float smoothed = 0.0f; ///< With its neighbours in the fan (ttc_smoothed_ratio); -1 leaves.
  /// ttc_score from the smoothed ratio (the highest admissible wins); -FLT_MAX for a sample that
  /// leaves the navmesh, which is never taken.
  float score = 0.0f;
};

struct AgentDebugView {
  int agent = -1;
  std::vector<VelocitySample> samples;
  /// An ORCA agent's half-planes of permitted velocities (m/s, relative to nothing: velocity
  /// space), the walls' first; empty for the other models.
  std::vector<OrcaLine> half_planes;
  int wall_half_planes = 0; ///< How many of half_planes are walls'.
  /// A force-model agent's pushes (m/s): the neighbours' (separation and predictive avoidance)
  /// and what the walls changed of the velocity; zero for the other models.
  glm::vec2 neighbour_push{0.0f};
  glm::vec2 wall_push{0.0f};
  /// A time-to-collision agent's fan, every sample in the kernel's order (ring after ring of
  /// directions, then the zero velocity); empty when the kernel scores none (the agent waits
  /// out its stop clock or has nowhere to go) and for the other models.
  std::vector<TtcDebugSample> ttc_samples;
  /// A time-to-collision agent's colliders (agent ids, as collected: nearest first then), and
  /// its state before the step: its TtcState, whether it waits out its stop clock (`stopped`:
  /// it scores nothing and stands) and whether a forced passage runs (`forced`: the colliders
  /// are ignored).
  std::vector<int> colliders;
  TtcState ttc_state;
  bool stopped = false;
  bool forced = false;
  glm::vec2 chosen_velocity{0.0f};      ///< The avoidance stage's answer for this state.
  std::vector<int> neighbours;          ///< Agent ids, nearest first.
  std::vector<glm::vec4> wall_segments; ///< (p.x, p.z, q.x, q.z)
  /// A time-to-collision agent in corridor mode: the sides of its corridor section, which its
  /// samples must not cross (cuda/kernels/corridor_sides.h), as (p.x, p.z, q.x, q.z); empty
  /// otherwise.
  std::vector<glm::vec4> corridor_sides;
  std::vector<std::vector<glm::vec3>> corridor; ///< Polygon outlines, the agent's own first.
};

/// Re-runs avoidance for agent `id` on the state the last step left in `arrays` (its neighbour
/// and wall lists and desired velocity from that step; positions and velocities after it):
/// the avoidance kernel itself (choose_velocity, cuda/kernels/avoidance.h) through a block
/// that records every sample, with the standoff breaker's horizon and the step `dt` as the step
/// ran them, on a crowd of the agent, its neighbours and (time-to-collision model) its colliders,
/// with its clocks as the last step left them. An inactive agent gets no samples.
AgentDebugView inspect_agent(const AgentArrays& arrays, const CorridorNavigator& navigator,
                             const NavMesh& navmesh, const StandoffParams& standoff, float dt,
                             int id);

/// The same for agent `id` of a simulation (agent ids throughout, the neighbours' and colliders'
/// too, although the solver numbers its agents in the order they entered); an agent that has not
/// entered yet gets an empty view. Nothing for the detour backend, whose internals are
/// DetourCrowd's own. Throws ApiError for an unknown id.
std::optional<AgentDebugView> inspect_agent(const Simulation& simulation, int id);

} // namespace crowd

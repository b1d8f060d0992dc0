// The per-agent state the kernels read and write: structure of arrays, one plain pointer per
// field, valid on the side (host or device) the executor runs on. Kernels never allocate.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "cuda/common/hd.h"
#include "cuda/kernels/navmesh_tables.h"

#include <cstdint>

namespace crowd {

/// How an agent takes part in a step.
enum AgentMode : std::uint8_t {
  kAgentInactive = 0, ///< Removed or not yet added: invisible to everyone.
  kAgentMoving = 1,   ///< Follows its preferred velocity.
  kAgentStanding = 2, ///< Preferred velocity zero; still avoided and pushed (DetourCrowd's
                      ///< agent with a zero velocity request).
  kAgentOnLink = 3,   ///< Crossing an off-mesh link, moved along it by the host
                      ///< (DT_CROWDAGENT_STATE_OFFMESH): at rest to the kernels, which do
                      ///< not move it, and avoided by the others.
};

/// Whether the kernel stages move the agent themselves (its steering, avoidance, integration,
/// collision push and corridor move): a moving or a standing agent, not an inactive one nor one
/// crossing a link.
CROWD_HD bool kernels_move(std::uint8_t mode) {
  return mode == kAgentMoving || mode == kAgentStanding;
}

/// Which side an agent keeps to when it breaks a standoff (cuda/kernels/standoff.h). A code,
/// not a signed -1/+1: GPGPU-Sim loads a signed byte without extending its sign.
enum StandoffSide : std::uint8_t {
  kStandoffOff = 0,   ///< No breaker: DetourCrowd's behaviour.
  kStandoffRight = 1, ///< Keep right.
  kStandoffLeft = 2,  ///< Keep left.
};

/// Bits of AgentView::status. The proximity stage sets the truncation bits every step, so
/// truncation is never silent; the fault bits are sticky and say which stage computed a
/// non-finite value for the agent (cuda/kernels/fault_guard.h).
enum AgentStatusBits : std::uint8_t {
  kNeighborsTruncated = 1u << 0, ///< More agents in range than max_neighbors.
  kSegmentsTruncated = 1u << 1,  ///< More wall segments in range than max_wall_segments.
  kFaultSteering = 1u << 2,      ///< Desired velocity (steering + separation) was non-finite.
  kFaultIntegration = 1u << 3,   ///< Integrated velocity or position was non-finite.
  kFaultCollision = 1u << 4,     ///< A collision displacement was non-finite.
  kFaultBits = kFaultSteering | kFaultIntegration | kFaultCollision,
};

/// The time-to-collision model's state of an agent (cuda/kernels/ttc_avoidance.h): its collider
/// list's size and refresh countdown (written by the proximity stage), and its clocks (written
/// by the avoidance stage). Zero for a new agent: it collects its colliders on its first step.
struct TtcState {
  std::int32_t collider_count = 0;    ///< Entries of its AgentView::collider_index row.
  std::int32_t frames_to_refresh = 0; ///< Steps before the list is collected again; 0: this one.
  float stop_time = 0.0f;             ///< Seconds it stays stopped, after this step.
  float blocked_time = 0.0f;          ///< Seconds it has wanted to move but stood still.
  float force_time = 0.0f;            ///< Seconds of forced passage left.

  constexpr bool operator==(const TtcState&) const = default;
};

/// The agents' path corridors as the corridor phases left them this step (CorridorArrays,
/// cuda/core/corridor_arrays.h: each row the dense indices of its polygons, the agent's own
/// first) and the navmesh tables those index: where the time-to-collision model's corridor mode
/// finds the sides of an agent's corridor (corridor_sides.h). Without rows (polys null) where
/// the executor has no tables or the agents no corridors.
struct AgentCorridorsView {
  NavmeshTablesView nav;
  const std::int32_t* polys = nullptr; // [count * capacity]
  const std::int32_t* size = nullptr;  // [count]
  int capacity = 0;
};

struct AgentView {
  int count = 0;         ///< Agents, active or not: the rows.
  int max_neighbors = 0; ///< K: row length of the neighbour arrays.
  int max_segments = 0;  ///< S: row length of the segment arrays.
  /// [count] the id of the agent in each row, or null where row i is agent i (every run today).
  /// Every per-agent field is indexed by row, and the neighbour, collider and standoff partner
  /// fields hold rows; the ids only order what is ordered by agent (agent_of_row), so that the
  /// stages give every agent the same result whatever row it is in (AgentArrays::reorder_rows).
  const std::int32_t* agent_id = nullptr;

  // Inputs, written by the host each step or when they change.
  const std::uint8_t* mode = nullptr;                // [count] AgentMode
  const float* radius = nullptr;                     // [count] m
  const float* height = nullptr;                     // [count] m
  const float* max_accel = nullptr;                  // [count] m/s^2
  const float* query_range = nullptr;                // [count] m, neighbours and walls
  const float* separation_weight = nullptr;          // [count]
  const std::int32_t* avoidance_set = nullptr;       // [count] index into avoidance_params
  const AvoidanceParams* avoidance_params = nullptr; // [sets]
  const PatternRotation* pattern_rotation = nullptr; // [sets] of avoidance_params[set]
  const glm::vec2* preferred_velocity = nullptr;     // [count] from the corridor, m/s (x, z)
  const float* desired_speed = nullptr;              // [count] m/s
  /// Across the corridor section between the agent's current two portals (unit, x/z; zero when
  /// no portal is left), from the corridor (SteeringRow): the ttc model's corridor reference.
  const glm::vec2* corridor_direction = nullptr; // [count]
  const std::uint8_t* standoff_side = nullptr;   // [count] StandoffSide
  AgentCorridorsView corridors;                  ///< Read by the ttc model's corridor mode.

  // State.
  glm::vec3* position = nullptr;            // [count]
  glm::vec2* velocity = nullptr;            // [count] (x, z)
  glm::vec2* desired_velocity = nullptr;    // [count] after separation (DetourCrowd's dvel)
  glm::vec2* new_velocity = nullptr;        // [count] chosen by avoidance (nvel)
  glm::vec2* displacement = nullptr;        // [count] collision push of one pass
  glm::vec2* standoff_clock = nullptr;      // [count] cuda/kernels/standoff.h
  std::int32_t* standoff_partner = nullptr; // [count] cuda/kernels/standoff.h
  TtcState* ttc_state = nullptr;            // [count] cuda/kernels/ttc_avoidance.h
  /// The ttc model's colliders, nearest first when collected (ttc_state[i].collider_count).
  std::int32_t* collider_index = nullptr; // [count * max_neighbors]

  // Proximity results.
  std::int32_t* neighbor_index = nullptr; // [count * max_neighbors], nearest first
  float* neighbor_distance_sq = nullptr;  // [count * max_neighbors]
  std::int32_t* neighbor_count = nullptr; // [count]
  glm::vec4* segment = nullptr;           // [count * max_segments] (p.x, p.z, q.x, q.z)
  std::int32_t* segment_count = nullptr;  // [count]
  std::uint8_t* status = nullptr;         // [count] AgentStatusBits
};

/// The id of the agent in `row`: what ties between agents are broken by (the nearer neighbour
/// first, the lower id at equal distance; which of two agents on one spot goes which way).
CROWD_HD std::int32_t agent_of_row(const AgentView& v, int row) {
  return v.agent_id != nullptr ? v.agent_id[row] : row;
}

} // namespace crowd

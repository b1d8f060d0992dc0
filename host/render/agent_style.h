// Colours of everything drawn, and how an agent's colour is chosen. The shaders receive these
// as uniforms (agents.vert interpolates speed_stops exactly as speed_colour does), so this file
// is the one place a colour is defined, and tests can predict a pixel.
#pragma once

#include "host/output/character_cast.h"
#include "host/scenario/population.h"

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

/// What an agent is doing, as far as a frame shows it (so live and replay agree).
enum class AgentState : std::uint8_t {
  Walking = 0, ///< Moving at 10% of its top speed or more.
  Slowed = 1,  ///< Not at its goal and nearly standing: blocked or queueing.
  AtGoal = 2,  ///< Within its arrival radius of its goal.
  /// Nearly standing within its arrival radius of a waypoint where its route waits (the
  /// simulation's AgentPhase::Waiting, as a frame shows it): standing on purpose, not stuck.
  Waiting = 3,
};
inline constexpr int kAgentStates = 4;
/// Colours of `--colour type`; the palette repeats after this many type labels.
inline constexpr int kTypeColourCount = static_cast<int>(kOkabeItoPalette.size());

namespace palette {
inline constexpr glm::vec3 kBackground{0.96f, 0.96f, 0.94f};
inline constexpr glm::vec3 kNavmeshFill{0.80f, 0.87f, 0.93f};
inline constexpr glm::vec3 kNavmeshEdge{0.66f, 0.75f, 0.84f};
inline constexpr glm::vec3 kWall{0.22f, 0.24f, 0.28f};
/// Off-mesh links (scenario world.links), over the walls they lead across.
inline constexpr glm::vec3 kOffMeshLink{0.45f, 0.15f, 0.75f};
inline constexpr glm::vec4 kTrail{0.35f, 0.40f, 0.55f, 0.55f};
/// Speed / top speed 0, 0.5 and 1: red when stuck, amber, green at full speed.
inline constexpr glm::vec3 kSpeedStops[3] = {
    {0.85f, 0.16f, 0.16f}, {0.96f, 0.66f, 0.10f}, {0.18f, 0.66f, 0.30f}};
/// Walking blue, slowed orange, at goal grey, waiting teal.
inline constexpr glm::vec3 kStateColours[kAgentStates] = {
    {0.20f, 0.45f, 0.85f}, {0.90f, 0.35f, 0.10f}, {0.55f, 0.55f, 0.60f}, {0.05f, 0.62f, 0.55f}};
/// By type label, in order of first appearance among the agents (by id): the film exports'
/// palette (host/output/character_cast.h).
inline constexpr const std::array<glm::vec3, kTypeColourCount>& kTypeColours = kOkabeItoPalette;
inline constexpr glm::vec4 kSelection{0.95f, 0.10f, 0.75f, 1.0f};
inline constexpr glm::vec4 kNeighbourLink{0.95f, 0.10f, 0.75f, 0.9f};
inline constexpr glm::vec4 kWallSegment{1.00f, 0.45f, 0.00f, 1.0f};
/// The sides of a time-to-collision agent's corridor section in corridor mode: walls to it.
inline constexpr glm::vec4 kCorridorSide{0.85f, 0.70f, 0.00f, 1.0f};
inline constexpr glm::vec4 kCorridorFill{0.30f, 0.80f, 0.55f, 0.35f};
inline constexpr glm::vec4 kCorridorEdge{0.15f, 0.55f, 0.35f, 0.9f};
inline constexpr glm::vec4 kChosenVelocity{0.10f, 0.10f, 0.10f, 1.0f};
/// ORCA's half-planes and the force model's pushes: from neighbours, from walls.
inline constexpr glm::vec4 kAgentHalfPlane{0.20f, 0.35f, 0.90f, 0.9f};
inline constexpr glm::vec4 kWallHalfPlane{1.00f, 0.45f, 0.00f, 0.9f};
/// The time-to-collision fan: a sample whose velocity leaves the navmesh (the others are shaded
/// by their ratio, ttc_ratio_colour); the ring around an agent waiting out its stop clock, and
/// around one forcing its way.
inline constexpr glm::vec4 kTtcLeaves{0.50f, 0.20f, 0.80f, 1.0f};
inline constexpr glm::vec4 kTtcStopped{0.80f, 0.05f, 0.20f, 1.0f};
inline constexpr glm::vec4 kTtcForced{0.00f, 0.70f, 0.90f, 1.0f};
} // namespace palette

/// The colour agents.vert gives an agent moving at `ratio` of its top speed.
glm::vec3 speed_colour(float ratio);
/// A penalty as a colour, as Recast's demo draws its samples: white (lowest) to dark (highest)
/// over [lowest, highest].
glm::vec4 penalty_colour(float penalty, float lowest, float highest);

/// A time-to-collision ratio as a colour: red (0, colliding now) through amber to green (1, safe
/// within the horizon), as speed_colour; palette::kTtcLeaves for a negative ratio (kTtcLeaves:
/// the velocity leaves the navmesh).
glm::vec4 ttc_ratio_colour(float ratio);

/// Each agent's type colour: the index into palette::kTypeColours of its type label's place
/// among the labels in order of first appearance (agent 0's label first), modulo the palette.
std::vector<float> agent_type_colours(const std::vector<AgentSetup>& setups);

/// Each agent's state in this frame (AgentState), from what the frame shows, so that a live run
/// and its replay agree.
std::vector<float> agent_states(const std::vector<AgentSetup>& setups,
                                std::span<const glm::vec3> positions,
                                std::span<const glm::vec2> velocities);

} // namespace crowd

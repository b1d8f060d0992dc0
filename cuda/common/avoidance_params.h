// Parameters of the avoidance models: DetourCrowd's adaptive velocity sampling
// (dtObstacleAvoidanceParams) with the four presets of Recast's demo crowd tool
// (RecastDemo/Source/Tool_Crowd.cpp, slots 0-3), the force model of Unreal's Mass crowds, and
// ORCA (the RVO2 library's optimal reciprocal collision avoidance).
#pragma once

#include <cstdint>
#include <string_view>

namespace crowd {

/// The largest sampling pattern: DT_MAX_PATTERN_DIVS x DT_MAX_PATTERN_RINGS + the zero sample.
inline constexpr int kMaxPatternDivs = 32;
inline constexpr int kMaxPatternRings = 4;
inline constexpr int kMaxPatternSamples = kMaxPatternDivs * kMaxPatternRings + 1;

/// How an agent avoids others and walls (AvoidanceParams::model).
enum AvoidanceModel : std::int32_t {
  /// DetourCrowd's adaptive velocity sampling (cuda/kernels/avoidance.h).
  kAvoidanceDetour = 0,
  /// Forces that bend the desired velocity, as in Unreal's Mass crowds
  /// (cuda/kernels/mass_avoidance.h).
  kAvoidanceMass = 1,
  /// Optimal reciprocal collision avoidance, as in the RVO2 library
  /// (cuda/kernels/orca_avoidance.h).
  kAvoidanceOrca = 2,
  /// A fan of velocity samples scored by time to collision, as the middleware navigation of
  /// many shipped games steers (cuda/kernels/ttc_avoidance.h).
  kAvoidanceTtc = 3,
};

/// A model's name in scenarios (`avoidance: {"model": ...}`) and on the command line.
struct AvoidanceModelName {
  AvoidanceModel model;
  const char* name;
};
/// Every model by name, in the order they are listed to users: the one list the scenario
/// reader, the options and their messages check names against.
inline constexpr AvoidanceModelName kAvoidanceModelNames[] = {{kAvoidanceDetour, "detour"},
                                                              {kAvoidanceTtc, "ttc"},
                                                              {kAvoidanceMass, "mass"},
                                                              {kAvoidanceOrca, "orca"}};

/// The model called `name`, or nullptr when no model is.
constexpr const AvoidanceModelName* find_avoidance_model(std::string_view name) {
  for (const AvoidanceModelName& known : kAvoidanceModelNames)
    if (name == known.name)
      return &known;
  return nullptr;
}

/// `model`'s name.
constexpr const char* avoidance_model_name(AvoidanceModel model) {
  for (const AvoidanceModelName& known : kAvoidanceModelNames)
    if (model == known.model)
      return known.name;
  return "unknown";
}

/// Where the time-to-collision model centres its fan of samples (TtcAvoidanceParams).
enum TtcReference : std::int32_t {
  /// Along the path toward the next corner (the preferred velocity's direction).
  kTtcShortcut = 0,
  /// Across the corridor section between the current two portals: toward the middle of the
  /// next portal, turning toward the middle of the one after (SteeringRow::corridor_direction).
  kTtcCorridor = 1,
};

/// The largest fan of the time-to-collision model: kMaxTtcDirections directions at full speed,
/// the same at half speed, and the zero velocity.
inline constexpr int kMaxTtcDirections = 32;
inline constexpr int kTtcSpeedRings = 2;
inline constexpr int kMaxTtcSamples = kMaxTtcDirections * kTtcSpeedRings + 1;
static_assert(kMaxTtcSamples <= kMaxPatternSamples, "the fan lives in the pattern's scratch");

/// The force model's parameters (scenario `avoidance: {"model": "mass", ...}`).
struct MassAvoidanceParams {
  /// Neighbours closer than the sum of the radii plus this push apart, m. [> 0]
  float separation_distance = 0.3f;
  /// Push at full penetration of separation_distance, m/s; it grows with the square of the
  /// penetration ratio. [>= 0]
  float separation_stiffness = 2.0f;
  /// How far ahead the closest approach of two agents is looked for, s. [> 0]
  float predictive_time = 2.0f;
  /// A closest approach nearer than the sum of the radii plus this is avoided, m. [> 0]
  float predictive_distance = 0.5f;
  /// Push away from an imminent closest approach (fading with its time), m/s. [>= 0]
  float predictive_stiffness = 1.2f;
  /// Factor on both pushes from a standing agent, so that a moving agent can make its way
  /// through a standing crowd. [0, 1]
  float standing_obstacle_scale = 0.4f;
  /// Within this distance of a wall segment (the navmesh boundary, already inset by the agent
  /// radius) the velocity into it is taken away, all of it at the segment, m. [> 0]
  float wall_distance = 0.5f;
  /// Push along the wall's normal at the segment, falling off with the square of the distance
  /// over wall_distance, m/s. [>= 0]
  float wall_stiffness = 0.3f;

  constexpr bool operator==(const MassAvoidanceParams&) const = default;
};

/// ORCA's parameters (scenario `avoidance: {"model": "orca", ...}`); the neighbours and wall
/// segments are the agent's proximity rows, its radius and speed its own.
struct OrcaAvoidanceParams {
  /// How far ahead collisions with other agents are avoided, s (RVO2's timeHorizon). [> 0]
  float time_horizon = 2.5f;
  /// How far ahead collisions with walls are avoided, s (RVO2's timeHorizonObst). [> 0]
  float time_horizon_obstacles = 1.0f;

  constexpr bool operator==(const OrcaAvoidanceParams&) const = default;
};

/// The time-to-collision model's parameters (scenario `avoidance: {"model": "ttc", ...}`).
/// Flags are 0/1 integers, so that the structure has no padding (checkpoints save its bytes).
struct TtcAvoidanceParams {
  /// Agents within this distance (x/z) are collected as colliders, m. [> 0]
  float collector_radius = 4.0f;
  /// ... and within this height above and below the agent, m. [> 0]
  float collector_half_height = 1.0f;
  /// Steps between refreshes of the collider list; the colliders' positions and velocities are
  /// read every step, only the membership is kept. [1, 1000]
  std::int32_t collector_frames_between_updates = 4;
  /// TtcReference: the direction the fan is centred on.
  std::int32_t reference = kTtcShortcut;
  /// Directions of the fan. [2, kMaxTtcDirections]
  std::int32_t sample_count = 15;
  /// Degrees the fan spans, centred on the reference direction; 360 is a full circle. (0, 360]
  float angle_span = 240.0f;
  /// 1: the fan again at half the desired speed. [0, 1]
  std::int32_t enable_slowing_down = 1;
  /// 1: the zero velocity is a sample too, and an agent about to collide stops and waits. [0, 1]
  std::int32_t enable_stop = 1;
  /// Colliders are enlarged by this, m. [>= 0]
  float safety_distance = 0.05f;
  /// Times to collision at or beyond this count as safe, s. [> 0]
  float time_horizon = 2.0f;
  /// Weight of the (smoothed) time-to-collision ratio in a sample's score. [>= 0]
  float time_to_collision_influence = 1.0f;
  /// Weight of closeness to the desired velocity. [>= 0]
  float desired_velocity_influence = 1.0f;
  /// Weight of closeness to the previous velocity. [>= 0]
  float previous_velocity_influence = 0.2f;
  /// When even the best sample collides sooner than this, the agent stops, s. [>= 0]
  float stop_collision_time = 0.3f;
  /// ... and stays stopped this long before moving again, s. [>= 0]
  float stop_wait_time = 0.5f;
  /// 1: an agent blocked for wait_passage_time_limit may force its way. [0, 1]
  std::int32_t enable_force_passage = 1;
  /// Seconds blocked (stopped, or choosing the zero velocity) before a forced passage. [> 0]
  float wait_passage_time_limit = 2.0f;
  /// Seconds a forced passage lasts: colliders are ignored, walls are not. [> 0]
  float force_passage_time_limit = 1.0f;

  constexpr bool operator==(const TtcAvoidanceParams&) const = default;
};

struct AvoidanceParams {
  std::int32_t model = kAvoidanceDetour; ///< AvoidanceModel.
  MassAvoidanceParams mass;              ///< Read when model is kAvoidanceMass.
  OrcaAvoidanceParams orca;              ///< Read when model is kAvoidanceOrca.
  TtcAvoidanceParams ttc;                ///< Read when model is kAvoidanceTtc.
  float vel_bias = 0.4f;                 ///< Pattern centre = desired velocity x vel_bias. [0, 1]
  float weight_des_vel = 2.0f;     ///< Penalty weight of |v - desired velocity| / vmax. [>= 0]
  float weight_cur_vel = 0.75f;    ///< Penalty weight of |v - current velocity| / vmax. [>= 0]
  float weight_side = 0.75f;       ///< Penalty weight of passing on the non-preferred side. [>= 0]
  float weight_toi = 2.5f;         ///< Penalty weight of an early time of impact. [>= 0]
  float horiz_time = 2.5f;         ///< Time horizon of the time-of-impact test, seconds. [> 0]
  std::int32_t adaptive_divs = 7;  ///< Samples per ring. [1, 32]
  std::int32_t adaptive_rings = 2; ///< Rings of the pattern. [1, 4]
  std::int32_t adaptive_depth = 5; ///< Refinement levels, each halving the radius. [>= 1]

  /// Same parameters, field by field (agents sharing them share one parameter set).
  constexpr bool operator==(const AvoidanceParams&) const = default;

  /// Samples in one level of the pattern: one per div per ring plus the zero sample.
  constexpr int samples_per_level() const {
    const int divs =
        adaptive_divs < 1 ? 1 : (adaptive_divs > kMaxPatternDivs ? kMaxPatternDivs : adaptive_divs);
    const int rings = adaptive_rings < 1
                          ? 1
                          : (adaptive_rings > kMaxPatternRings ? kMaxPatternRings : adaptive_rings);
    return divs * rings + 1;
  }
};

/// The two rotations of the sampling pattern (build_sample_pattern): by one div, 2 pi / divs,
/// and by half a div (for the time-to-collision model: by its fan's step, and to its first
/// direction; build_ttc_fan). They depend on the parameters alone, so the host computes them once
/// per parameter set (pattern_rotation, cuda/core/avoidance_pattern.h) with the C library's
/// cosf/sinf, as DetourCrowd does, and both executors rotate by the same floats: the device's
/// cosf/sinf differ from glibc's by an ulp or two, and were the one operation that kept the
/// CUDA executor's results from equalling the CPU's bit for bit.
struct PatternRotation {
  float cos_div = 1.0f, sin_div = 0.0f;
  float cos_half_div = 1.0f, sin_half_div = 0.0f;
};

enum class AvoidancePreset { Low, Medium, Good, High };

/// RecastDemo's presets: dtCrowd::init's defaults with vel_bias 0.5 and
/// (divs, rings, depth) = low (5,2,1), medium (5,2,2), good (7,2,3), high (7,3,3).
constexpr AvoidanceParams avoidance_preset(AvoidancePreset preset) {
  AvoidanceParams p;
  p.vel_bias = 0.5f;
  switch (preset) {
  case AvoidancePreset::Low:
    p.adaptive_divs = 5, p.adaptive_rings = 2, p.adaptive_depth = 1;
    break;
  case AvoidancePreset::Medium:
    p.adaptive_divs = 5, p.adaptive_rings = 2, p.adaptive_depth = 2;
    break;
  case AvoidancePreset::Good:
    p.adaptive_divs = 7, p.adaptive_rings = 2, p.adaptive_depth = 3;
    break;
  case AvoidancePreset::High:
    p.adaptive_divs = 7, p.adaptive_rings = 3, p.adaptive_depth = 3;
    break;
  }
  return p;
}

/// Model `model` with its default parameters, as a scenario's `{"model": ...}` object with no
/// other key gives it: "good"'s sampling parameters with the model named (the reader starts
/// every object from "good"), so that equal settings make equal parameter sets.
constexpr AvoidanceParams avoidance_defaults(AvoidanceModel model) {
  AvoidanceParams p = avoidance_preset(AvoidancePreset::Good);
  p.model = model;
  return p;
}

} // namespace crowd

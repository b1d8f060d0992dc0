// The scenario file format, version 1 (shared/spec/scenario.md): the parsed, validated form.
// Parsing is in scenario_reader.cpp; turning groups into concrete agents on the navmesh is
// population.h's job, because it needs the walkable surface.
#pragma once

#include "cuda/common/avoidance_params.h"
#include "host/scenario/character_clips.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <map>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {

/// A scenario that cannot be used. what() is the one-line message shown to the user:
/// "<file>: <json path>: <what is wrong>", for example
/// "circle.json: agents[12].radius: must be a number > 0, got -1".
class ScenarioError : public std::runtime_error {
public:
  ScenarioError(std::string file, std::string json_path, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  const std::string& problem() const { return problem_; }

private:
  std::string file_, json_path_, problem_;
};

/// How Recast partitions the walkable surface into regions (RecastDemo's "Partitioning"):
/// rcBuildRegions, rcBuildRegionsMonotone or rcBuildLayerRegions.
enum class NavmeshPartitioning : std::uint8_t { Watershed, Monotone, Layers };

/// Recast build settings (scenario `world.navmesh`, docs/scenario-extensions.md). Units:
/// metres and degrees unless a field says cells (cell_size) or cell heights (cell_height).
/// The defaults are RecastDemo's, except where a comment says otherwise.
struct NavmeshSettings {
  /// Unset: chosen from the agent radius and the world's size (navmesh/default_cell_size.h).
  std::optional<float> cell_size;
  float cell_height = 0.2f;
  std::optional<float> agent_radius; ///< Unset: the largest agent radius of the scenario.
  float agent_height = 2.0f;
  float max_climb = 0.9f;
  float max_slope = 45.0f;
  /// Side of a square tile in cells. Unset: one tile when the world fits Recast's single-tile
  /// limits, otherwise tiles of a default size the build chooses.
  std::optional<int> tile_size;
  int region_min_size = 8;    ///< Cells, side length (Recast's minRegionArea is its square).
  int region_merge_size = 20; ///< Cells, side length (mergeRegionArea is its square).
  NavmeshPartitioning partitioning = NavmeshPartitioning::Watershed;
  float max_edge_length = 12.0f; ///< Metres; 0 = no limit.
  float max_edge_error = 0.75f;  ///< Cells (RecastDemo's default is 1.3).
  int verts_per_poly = 6;
  float detail_sample_distance = 6.0f;  ///< Cells; below 0.9 no detail sampling.
  float detail_sample_max_error = 1.0f; ///< Cell heights.
};

/// A simple polygon on the ground plane, points as (x, z).
using Polygon2D = std::vector<glm::vec2>;

/// Scenario extension `world.periodic` (docs/scenario-extensions.md): the axis along which a
/// 2D world repeats, its bounds being one period.
enum class PeriodicAxis : std::uint8_t { None, X, Z };

/// A point given as [x, z] (height found on the walkable surface) or [x, y, z].
struct PointSpec {
  glm::vec3 position{0.0f}; ///< y is 0 when has_height is false.
  bool has_height = false;
};

/// Scenario extension `world.links`: an off-mesh link (a Recast off-mesh connection), a way
/// between two points of the navmesh that is not walked on it: a jump, a ladder, a door in a
/// wall. Agents path through it and cross it as DetourCrowd does (docs/scenario-extensions.md).
struct LinkSpec {
  PointSpec start, end;
  /// How far from each end the navmesh may be for the link to connect to it, m; unset: the
  /// navmesh's agent radius (RecastDemo's default).
  std::optional<float> radius;
  bool bidirectional = true;
  int area = 0;  ///< Detour area id of the link's polygon, [0, 63] (the ground's is 0).
  int flags = 1; ///< Detour polygon flags, [0, 65535]; the ground's are 1.
};

struct WorldSpec {
  // Exactly one of the two descriptions is set.
  struct Bounds2D {
    glm::vec2 min{0.0f}; ///< (xmin, zmin)
    glm::vec2 max{0.0f}; ///< (xmax, zmax)
  };
  std::optional<Bounds2D> bounds;   ///< 2D world: floor at y = 0 ...
  std::vector<Polygon2D> obstacles; ///< ... with these 2 m prisms standing on it.
  std::filesystem::path mesh;       ///< Mesh world: absolute path of the OBJ file.
  NavmeshSettings navmesh;
  /// 2D worlds only: agents leaving the bounds at one end of this axis re-enter at the other
  /// (host/scenario/periodic_world.h).
  PeriodicAxis periodic = PeriodicAxis::None;
  std::vector<LinkSpec> links; ///< Off-mesh links, in file order.

  bool is_mesh() const { return !mesh.empty(); }
};

enum class OnArrival : std::uint8_t { Stop, Remove };

/// Scenario extension `arrival`: when an agent has reached its goal.
enum class ArrivalRule : std::uint8_t {
  /// Within arrival_radius of it, or touching an agent that arrived there first and stands
  /// nearer to it (host/sim/contact_arrival.h): a crowd sent to one point all arrive.
  Contact,
  /// Only within arrival_radius (the words of the version-1 format).
  Radius,
};

/// Scenario extension `standoff`: how an agent breaks a standoff with an agent coming the
/// other way (cuda/kernels/standoff.h). Our solver only; the detour backend is DetourCrowd.
enum class StandoffRule : std::uint8_t {
  KeepRight, ///< Sidestep to its right, as pedestrians keep right.
  KeepLeft,  ///< Sidestep to its left.
  Off,       ///< No breaker: DetourCrowd's behaviour, standoffs included.
};

/// DetourCrowd's number of query filter types (DT_CROWD_MAX_QUERY_FILTER_TYPE): the filters an
/// agent's query_filter_type may name.
inline constexpr int kQueryFilterTypes = 16;

/// Per-agent parameters, resolved to plain values.
struct AgentParams {
  float radius = 0.4f;
  float max_speed = 1.4f;
  float max_accel = 8.0f;
  AvoidanceParams avoidance = avoidance_preset(AvoidancePreset::Good);
  std::string avoidance_name = "good"; ///< Preset name, or "custom".
  float separation_weight = 2.0f;
  std::optional<float> collision_query_range; ///< Unset: 12 x radius.
  float arrival_radius = 0.5f;
  OnArrival on_arrival = OnArrival::Stop;
  ArrivalRule arrival = ArrivalRule::Contact;
  StandoffRule standoff = StandoffRule::KeepRight;
  /// Agent type label (scenario extension `type`), carried to every output as a per-agent
  /// label and used as the prototype name of film exports. "agent" when none is given.
  std::string type = "agent";
  /// Which of the crowd's 16 query filters its path searches and corridor moves use
  /// (DetourCrowd's queryFilterType; Crowd::set_query_filter): 0 to 15, default 0.
  std::int32_t query_filter_type = 0;

  float query_range() const { return collision_query_range.value_or(12.0f * radius); }
  bool operator==(const AgentParams&) const = default;
};

/// A numeric parameter of a group: a constant (lo == hi) or uniform on [lo, hi].
struct Distribution {
  float lo = 0.0f, hi = 0.0f;
  bool is_constant() const { return lo == hi; }
};

/// Numeric agent parameters drawn per agent (groups, emitters, and explicit agents whose
/// type gives distributions). Where one is set, the value drawn replaces the AgentParams one.
struct ParamDistributions {
  std::optional<Distribution> radius, max_speed, max_accel, separation_weight,
      collision_query_range, arrival_radius;
};

/// Scenario extension `waypoints`: a point the agent walks to before its goal (given, or
/// drawn per agent in a rect), and how long it stands there once arrived (seconds, drawn
/// per agent).
struct WaypointSpec {
  PointSpec point;                                     ///< When rect is unset.
  std::optional<std::pair<glm::vec2, glm::vec2>> rect; ///< (min, max) corners (x, z).
  Distribution wait;
};

/// Scenario extension `follow` (docs/scenario-extensions.md): an explicit agent that follows
/// another agent of the scenario at an offset instead of walking to a goal of its own.
struct FollowSpec {
  int agent = -1;                  ///< The leader's id (scenario order).
  std::optional<glm::vec2> offset; ///< x/z metres from the leader; unset: as the two spawned.
};

struct ExplicitAgentSpec {
  PointSpec position;
  PointSpec goal; ///< Unused by a follower.
  std::optional<FollowSpec> follow;
  AgentParams params;       ///< defaults, then the agent's type, then this agent's keys.
  ParamDistributions drawn; ///< From the agent's type; drawn once for this agent.
  std::vector<WaypointSpec> waypoints;
  Distribution start_delay; ///< Seconds before the agent enters the simulation.
};

/// Scenario extension `emitters`: agents enter one after another, `rate` per second, at
/// start, start + 1/rate, ... for every such time before `end`.
struct EmissionSpec {
  float rate = 1.0f;
  float start = 0.0f;
  float end = 0.0f;
  /// Entry time of the k-th agent of the emitter, seconds.
  double time_of(int k) const {
    return static_cast<double>(start) + static_cast<double>(k) / static_cast<double>(rate);
  }
};

/// A group of generated agents, or (with `emission` set) an emitter's agents.
struct GroupSpec : ParamDistributions {
  int count = 0;
  enum class SpawnKind : std::uint8_t { Rect, Circle } spawn_kind = SpawnKind::Rect;
  glm::vec2 spawn_min{0.0f}, spawn_max{0.0f}; ///< Rect spawn.
  glm::vec2 circle_center{0.0f};              ///< Circle spawn.
  float circle_radius = 0.0f;
  enum class GoalKind : std::uint8_t { Rect, Point, Antipodal } goal_kind = GoalKind::Point;
  glm::vec2 goal_min{0.0f}, goal_max{0.0f}; ///< Rect goal.
  glm::vec2 goal_point{0.0f};               ///< Point goal.

  /// Parameters that are the same for every agent of the group (defaults overridden by the
  /// group's constant values). Where a distribution below is set, the value drawn per agent
  /// replaces base's (which then still holds the `defaults` value and is not used).
  AgentParams base;

  std::vector<WaypointSpec> waypoints;  ///< Walked in order before the goal.
  Distribution start_delay;             ///< Seconds before each agent enters (groups only).
  std::optional<EmissionSpec> emission; ///< Set for the entries of `emitters`.
};

/// Scenario extension `query_filters` (docs/scenario-extensions.md): one of DetourCrowd's
/// per-type query filters, which the agents whose query_filter_type is its index search and
/// move with.
struct QueryFilterSpec {
  static constexpr int kAreas = 64; ///< Detour's DT_MAX_AREAS.
  std::uint16_t include_flags = 0xffff;
  std::uint16_t exclude_flags = 0;
  std::array<float, kAreas> area_costs = filled_costs();

  static constexpr std::array<float, kAreas> filled_costs() {
    std::array<float, kAreas> costs{};
    costs.fill(1.0f);
    return costs;
  }
};

/// Angles are degrees in the scenario format (a box's yaw, a film character's heading) and
/// radians in the maths: the one factor between them.
inline constexpr float kRadiansPerDegree = std::numbers::pi_v<float> / 180.0f;

/// Scenario extension `events` (docs/scenario-extensions.md): a dynamic obstacle added, moved or
/// removed at a time of the run. The navmesh of a scenario with events is built for them
/// (NavmeshBuildSettings::dynamic).
struct ObstacleEvent {
  enum class Action : std::uint8_t { Add, Move, Remove };
  enum class Shape : std::uint8_t { Cylinder, Box };
  float time = 0.0f; ///< Seconds from the start; applied before the first step at or after it.
  Action action = Action::Add;
  std::string name;              ///< Which obstacle: unique among those standing.
  Shape shape = Shape::Cylinder; ///< Add: a `radius` makes a cylinder, a `size` a box.
  PointSpec position;            ///< Add, Move: its centre at its foot.
  float radius = 0.5f;           ///< Add, cylinder, m.
  glm::vec2 size{1.0f};          ///< Add, box: its extents along x and z before the turn, m.
  std::optional<float> yaw;      ///< Add, Move: a box's turn about the vertical, degrees (x
                                 ///< toward z); unset: 0 when added, unchanged when moved.
  float height = 2.0f;           ///< Add, m.
};

struct Scenario {
  std::filesystem::path file; ///< As given on the command line (used in messages).
  std::string name;
  std::uint64_t seed = 0;
  float dt = 0.1f;
  float duration = 60.0f;
  std::optional<int> steps;
  WorldSpec world;
  AgentParams defaults;
  std::vector<ExplicitAgentSpec> agents;
  std::vector<GroupSpec> groups;
  std::vector<GroupSpec> emitters; ///< Each with `emission` set; count = agents it emits.
  /// Scenario extension `characters`: how film exports show each agent type label's agents
  /// ("agent" for agents without a type). A label not here gets the defaults.
  std::map<std::string, CharacterSpec> characters;
  /// Scenario extension `query_filters`, by filter type (at most 16); empty: every agent uses
  /// the navmesh's filter.
  std::vector<QueryFilterSpec> query_filters;
  /// Scenario extension `events`, in file order.
  std::vector<ObstacleEvent> events;
  /// The most obstacles the events have standing at once.
  int peak_obstacles() const;

  /// Steps to run: `steps` if given, otherwise ceil(duration / dt).
  int step_count() const;
  /// Number of agents the scenario defines (explicit agents plus every group's and every
  /// emitter's count).
  std::size_t agent_count() const;
  /// The largest radius any agent can have (explicit agents, groups and emitters, their
  /// bases and distributions).
  float max_agent_radius() const;
};

/// The events' indices in the order they apply: by time, ties in file order.
std::vector<std::size_t> event_order(const std::vector<ObstacleEvent>& events);

/// Reads and validates a scenario file. Throws ScenarioError on any problem listed in the
/// spec (malformed JSON, wrong type, unknown key, value out of range, NaN or infinity,
/// missing mesh file).
Scenario load_scenario(const std::filesystem::path& file);

/// Parses scenario JSON text; `file` is only used to name the source in messages and to
/// resolve a relative mesh path.
Scenario parse_scenario(const std::string& json_text, const std::filesystem::path& file);

} // namespace crowd

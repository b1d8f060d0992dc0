// Places a scenario's agents on the navmesh (population.h).
//
// Random draws. One std::mt19937_64 seeded with scenario.seed serves every group in file
// order; one draw is one rng() call mapped to [lo, hi) by draw() below (portable: no
// std::uniform_real_distribution, whose output differs between standard libraries).
// For each agent of a group, in this order:
//   1. radius, max_speed, max_accel, separation_weight, collision_query_range, arrival_radius:
//      one draw each for the parameters the group gives as {"uniform": [a, b]} with a < b
//      (radius comes first because the spawn test needs the agent's clearance);
//   2. spawn: rect = x then z for every attempt until one is accepted; circle = no draw;
//   3. goal: rect = x then z for every attempt, at most kGoalAttempts; point, antipodal = none.
// Explicit agents draw nothing from it. The same file and seed therefore always give the same
// agents.
//
// Scenario extensions (docs/scenario-extensions.md) draw from streams of their own, so that
// adding an emitter, a start delay or a waypoint wait changes no other agent's draws and a
// file without extensions places its agents exactly as before. Each stream is an
// std::mt19937_64 seeded with splitmix64 of the scenario seed and (stream kind, index):
//   * explicit agent i: its type's distributions (in the order of 1. above), then its start
//     delay, then its waypoints;
//   * group g's schedule: for each agent in turn, its start delay, then its waypoints;
//   * emitter e: for each agent in turn, steps 1. to 3. above (spawn attempts test the walls
//     only), then its waypoints.
// Waypoints, in order: a rect waypoint's point (x then z per attempt, as a rect goal), then
// the wait.
// A constant (not a distribution) draws nothing.
//
// Walkable surface under a 2D point [x, z]. In a 2D world it is the floor: the navmesh point
// nearest to (x, 0, z). In a mesh world the height is unknown, so find_surface() probes the
// navmesh at heights from its bottom to its top (one probe per placement_extents().y, so the
// probe boxes overlap) and takes, among the points it finds that lie within kSnapTolerance
// horizontally of (x, z), the HIGHEST one: a 2D point means "the ground seen from above", as
// if dropped onto the scene. Without such a point it takes the horizontally nearest one.
#include "host/scenario/population.h"

#include "host/navmesh/navmesh.h"
#include "host/scenario/json_path.h"
#include "host/scenario/obstacle_index.h"
#include "host/scenario/periodic_world.h"
#include "host/scenario/polygon2d.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace crowd {

namespace {

/// A rect-spawned agent (or a rect goal) is accepted only where the navmesh point found for
/// it is at most this far away horizontally: farther means the point is off the walkable area
/// (inside a wall, or within the navmesh's erosion margin) and snapping would move it.
constexpr float kSnapTolerance = 0.05f;
constexpr std::uint64_t kSpawnAttemptsPerAgent = 1000;
/// A rect spawn gives up when one agent alone has needed this many attempts: the rect is
/// full (an acceptance rate below 1e-5), and going on to the group's whole budget of
/// kSpawnAttemptsPerAgent x count would take hours for a large count (10 million agents in a
/// 5 x 5 m rect: 1e10 attempts).
constexpr std::uint64_t kMaxAttemptsForOneAgent = 100'000;
constexpr int kGoalAttempts = 100;
/// Upper bound on surface probes per point in a mesh world (a very tall world).
constexpr int kMaxSurfaceProbes = 1024;

float draw(std::mt19937_64& rng, float lo, float hi) {
  // The top 24 bits make a float in [0, 1) exactly, identically on every platform.
  return lo + (hi - lo) * (static_cast<float>(rng() >> 40) * 0x1p-24f);
}

/// The value of `d` for one agent: the constant, or one draw.
float sample(std::mt19937_64& rng, const Distribution& d) {
  return d.is_constant() ? d.lo : draw(rng, d.lo, d.hi);
}

/// Sebastiano Vigna's splitmix64 finaliser (the seeding generator recommended for the
/// xoshiro family): nearby inputs give unrelated outputs.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

enum class Stream : std::uint64_t { ExplicitAgent = 1, GroupSchedule = 2, Emitter = 3 };

/// The random stream of one agent, group or emitter (see the file comment).
std::mt19937_64 stream_rng(std::uint64_t seed, Stream kind, std::size_t index) {
  const std::uint64_t label = (static_cast<std::uint64_t>(kind) << 40) + index;
  return std::mt19937_64(splitmix64(seed ^ splitmix64(label)));
}

bool any_set(const ParamDistributions& d) {
  return d.radius || d.max_speed || d.max_accel || d.separation_weight || d.collision_query_range ||
         d.arrival_radius;
}

/// Draws the parameters `drawn` gives as distributions over `base`, in the documented order.
AgentParams draw_params(const AgentParams& base, const ParamDistributions& drawn,
                        std::mt19937_64& rng) {
  AgentParams params = base;
  const auto pick = [&rng](const std::optional<Distribution>& d, float& out) {
    if (d) {
      out = sample(rng, *d);
    }
  };
  pick(drawn.radius, params.radius);
  pick(drawn.max_speed, params.max_speed);
  pick(drawn.max_accel, params.max_accel);
  pick(drawn.separation_weight, params.separation_weight);
  if (drawn.collision_query_range) {
    float range = 0.0f;
    pick(drawn.collision_query_range, range);
    params.collision_query_range = range;
  }
  pick(drawn.arrival_radius, params.arrival_radius);
  return params;
}

std::string format(float value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string format_xz(glm::vec2 p) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict, PR 105329) on "[" + string.
  std::string out("[");
  out += format(p.x);
  out += ", ";
  out += format(p.y);
  out += ']';
  return out;
}

float horizontal_distance(const glm::vec3& a, const glm::vec3& b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

/// Discs already placed, bucketed on a uniform x/z grid, to find overlaps in O(1) per test
/// (100,000 agents place in well under a second).
class DiscGrid {
public:
  DiscGrid(float cell_size, float height) : cell_(cell_size), height_(height) {}

  void insert(const glm::vec3& position, float radius) {
    const auto id = static_cast<std::int32_t>(positions_.size());
    positions_.push_back(position);
    radii_.push_back(radius);
    max_radius_ = std::max(max_radius_, radius);
    auto [it, inserted] = heads_.try_emplace(key(cell(position.x), cell(position.z)), id);
    next_.push_back(inserted ? -1 : it->second);
    it->second = id;
  }

  /// True when a disc of `radius` at `position` would overlap a placed disc by more than
  /// `slack` (discs that only touch do not overlap). Discs more than one agent height apart
  /// vertically are on different floors and never overlap.
  bool overlaps(const glm::vec3& position, float radius, float slack = 0.0f) const {
    const float reach = radius + max_radius_;
    const std::int32_t x0 = cell(position.x - reach), x1 = cell(position.x + reach);
    const std::int32_t z0 = cell(position.z - reach), z1 = cell(position.z + reach);
    for (std::int32_t x = x0; x <= x1; ++x) {
      for (std::int32_t z = z0; z <= z1; ++z) {
        const auto it = heads_.find(key(x, z));
        if (it == heads_.end()) {
          continue;
        }
        for (std::int32_t i = it->second; i >= 0; i = next_[i]) {
          const glm::vec3& other = positions_[i];
          const float limit = radius + radii_[i] - slack;
          const float dx = other.x - position.x, dz = other.z - position.z;
          if (limit > 0.0f && dx * dx + dz * dz < limit * limit &&
              std::abs(other.y - position.y) < height_) {
            return true;
          }
        }
      }
    }
    return false;
  }

private:
  std::int32_t cell(float v) const {
    const float c = std::floor(v / cell_);
    return static_cast<std::int32_t>(std::clamp(c, -1.0e9f, 1.0e9f));
  }
  static std::uint64_t key(std::int32_t x, std::int32_t z) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) << 32) |
           static_cast<std::uint32_t>(z);
  }

  float cell_, height_;
  float max_radius_ = 0.0f;
  std::vector<glm::vec3> positions_;
  std::vector<float> radii_;
  std::vector<std::int32_t> next_;
  std::unordered_map<std::uint64_t, std::int32_t> heads_;
};

class Placer {
public:
  Placer(const Scenario& scenario, const NavMesh& navmesh)
      : scenario_(scenario), navmesh_(navmesh), file_(scenario.file.string()), rng_(scenario.seed),
        grid_(2.0f * std::max(scenario.max_agent_radius(), 0.05f), navmesh.settings().agent_height),
        periodic_(periodic_frame(scenario)), obstacles_(scenario.world.obstacles) {}

  std::vector<AgentSetup> run() {
    agents_.reserve(scenario_.agent_count());
    for (std::size_t i = 0; i < scenario_.agents.size(); ++i) {
      place_explicit(scenario_.agents[i], json_path::element("agents", i), i);
    }
    for (std::size_t g = 0; g < scenario_.groups.size(); ++g) {
      place_group(scenario_.groups[g], json_path::element("groups", g), g);
    }
    for (std::size_t e = 0; e < scenario_.emitters.size(); ++e) {
      place_emitter(scenario_.emitters[e], json_path::element("emitters", e), e);
    }
    place_followers();
    return std::move(agents_);
  }

private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw ScenarioError(file_, path, problem);
  }

  bool is_2d() const { return !scenario_.world.is_mesh() && scenario_.world.bounds.has_value(); }

  // ---- the walkable surface --------------------------------------------------------------

  std::optional<glm::vec3> find_surface(float x, float z) const {
    const float bottom = navmesh_.bounds_min().y, top = navmesh_.bounds_max().y;
    const float range = std::max(top - bottom, 0.0f);
    // Probes one half-height of the query box apart, so consecutive boxes overlap; the count
    // (not a float accumulator) bounds the loop even where y + step == y.
    const float half_height = navmesh_.placement_extents().y;
    const int intervals = half_height > 0.0f
                              ? static_cast<int>(std::min(std::ceil(range / half_height),
                                                          static_cast<float>(kMaxSurfaceProbes)))
                              : 1;
    std::optional<glm::vec3> best_on, best_near;
    const glm::vec3 wanted(x, 0.0f, z);
    for (int k = 0; k <= intervals; ++k) {
      const float probe_y =
          k == intervals ? top
                         : bottom + range * static_cast<float>(k) / static_cast<float>(intervals);
      if (const auto hit = navmesh_.nearest_point({x, probe_y, z})) {
        if (horizontal_distance(*hit, wanted) <= kSnapTolerance) {
          if (!best_on || hit->y > best_on->y) {
            best_on = hit;
          }
        } else if (!best_near ||
                   horizontal_distance(*hit, wanted) < horizontal_distance(*best_near, wanted)) {
          best_near = hit;
        }
      }
    }
    return best_on ? best_on : best_near;
  }

  /// The navmesh point for a requested point: [x, y, z] is snapped as given; [x, z] goes to
  /// the walkable surface under/over it (see the file comment).
  std::optional<glm::vec3> snap(const glm::vec3& requested, bool has_height) const {
    if (has_height) {
      return navmesh_.nearest_point(requested);
    }
    if (is_2d()) {
      return navmesh_.nearest_point({requested.x, 0.0f, requested.z});
    }
    return find_surface(requested.x, requested.z);
  }

  /// A goal keeps its requested x/z (the run reports an unreachable goal rather than moving
  /// it); a 2D goal takes its height from the walkable surface, or 0 without one.
  /// In a periodic world a goal on or past a periodic end goes into the runway beyond that
  /// end (host/scenario/periodic_world.h): the agent walks that way for ever.
  glm::vec3 goal_at(glm::vec3 requested, bool has_height) const {
    if (periodic_) {
      float& along = periodic_->axis == 0 ? requested.x : requested.z;
      along = periodic_->goal_coordinate(along);
    }
    if (has_height) {
      return requested;
    }
    const auto surface = snap(requested, false);
    return {requested.x, surface ? surface->y : 0.0f, requested.z};
  }

  // ---- 2D world geometry -----------------------------------------------------------------

  /// Why a start at `p` is impossible in a 2D world, or nothing.
  std::optional<std::string> start_problem(glm::vec2 p) const {
    if (!is_2d()) {
      return std::nullopt;
    }
    const WorldSpec::Bounds2D& bounds = *scenario_.world.bounds;
    if (p.x < bounds.min.x || p.y < bounds.min.y || p.x > bounds.max.x || p.y > bounds.max.y) {
      return std::string("starts outside the world bounds");
    }
    thread_local std::vector<int> near;
    obstacles_.candidates(p, p, near);
    for (const int i : near) {
      const ObstacleIndex::Box& box = obstacles_.box(i);
      if (p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y &&
          point_in_polygon(scenario_.world.obstacles[static_cast<std::size_t>(i)], p)) {
        return "starts inside obstacle " + std::to_string(i);
      }
    }
    return std::nullopt;
  }

  bool inside_bounds(glm::vec2 p, float margin) const {
    const WorldSpec::Bounds2D& bounds = *scenario_.world.bounds;
    return p.x - margin >= bounds.min.x && p.y - margin >= bounds.min.y &&
           p.x + margin <= bounds.max.x && p.y + margin <= bounds.max.y;
  }

  /// A disc of `radius` at `p` lies inside the bounds and clear of every obstacle.
  bool disc_clear_2d(glm::vec2 p, float radius) const {
    if (!inside_bounds(p, radius)) {
      return false;
    }
    thread_local std::vector<int> near;
    obstacles_.candidates(p - radius, p + radius, near);
    for (const int i : near) {
      const ObstacleIndex::Box& box = obstacles_.box(i);
      if (p.x + radius < box.min.x || p.x - radius > box.max.x || p.y + radius < box.min.y ||
          p.y - radius > box.max.y) {
        continue;
      }
      const Polygon2D& polygon = scenario_.world.obstacles[static_cast<std::size_t>(i)];
      if (squared_distance_to_boundary(polygon, p) < radius * radius ||
          point_in_polygon(polygon, p)) {
        return false;
      }
    }
    return true;
  }

  // ---- placement -------------------------------------------------------------------------

  void add(const glm::vec3& position, const glm::vec3& goal, const AgentParams& params,
           const std::string& path) {
    agents_.push_back({{position, goal, path, 0.0, {}}, params});
    grid_.insert(position, params.radius);
  }

  /// The last agent added gets its start time and its waypoints: for each in order, a rect
  /// waypoint's point (drawn like a rect goal), then its wait, drawn from `rng`.
  void schedule_last(double start_time, const std::vector<WaypointSpec>& waypoints,
                     std::mt19937_64& rng) {
    AgentSetup& agent = agents_.back();
    agent.start_time = start_time;
    agent.waypoints.reserve(waypoints.size());
    for (const WaypointSpec& waypoint : waypoints) {
      const glm::vec3 position =
          waypoint.rect ? draw_in_rect(waypoint.rect->first, waypoint.rect->second, rng)
                        : goal_at(waypoint.point.position, waypoint.point.has_height);
      agent.waypoints.push_back({position, sample(rng, waypoint.wait)});
    }
  }

  void place_explicit(const ExplicitAgentSpec& spec, const std::string& path, std::size_t index) {
    const std::string position_path = json_path::member(path, "position");
    const glm::vec3 requested = spec.position.position;
    if (const auto problem = start_problem({requested.x, requested.z})) {
      fail(position_path, *problem);
    }
    const auto position = snap(requested, spec.position.has_height);
    if (!position) {
      fail(position_path, "is off the walkable area (no navmesh near " +
                              format_xz({requested.x, requested.z}) + ")");
    }
    std::mt19937_64 rng = stream_rng(scenario_.seed, Stream::ExplicitAgent, index);
    const AgentParams params =
        any_set(spec.drawn) ? draw_params(spec.params, spec.drawn, rng) : spec.params;
    add(*position, goal_at(spec.goal.position, spec.goal.has_height), params, path);
    const double delay = sample(rng, spec.start_delay);
    schedule_last(delay, spec.waypoints, rng);
    if (spec.follow)
      agents_.back().leader = spec.follow->agent; // offset and goal once the leader is placed
  }

  /// Scenario extension `follow`, once every agent is placed: each follower's offset (given,
  /// or where it spawned from where its leader spawned) and its first goal, the leader's spawn
  /// point plus the offset on the walkable surface.
  void place_followers() {
    for (AgentSetup& agent : agents_) {
      if (agent.leader < 0)
        continue;
      const AgentSetup& leader = agents_.at(static_cast<std::size_t>(agent.leader));
      const std::size_t index = static_cast<std::size_t>(&agent - agents_.data());
      const std::optional<glm::vec2> offset = scenario_.agents.at(index).follow->offset;
      agent.follow_offset = offset ? glm::vec3(offset->x, 0.0f, offset->y)
                                   : glm::vec3(agent.position.x - leader.position.x, 0.0f,
                                               agent.position.z - leader.position.z);
      const glm::vec3 wanted = leader.position + agent.follow_offset;
      agent.goal = navmesh_.nearest_point(wanted).value_or(wanted);
    }
  }

  /// The placed position for a rect-spawn candidate, or nothing when it is rejected. With
  /// `clear_of_agents` false (emitters) only the walkable surface and the walls are tested.
  std::optional<glm::vec3> try_rect_spawn(glm::vec2 p, float radius,
                                          bool clear_of_agents = true) const {
    // Cheap tests first: the bounds, and agents that overlap by more than snapping can fix.
    if (is_2d() &&
        (!inside_bounds(p, radius) ||
         (clear_of_agents && grid_.overlaps({p.x, 0.0f, p.y}, radius, kSnapTolerance)))) {
      return std::nullopt;
    }
    // Off the navmesh's extent in x/z nothing is walkable: no surface probes (a mesh world
    // probes up to kMaxSurfaceProbes heights per point).
    if (p.x < navmesh_.bounds_min().x || p.x > navmesh_.bounds_max().x ||
        p.y < navmesh_.bounds_min().z || p.y > navmesh_.bounds_max().z) {
      return std::nullopt;
    }
    const auto position = snap({p.x, 0.0f, p.y}, false);
    if (!position || horizontal_distance(*position, {p.x, 0.0f, p.y}) > kSnapTolerance) {
      return std::nullopt;
    }
    if (is_2d() && !disc_clear_2d({position->x, position->z}, radius)) {
      return std::nullopt;
    }
    if (clear_of_agents && grid_.overlaps(*position, radius)) {
      return std::nullopt;
    }
    return position;
  }

  /// A goal (or waypoint) drawn in the rect [lo, hi] on the walkable surface.
  glm::vec3 draw_in_rect(glm::vec2 lo, glm::vec2 hi, std::mt19937_64& rng) {
    glm::vec2 p{0.0f};
    for (int attempt = 0; attempt < kGoalAttempts; ++attempt) {
      p.x = draw(rng, lo.x, hi.x);
      p.y = draw(rng, lo.y, hi.y);
      if (start_problem(p)) {
        continue;
      }
      const auto surface = snap({p.x, 0.0f, p.y}, false);
      if (surface && horizontal_distance(*surface, {p.x, 0.0f, p.y}) <= kSnapTolerance) {
        return {p.x, surface->y, p.y};
      }
    }
    // Not an error: the run walks to the nearest reachable point and reports it.
    return goal_at({p.x, 0.0f, p.y}, false);
  }

  glm::vec3 group_goal(const GroupSpec& group, glm::vec2 nominal_start, std::mt19937_64& rng) {
    switch (group.goal_kind) {
    case GroupSpec::GoalKind::Rect:
      return draw_in_rect(group.goal_min, group.goal_max, rng);
    case GroupSpec::GoalKind::Antipodal: {
      const glm::vec2 g = 2.0f * group.circle_center - nominal_start;
      return goal_at({g.x, 0.0f, g.y}, false);
    }
    case GroupSpec::GoalKind::Point:
      break;
    }
    return goal_at({group.goal_point.x, 0.0f, group.goal_point.y}, false);
  }

  std::string radius_text(const GroupSpec& group) const {
    if (group.radius && !group.radius->is_constant()) {
      return format(group.radius->lo) + " to " + format(group.radius->hi);
    }
    return format(group.radius ? group.radius->lo : group.base.radius);
  }

  void place_group(const GroupSpec& group, const std::string& path, std::size_t index) {
    const std::string spawn_path = json_path::member(path, "spawn");
    const std::uint64_t budget = kSpawnAttemptsPerAgent * static_cast<std::uint64_t>(group.count);
    std::uint64_t attempts = 0;
    std::mt19937_64 schedule_rng = stream_rng(scenario_.seed, Stream::GroupSchedule, index);
    for (int k = 0; k < group.count; ++k) {
      const AgentParams params = draw_params(group.base, group, rng_);
      glm::vec2 nominal{0.0f};
      glm::vec3 position{0.0f};
      if (group.spawn_kind == GroupSpec::SpawnKind::Rect) {
        std::optional<glm::vec3> placed;
        std::uint64_t agent_attempts = 0;
        while (!placed && attempts < budget && agent_attempts < kMaxAttemptsForOneAgent) {
          ++attempts;
          ++agent_attempts;
          nominal.x = draw(rng_, group.spawn_min.x, group.spawn_max.x);
          nominal.y = draw(rng_, group.spawn_min.y, group.spawn_max.y);
          placed = try_rect_spawn(nominal, params.radius);
        }
        if (!placed) {
          fail(spawn_path, "cannot fit " + std::to_string(group.count) + " agents of radius " +
                               radius_text(group) + " in the rect [" + format_xz(group.spawn_min) +
                               ", " + format_xz(group.spawn_max) +
                               "] clear of walls, obstacles and other agents; placed " +
                               std::to_string(k) + " in " + std::to_string(attempts) + " attempts");
        }
        position = *placed;
      } else {
        // Evenly spaced from angle 0 (+x), counter-clockwise from +x towards +z.
        const double angle = 2.0 * std::numbers::pi * k / group.count;
        nominal = group.circle_center +
                  group.circle_radius * glm::vec2(static_cast<float>(std::cos(angle)),
                                                  static_cast<float>(std::sin(angle)));
        const std::string which = "agent " + std::to_string(k) + " of " +
                                  std::to_string(group.count) + " on the circle (at " +
                                  format_xz(nominal) + ") ";
        if (const auto problem = start_problem(nominal)) {
          fail(spawn_path, which + *problem);
        }
        const auto snapped = snap({nominal.x, 0.0f, nominal.y}, false);
        if (!snapped) {
          fail(spawn_path, which + "is off the walkable area");
        }
        position = *snapped;
      }
      add(position, group_goal(group, nominal, rng_), params, path);
      const double delay = sample(schedule_rng, group.start_delay);
      schedule_last(delay, group.waypoints, schedule_rng);
    }
  }

  /// An emitter's agents, in the order they enter, all from the emitter's own stream.
  void place_emitter(const GroupSpec& emitter, const std::string& path, std::size_t index) {
    const std::string spawn_path = json_path::member(path, "spawn");
    std::mt19937_64 rng = stream_rng(scenario_.seed, Stream::Emitter, index);
    for (int k = 0; k < emitter.count; ++k) {
      const AgentParams params = draw_params(emitter.base, emitter, rng);
      glm::vec2 nominal{0.0f};
      std::optional<glm::vec3> placed;
      for (std::uint64_t attempt = 0; !placed && attempt < kSpawnAttemptsPerAgent; ++attempt) {
        nominal.x = draw(rng, emitter.spawn_min.x, emitter.spawn_max.x);
        nominal.y = draw(rng, emitter.spawn_min.y, emitter.spawn_max.y);
        placed = try_rect_spawn(nominal, params.radius, false);
      }
      if (!placed) {
        fail(spawn_path, "has no walkable place for an agent of radius " + format(params.radius) +
                             " clear of walls and obstacles in the rect [" +
                             format_xz(emitter.spawn_min) + ", " + format_xz(emitter.spawn_max) +
                             "] (" + std::to_string(kSpawnAttemptsPerAgent) + " attempts)");
      }
      // Not in grid_: emitted agents enter later, where the agents of the scene may be gone.
      agents_.push_back({{*placed, group_goal(emitter, nominal, rng), path, 0.0, {}}, params});
      schedule_last(emitter.emission->time_of(k), emitter.waypoints, rng);
    }
  }

  const Scenario& scenario_;
  const NavMesh& navmesh_;
  std::string file_;
  std::mt19937_64 rng_;
  DiscGrid grid_;
  std::optional<PeriodicFrame> periodic_;
  ObstacleIndex obstacles_;
  std::vector<AgentSetup> agents_;
};

} // namespace

std::vector<AgentSetup> populate(const Scenario& scenario, const NavMesh& navmesh) {
  return Placer(scenario, navmesh).run();
}

} // namespace crowd

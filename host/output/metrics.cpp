// The run metrics of shared/spec/outputs.md.
//
// Definitions, applied identically to every backend on the positions at the end of each step,
// to agents that are not Removed:
//
// * Overlap: agents i < j with |y_i - y_j| <= navmesh agent_height interpenetrate by
//   pen = r_i + r_j - dist_xz. A (pair, step) is an overlap event when pen > 0.05 (r_i + r_j);
//   max_overlap is the largest pen > 0 seen, events or not. Pairs are found with a uniform
//   hash grid of cell 2 x the largest radius rebuilt every step, so any pair that touches lies
//   in neighbouring cells.
// * Walls, 2D worlds: pen = r - sd, sd the signed distance from the centre to an obstacle
//   polygon's boundary (negative inside it) or to the bounds rectangle's edges (negative
//   outside it); the largest over the obstacles and the bounds counts. An (agent, step) is a
//   wall event when pen > 0.05 r. The obstacles include the dynamic ones of the scenario's
//   `events` standing during the step (host/scenario/obstacle_timeline.h).
// * Walls, mesh worlds (no polygons to measure against): the navmesh is the walkable space
//   eroded by the navmesh agent_radius R, so the wall is taken to lie R beyond the navmesh
//   boundary. On the navmesh (the centre lies over a polygon) pen = r - (R + d), d the xz
//   distance to the nearest boundary segment at the agent's level; off it pen = r - R + d_out,
//   d_out the xz distance to the nearest navmesh point. Both are r - R on the boundary itself,
//   so an agent no larger than R touches the wall only once it leaves the navmesh.
// * Walked distance: the sum of per-step xz displacements, counted up to the end of the step
//   in which the agent arrived (its first arrival); path ratio = walked / shortest navmesh path
//   (findNearestPoly of start and goal, findPath, findStraightPath, xz length), through the
//   agent's waypoints in order when it has some (the sum of the legs).
// * Periodic worlds (scenario extension world.periodic): the bounds' edges across the periodic
//   axis are no walls, the obstacles' copies one period away are (as in the navmesh), two
//   agents on either side of the seam overlap as their nearest images do, and a step's
//   displacement is measured to the nearest image (a wrap is no walk of a period).
// * Arrival time: from the agent's entry (0, or when a start delay or an emitter let it in)
//   to the end of the step in which it arrived; only agents that have entered are counted in
//   `agents` and `unreachable`.
// * Unreachable: no navmesh polygon within placement extents of the goal (or of the start),
//   the navmesh point nearest the goal too far from it to ever arrive (farther than
//   arrival_radius in xz or agent_height in y, as the arrival test: a goal inside an obstacle
//   or past the bounds), or a partial findPath result (last polygon is not the goal's), on any
//   leg (waypoints too). The spec's "a goal that cannot be reached": the agent walks to the
//   nearest reachable point and is counted here. The solver measures it, with the shortest
//   path length, once per agent when it is made known (host/paths/shortest_routes.h), and
//   hands it to the constructor or add_agent: it is the route to the agent's first goal.
//
// Counts are integer sums and maxima are exact, so the parallel reductions give the same
// summary on every run.
#include "host/output/metrics.h"

#include "host/checkpoint/archive.h"
#include "host/navmesh/navmesh.h"
#include "host/output/observation_split.h"
#include "host/output/step_time_stats.h"
#include "host/scenario/obstacle_timeline.h"
#include "host/scenario/periodic_world.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourStatus.h>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

namespace crowd {
namespace {

constexpr double kOverlapThreshold = 0.05; ///< Fraction of r_i + r_j.
constexpr double kWallThreshold = 0.05;    ///< Fraction of r.

struct Box {
  glm::dvec2 min{std::numeric_limits<double>::max()};
  glm::dvec2 max{std::numeric_limits<double>::lowest()};
  void add(glm::dvec2 p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void add(const Box& b) {
    min = glm::min(min, b.min);
    max = glm::max(max, b.max);
  }
  bool empty() const { return min.x > max.x; }
};

/// Static items (obstacle polygons, navmesh boundary segments) binned by their boxes grown by
/// `reach`, so that every item within `reach` of a point is listed in the point's cell.
class StaticGrid {
public:
  void build(const std::vector<Box>& boxes, double reach, double min_cell) {
    Box domain;
    for (const Box& b : boxes) {
      domain.add(b);
    }
    if (domain.empty()) {
      return;
    }
    domain.min -= reach;
    domain.max += reach;
    const glm::dvec2 size = domain.max - domain.min;
    // At most 512 cells a side: enough to keep a few candidates per cell in the scenes we run,
    // bounded memory for a huge world.
    cell_ = std::max({min_cell, size.x / 512.0, size.y / 512.0, 1e-3});
    origin_ = domain.min;
    nx_ = static_cast<int>(std::floor(size.x / cell_)) + 1;
    nz_ = static_cast<int>(std::floor(size.y / cell_)) + 1;
    start_.assign(static_cast<std::size_t>(nx_) * nz_ + 1, 0);
    // Two passes (count, then fill) give a compact CSR layout.
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<int> fill;
      if (pass == 1) {
        for (std::size_t c = 1; c < start_.size(); ++c) {
          start_[c] += start_[c - 1];
        }
        items_.assign(static_cast<std::size_t>(start_.back()), 0);
        fill.assign(start_.begin(), start_.end() - 1);
      }
      for (std::size_t k = 0; k < boxes.size(); ++k) {
        const glm::ivec2 lo = cell_of(boxes[k].min - reach);
        const glm::ivec2 hi = cell_of(boxes[k].max + reach);
        for (int z = lo.y; z <= hi.y; ++z) {
          for (int x = lo.x; x <= hi.x; ++x) {
            const std::size_t c = static_cast<std::size_t>(z) * nx_ + x;
            if (pass == 0) {
              ++start_[c + 1];
            } else {
              items_[static_cast<std::size_t>(fill[c]++)] = static_cast<int>(k);
            }
          }
        }
      }
    }
  }

  /// Items whose grown box may contain `p`; empty outside the grid.
  std::span<const int> query(glm::dvec2 p) const {
    if (start_.empty()) {
      return {};
    }
    const glm::dvec2 local = (p - origin_) / cell_;
    if (!(local.x >= 0.0 && local.y >= 0.0 && local.x < nx_ && local.y < nz_)) {
      return {};
    }
    const std::size_t c =
        static_cast<std::size_t>(local.y) * nx_ + static_cast<std::size_t>(local.x);
    return std::span<const int>(items_).subspan(
        static_cast<std::size_t>(start_[c]), static_cast<std::size_t>(start_[c + 1] - start_[c]));
  }

private:
  glm::ivec2 cell_of(glm::dvec2 p) const {
    const glm::dvec2 local = (p - origin_) / cell_;
    return {std::clamp(static_cast<int>(std::floor(local.x)), 0, nx_ - 1),
            std::clamp(static_cast<int>(std::floor(local.y)), 0, nz_ - 1)};
  }

  glm::dvec2 origin_{0.0};
  double cell_ = 1.0;
  int nx_ = 0, nz_ = 0;
  std::vector<int> start_, items_;
};

double distance_to_segment(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  double t = len2 > 0.0 ? glm::dot(p - a, ab) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return glm::length(p - (a + t * ab));
}

struct Obstacle {
  std::vector<glm::dvec2> points;
  Box box;

  /// Distance to the boundary, negative inside (crossing-number test, any winding).
  double signed_distance(glm::dvec2 p) const {
    double dist = std::numeric_limits<double>::max();
    bool inside = false;
    const std::size_t n = points.size();
    for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
      const glm::dvec2 a = points[j], b = points[i];
      dist = std::min(dist, distance_to_segment(p, a, b));
      if ((b.y > p.y) != (a.y > p.y) && p.x < (a.x - b.x) * (p.y - b.y) / (a.y - b.y) + b.x) {
        inside = !inside;
      }
    }
    return inside ? -dist : dist;
  }
};

/// Signed distance from `p` to the edges of the rectangle, negative outside it.
double bounds_signed_distance(glm::dvec2 p, glm::dvec2 lo, glm::dvec2 hi) {
  if (p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y) {
    return std::min({p.x - lo.x, hi.x - p.x, p.y - lo.y, hi.y - p.y});
  }
  const glm::dvec2 out = glm::max(glm::max(lo - p, p - hi), glm::dvec2(0.0));
  return -glm::length(out);
}

struct QueryFree {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};
using OwnedQuery = std::unique_ptr<dtNavMeshQuery, QueryFree>;

OwnedQuery new_query(const dtNavMesh* nav, int max_nodes) {
  OwnedQuery q(dtAllocNavMeshQuery());
  if (!q || dtStatusFailed(q->init(nav, max_nodes))) {
    throw std::runtime_error("metrics: could not create a navmesh query");
  }
  return q;
}

/// Events of one step (or of part of it), reduced over agents.
struct StepTally {
  long long overlaps = 0;
  double max_overlap = 0.0;
  long long walls = 0;
  double max_wall = 0.0;
  void join(const StepTally& o) {
    overlaps += o.overlaps;
    max_overlap = std::max(max_overlap, o.max_overlap);
    walls += o.walls;
    max_wall = std::max(max_wall, o.max_wall);
  }
};

/// A float as the double with the same shortest decimal form (0.1f -> 0.1, not
/// 0.10000000149011612), so that JSON shows the number the user wrote.
double decimal_double(float value) {
  if (!std::isfinite(value)) {
    return static_cast<double>(value);
  }
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  *end = '\0';
  return std::strtod(buf, nullptr);
}

std::uint32_t cell_hash(std::int32_t x, std::int32_t z) {
  return static_cast<std::uint32_t>(x) * 73856093u ^ static_cast<std::uint32_t>(z) * 19349663u;
}

std::int32_t cell_coord(float v, double inv_cell) {
  const double c = std::floor(static_cast<double>(v) * inv_cell);
  return static_cast<std::int32_t>(std::clamp(c, -1.0e9, 1.0e9));
}

} // namespace

struct MetricsCollector::Impl {
  struct Agent {
    float radius = 0.0f;
    glm::vec3 last{0.0f}; ///< Position at the last observed step.
    double walked = 0.0;
    double path_length = 0.0; ///< 0 when unknown (unreachable) or degenerate.
    double free_time = 0.0;   ///< path_length at max_speed plus waits; 0 without a length.
    bool unreachable = false;
    std::optional<double> arrival_time;
    bool arrived_by_contact = false;
    std::optional<double> walked_at_arrival; ///< Unset while the arrival step is unobserved.
    std::optional<double> start_time;        ///< Unset until the agent enters.
    std::size_t type = 0;                    ///< Index in type_names.
    float max_speed = 0.0f;
  };

  std::string scenario_name;
  float dt = 0.0f;
  float agent_height = 2.0f;
  float nav_radius = 0.0f;
  float max_radius = 0.0f;
  std::vector<Agent> agents;
  std::vector<std::string> type_names; ///< In order of first appearance.

  std::optional<PeriodicFrame> periodic; ///< Scenario extension world.periodic.
  // Walls of 2D worlds.
  bool has_bounds = false;
  glm::dvec2 bounds_min{0.0}, bounds_max{0.0};
  std::vector<Obstacle> obstacles;
  /// Scenario extension `events` (2D worlds): every placement of a dynamic obstacle, its shape,
  /// and those standing in the step observed.
  std::vector<TimedObstacle> timeline;
  std::vector<Obstacle> timeline_shapes;
  std::vector<int> standing;
  // Walls of mesh worlds: the navmesh's boundary, taken again when its tiles change (dynamic
  // obstacles), so that it stays the navmesh the agents step on.
  bool mesh_world = false;
  const NavMesh* navmesh = nullptr;
  std::uint64_t segments_version = 0;
  std::vector<WallSegment> segments;
  std::vector<Box> wall_boxes;    ///< Of the obstacles (2D) or boundary segments (mesh).
  StaticGrid wall_grid;           ///< wall_boxes grown by the reach of the largest agent.
  float wall_grid_radius = -1.0f; ///< max_radius the grid was built for.
  std::unique_ptr<tbb::enumerable_thread_specific<OwnedQuery>> step_queries;

  // The navmesh, as Detour objects: the dtNavMesh lives on the heap of NavMesh's Impl, so this
  // pointer survives moves of the NavMesh; the NavMesh itself must outlive the collector.
  const dtNavMesh* nav = nullptr;
  dtQueryFilter filter;
  glm::vec3 extents{0.0f};

  // Per-step scratch for the overlap grid, kept to avoid reallocating every step. The active
  // agents are copied in bucket order (structure of arrays), so that the pair loop reads each
  // bucket's agents from consecutive memory.
  struct Slot {
    float x, y, z, radius;
    int agent;
    std::int32_t cx, cz;
    bool ghost; ///< A periodic image of an agent near the low end, placed past the high end.
  };
  std::vector<Slot> unsorted, slots;
  std::vector<std::uint32_t> bucket_of;
  std::vector<int> bucket_start, bucket_fill;

  int observed_steps = 0;
  long long overlap_events = 0, wall_events = 0;
  double max_overlap = 0.0, max_wall = 0.0;

  StepTimeStats step_ms;
  StageTimes stage_totals; ///< Summed over the steps observed.

  double wall_penetration(const glm::vec3& pos, float radius) const;
  double mesh_wall_penetration(const glm::vec3& pos, float radius) const;
  void add_agents(const AgentSetupTable& setups, std::span<const ShortestRoute> routes);
  void add_agent(const AgentPlacement& setup, float radius, const std::string& type,
                 float max_speed, const ShortestRoute& route);
  void update_wall_grid();
  /// A mesh world's walls: the navmesh's boundary as it is now.
  void take_mesh_walls();
  static void add_walking_time(Agent& agent);
};

void MetricsCollector::Impl::take_mesh_walls() {
  segments = navmesh->boundary_segments();
  segments_version = navmesh->tiles_version();
  wall_boxes.assign(segments.size(), Box{});
  for (std::size_t k = 0; k < segments.size(); ++k) {
    wall_boxes[k].add({segments[k].p.x, segments[k].p.z});
    wall_boxes[k].add({segments[k].q.x, segments[k].q.z});
  }
  wall_grid_radius = -1.0f; // built again for these boxes
}

void MetricsCollector::Impl::update_wall_grid() {
  if (wall_grid_radius >= max_radius) {
    return;
  }
  // On a mesh world a segment matters on the navmesh only within r - R of the centre (off the
  // navmesh the distance comes from findNearestPoly); obstacles matter within r.
  const double reach = mesh_world ? std::max(static_cast<double>(max_radius) - nav_radius, 0.0)
                                  : static_cast<double>(max_radius);
  wall_grid.build(wall_boxes, reach, std::max(2.0 * max_radius, 0.5));
  wall_grid_radius = max_radius;
}

void MetricsCollector::Impl::add_agents(const AgentSetupTable& setups,
                                        std::span<const ShortestRoute> routes) {
  if (routes.size() != setups.size())
    throw std::invalid_argument("metrics: " + std::to_string(routes.size()) + " routes for " +
                                std::to_string(setups.size()) + " agents");
  agents.reserve(agents.size() + setups.size());
  const AgentParamsTable& params = setups.params();
  for (std::size_t i = 0; i < setups.size(); ++i)
    add_agent(setups[i], params.radius(i), params.type(i), params.max_speed(i), routes[i]);
  update_wall_grid();
}

void MetricsCollector::Impl::add_agent(const AgentPlacement& setup, float radius,
                                       const std::string& type, float max_speed,
                                       const ShortestRoute& route) {
  Agent& agent = agents.emplace_back();
  agent.radius = radius;
  const auto named = std::find(type_names.begin(), type_names.end(), type);
  agent.type = static_cast<std::size_t>(named - type_names.begin());
  if (named == type_names.end()) {
    type_names.push_back(type);
  }
  agent.last = setup.position;
  if (!(setup.start_time > 0.0)) {
    agent.start_time = 0.0;
  }
  double waits = 0.0;
  for (const RouteWaypoint& w : setup.waypoints) {
    waits += static_cast<double>(w.wait);
  }
  agent.free_time = waits;
  agent.max_speed = max_speed;
  agent.unreachable = !route.reachable;
  agent.path_length = route.length;
  add_walking_time(agent);
  max_radius = std::max(max_radius, radius);
}

void MetricsCollector::Impl::add_walking_time(Agent& agent) {
  if (agent.path_length > 0.0 && agent.max_speed > 0.0f) {
    agent.free_time += agent.path_length / static_cast<double>(agent.max_speed);
  } else {
    agent.free_time = 0.0;
  }
}

double MetricsCollector::Impl::mesh_wall_penetration(const glm::vec3& pos, float radius) const {
  const double r = radius;
  const double nav_r = nav_radius;
  dtNavMeshQuery& query = *step_queries->local();
  const float center[3] = {pos.x, pos.y, pos.z};
  const float half[3] = {extents.x, extents.y, extents.z};
  dtPolyRef ref = 0;
  float nearest[3] = {pos.x, pos.y, pos.z};
  bool over = false;
  const dtStatus status = query.findNearestPoly(center, half, &filter, &ref, nearest, &over);
  const glm::dvec2 p(pos.x, pos.z);
  if (!dtStatusFailed(status) && ref != 0 && over) {
    // On the navmesh: the wall is nav_r beyond the nearest boundary segment at this level.
    if (r <= nav_r) {
      return r - nav_r; // <= 0 whatever the distance.
    }
    double d = r - nav_r; // Only segments nearer than this matter.
    for (const int k : wall_grid.query(p)) {
      const WallSegment& s = segments[static_cast<std::size_t>(k)];
      const float lo = std::min(s.p.y, s.q.y) - agent_height;
      const float hi = std::max(s.p.y, s.q.y) + agent_height;
      if (pos.y < lo || pos.y > hi) {
        continue;
      }
      d = std::min(d, distance_to_segment(p, {s.p.x, s.p.z}, {s.q.x, s.q.z}));
    }
    return r - nav_r - d;
  }
  double d_out = 0.0;
  if (!dtStatusFailed(status) && ref != 0) {
    d_out = std::hypot(static_cast<double>(nearest[0]) - pos.x,
                       static_cast<double>(nearest[2]) - pos.z);
  } else {
    // Nothing within placement extents: far off the mesh, measure to every boundary segment.
    d_out = std::numeric_limits<double>::max();
    for (const WallSegment& s : segments) {
      d_out = std::min(d_out, distance_to_segment(p, {s.p.x, s.p.z}, {s.q.x, s.q.z}));
    }
    if (segments.empty()) {
      return 0.0;
    }
  }
  return r - nav_r + d_out;
}

double MetricsCollector::Impl::wall_penetration(const glm::vec3& pos, float radius) const {
  if (mesh_world) {
    return mesh_wall_penetration(pos, radius);
  }
  const glm::dvec2 p(pos.x, pos.z);
  const double r = radius;
  double pen = std::numeric_limits<double>::lowest();
  if (has_bounds) {
    pen = r - bounds_signed_distance(p, bounds_min, bounds_max);
  }
  for (const int k : wall_grid.query(p)) {
    pen = std::max(pen, r - obstacles[static_cast<std::size_t>(k)].signed_distance(p));
  }
  // The dynamic obstacles standing in this step (few: each is looked at).
  for (const int k : standing) {
    const Obstacle& o = timeline_shapes[static_cast<std::size_t>(k)];
    if (p.x + r < o.box.min.x || p.x - r > o.box.max.x || p.y + r < o.box.min.y ||
        p.y - r > o.box.max.y)
      continue;
    pen = std::max(pen, r - o.signed_distance(p));
  }
  return pen;
}

MetricsCollector::MetricsCollector(const Scenario& scenario, const NavMesh& navmesh,
                                   std::span<const AgentSetup> agents,
                                   std::span<const ShortestRoute> routes)
    : MetricsCollector(scenario, navmesh, AgentSetupTable(agents), routes) {}

MetricsCollector::MetricsCollector(const Scenario& scenario, const NavMesh& navmesh,
                                   const AgentSetupTable& agents,
                                   std::span<const ShortestRoute> routes)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.scenario_name = scenario.name;
  m.dt = scenario.dt;
  m.agent_height = navmesh.settings().agent_height;
  m.nav_radius = navmesh.settings().agent_radius;
  m.nav = &navmesh.detour();
  m.filter = navmesh.filter();
  m.extents = navmesh.placement_extents();

  if (scenario.world.is_mesh()) {
    m.mesh_world = true;
    m.navmesh = &navmesh;
    m.take_mesh_walls();
    const dtNavMesh* nav = m.nav;
    m.step_queries = std::make_unique<tbb::enumerable_thread_specific<OwnedQuery>>(
        [nav] { return new_query(nav, 64); });
  } else {
    if (scenario.world.bounds) {
      m.has_bounds = true;
      m.bounds_min = scenario.world.bounds->min;
      m.bounds_max = scenario.world.bounds->max;
    }
    m.periodic = periodic_frame(scenario);
    std::vector<Polygon2D> polygons = scenario.world.obstacles;
    if (m.periodic) {
      // No wall across the periodic axis: its edges move out of reach.
      m.bounds_min[m.periodic->axis] = -std::numeric_limits<double>::max();
      m.bounds_max[m.periodic->axis] = std::numeric_limits<double>::max();
      polygons = obstacles_with_images(scenario.world, *m.periodic, m.periodic->runway);
    }
    m.timeline = obstacle_timeline(scenario);
    for (const TimedObstacle& placed : m.timeline) {
      Obstacle o;
      for (const glm::vec2& v : placed.outline) {
        o.points.emplace_back(v);
        o.box.add(glm::dvec2(v));
      }
      m.timeline_shapes.push_back(std::move(o));
    }
    for (const Polygon2D& polygon : polygons) {
      if (polygon.size() < 3) {
        continue;
      }
      Obstacle o;
      for (const glm::vec2& v : polygon) {
        o.points.emplace_back(v);
        o.box.add(glm::dvec2(v));
      }
      m.wall_boxes.push_back(o.box);
      m.obstacles.push_back(std::move(o));
    }
  }
  m.add_agents(agents, routes);
}

MetricsCollector::~MetricsCollector() = default;
MetricsCollector::MetricsCollector(MetricsCollector&&) noexcept = default;

void MetricsCollector::add_agent(const AgentSetup& agent, const ShortestRoute& route) {
  impl_->add_agent(agent, agent.params.radius, agent.params.type, agent.params.max_speed, route);
  impl_->update_wall_grid();
}

void MetricsCollector::observe_step(std::span<const glm::vec3> positions,
                                    std::span<const AgentPhase> phases,
                                    std::span<const std::uint8_t> on_links,
                                    ObservationSplit* split) {
  Impl& m = *impl_;
  // Agents beyond the ones made known (constructor, add_agent) have no radius: not measured.
  const std::size_t n = std::min(positions.size(), m.agents.size());
  const double inv_cell =
      m.max_radius > 0.0f ? 1.0 / (2.0 * static_cast<double>(m.max_radius)) : 1.0;

  ++m.observed_steps;
  if (m.mesh_world && m.navmesh->tiles_version() != m.segments_version) {
    m.take_mesh_walls();
    m.update_wall_grid();
  }
  const double now = m.observed_steps * static_cast<double>(m.dt);
  // The dynamic obstacles that stood during the step observed (it started one dt before now).
  m.standing.clear();
  for (std::size_t k = 0; k < m.timeline.size(); ++k)
    if (m.timeline[k].stands_at((m.observed_steps - 1) * static_cast<double>(m.dt)))
      m.standing.push_back(static_cast<int>(k));
  m.unsorted.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (i < phases.size() && !is_present(phases[i])) {
      continue;
    }
    Impl::Agent& a = m.agents[i];
    const glm::vec3& p = positions[i];
    double dx = static_cast<double>(p.x) - a.last.x;
    double dz = static_cast<double>(p.z) - a.last.z;
    if (m.periodic) {
      double& along = m.periodic->axis == 0 ? dx : dz;
      along = m.periodic->nearest_image(static_cast<float>(along));
    }
    a.walked += std::sqrt(dx * dx + dz * dz);
    a.last = p;
    if (a.arrival_time && !a.walked_at_arrival && now + 0.25 * m.dt >= *a.arrival_time) {
      a.walked_at_arrival = a.walked;
    }
    m.unsorted.push_back({p.x, p.y, p.z, a.radius, static_cast<int>(i), cell_coord(p.x, inv_cell),
                          cell_coord(p.z, inv_cell), false});
    if (m.periodic) {
      // An agent within reach of the low end also stands one period up, where the agents
      // near the high end can touch it (the pair loop skips ghost-ghost pairs, so each pair is
      // counted once).
      glm::vec3 image = p;
      float& along = m.periodic->axis == 0 ? image.x : image.z;
      if (along < m.periodic->lo + 2.0f * m.max_radius) {
        along += m.periodic->period();
        m.unsorted.push_back({image.x, image.y, image.z, a.radius, static_cast<int>(i),
                              cell_coord(image.x, inv_cell), cell_coord(image.z, inv_cell), true});
      }
    }
  }
  const std::size_t count = m.unsorted.size();
  if (count == 0 || !(m.max_radius > 0.0f)) {
    return;
  }

  // Hash grid: cell = 2 x the largest radius, so two discs that touch are in neighbouring
  // cells; cells hashed into buckets, bucket contents made contiguous by counting sort.
  std::size_t table = 16;
  while (table < 2 * count) {
    table <<= 1;
  }
  const std::uint32_t mask = static_cast<std::uint32_t>(table - 1);
  m.bucket_of.resize(count);
  m.bucket_start.assign(table + 1, 0);
  for (std::size_t k = 0; k < count; ++k) {
    m.bucket_of[k] = cell_hash(m.unsorted[k].cx, m.unsorted[k].cz) & mask;
    ++m.bucket_start[m.bucket_of[k] + 1];
  }
  for (std::size_t b = 1; b <= table; ++b) {
    m.bucket_start[b] += m.bucket_start[b - 1];
  }
  m.bucket_fill.assign(m.bucket_start.begin(), m.bucket_start.end() - 1);
  m.slots.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    m.slots[static_cast<std::size_t>(m.bucket_fill[m.bucket_of[k]]++)] = m.unsorted[k];
  }

  const Impl& cm = m;
  // Split: this process measures the pairs and walls of its agents' slots only (a pair at the
  // earlier of its two slots, as below), and the counts and maxima are combined exactly.
  const std::span<const std::uint8_t> measured =
      split != nullptr ? split->measured_here(positions.size()) : std::span<const std::uint8_t>{};
  StepTally tally = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, 1024), StepTally{},
      [&](const tbb::blocked_range<std::size_t>& r, StepTally t) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) {
          const Impl::Slot& a = cm.slots[k];
          if (!measured.empty() && measured[static_cast<std::size_t>(a.agent)] == 0)
            continue; // another process's
          const double ra = a.radius;

          // Overlaps with the agents in the 3 x 3 neighbouring cells. Two of those cells can
          // hash to one bucket: visit each bucket once. Agents of far cells sharing a bucket
          // are too far apart to touch. Two agents that touch are in neighbouring cells, so
          // each finds the other: counting only partners in a later slot counts the pair once.
          std::array<std::uint32_t, 9> buckets{};
          std::size_t nb = 0;
          for (int dz = -1; dz <= 1; ++dz) {
            for (int dx = -1; dx <= 1; ++dx) {
              const std::uint32_t b = cell_hash(a.cx + dx, a.cz + dz) & mask;
              if (std::find(buckets.begin(), buckets.begin() + nb, b) == buckets.begin() + nb) {
                buckets[nb++] = b;
              }
            }
          }
          for (std::size_t q = 0; q < nb; ++q) {
            const std::size_t end = static_cast<std::size_t>(cm.bucket_start[buckets[q] + 1]);
            for (std::size_t s =
                     std::max(static_cast<std::size_t>(cm.bucket_start[buckets[q]]), k + 1);
                 s < end; ++s) {
              const Impl::Slot& b = cm.slots[s];
              if ((a.ghost && b.ghost) ||
                  std::abs(static_cast<double>(a.y) - b.y) > cm.agent_height) {
                continue;
              }
              const double sum = ra + b.radius;
              const double dx = static_cast<double>(a.x) - b.x;
              const double dz = static_cast<double>(a.z) - b.z;
              const double d2 = dx * dx + dz * dz;
              if (d2 >= sum * sum) {
                continue;
              }
              const double pen = sum - std::sqrt(d2);
              t.max_overlap = std::max(t.max_overlap, pen);
              if (pen > kOverlapThreshold * sum) {
                ++t.overlaps;
              }
            }
          }

          if (a.ghost) {
            continue; // Its agent's walls were measured where it stands.
          }
          if (static_cast<std::size_t>(a.agent) < on_links.size() &&
              on_links[static_cast<std::size_t>(a.agent)] != 0) {
            continue; // Crossing a link, off the navmesh by design.
          }
          const double wall = cm.wall_penetration({a.x, a.y, a.z}, a.radius);
          if (wall > 0.0) {
            t.max_wall = std::max(t.max_wall, wall);
            if (wall > kWallThreshold * ra) {
              ++t.walls;
            }
          }
        }
        return t;
      },
      [](StepTally x, const StepTally& y) {
        x.join(y);
        return x;
      });
  if (split != nullptr) {
    long long sums[] = {tally.overlaps, tally.walls};
    double maxima[] = {tally.max_overlap, tally.max_wall};
    split->reduce(sums, maxima);
    tally = {sums[0], maxima[0], sums[1], maxima[1]};
  }
  m.overlap_events += tally.overlaps;
  m.max_overlap = std::max(m.max_overlap, tally.max_overlap);
  m.wall_events += tally.walls;
  m.max_wall = std::max(m.max_wall, tally.max_wall);
}

void MetricsCollector::record_start(int agent, double time) {
  Impl& m = *impl_;
  if (agent >= 0 && agent < static_cast<int>(m.agents.size())) {
    m.agents[static_cast<std::size_t>(agent)].start_time = time;
  }
}

void MetricsCollector::record_arrival(int agent, double time, bool by_contact) {
  Impl& m = *impl_;
  if (agent < 0 || agent >= static_cast<int>(m.agents.size())) {
    return; // Not one of the agents this collector measures.
  }
  Impl::Agent& a = m.agents[static_cast<std::size_t>(agent)];
  if (a.arrival_time) {
    return; // The first arrival counts (the goal the path length was computed for).
  }
  a.arrival_time = time;
  a.arrived_by_contact = by_contact;
  // If the step that ended at `time` was already observed, its displacement is in `walked`;
  // otherwise the next observe_step freezes the distance.
  const double observed = m.observed_steps * static_cast<double>(m.dt);
  if (observed + 0.25 * m.dt >= time) {
    a.walked_at_arrival = a.walked;
  }
}

void MetricsCollector::record_step_time(double ms, const StageTimes& stages) {
  impl_->step_ms.add(ms);
  for (const auto& [stage, stage_ms] : stages.entries())
    add_stage_time(stage, stage_ms);
}

void MetricsCollector::add_stage_time(const std::string& stage, double ms) {
  impl_->stage_totals.add(stage, ms);
}

long long MetricsCollector::overlap_events() const {
  return impl_->overlap_events;
}
long long MetricsCollector::wall_events() const {
  return impl_->wall_events;
}

MetricsSummary MetricsCollector::summary(const std::string& backend, int steps_run) const {
  const Impl& m = *impl_;
  MetricsSummary s;
  s.scenario = m.scenario_name;
  s.backend = backend;
  s.agents = 0;
  s.steps = steps_run;
  s.dt = m.dt;

  double time_sum = 0.0, time_max = 0.0, ratio_sum = 0.0, time_ratio_sum = 0.0;
  int ratios = 0, time_ratios = 0;
  s.types.resize(m.type_names.size());
  std::vector<double> type_time_sums(m.type_names.size(), 0.0);
  for (std::size_t t = 0; t < m.type_names.size(); ++t) {
    s.types[t].type = m.type_names[t];
  }
  for (const Impl::Agent& a : m.agents) {
    if (!a.start_time) {
      continue; // Never entered: its start time is after the last step or its place stayed taken.
    }
    ++s.agents;
    ++s.types[a.type].agents;
    s.unreachable += a.unreachable ? 1 : 0;
    if (!a.arrival_time) {
      continue;
    }
    ++s.arrived;
    s.arrived_by_contact += a.arrived_by_contact ? 1 : 0;
    const double travel = *a.arrival_time - *a.start_time;
    ++s.types[a.type].arrived;
    type_time_sums[a.type] += travel;
    time_sum += travel;
    time_max = std::max(time_max, travel);
    if (a.path_length > 0.0) {
      ratio_sum += a.walked_at_arrival.value_or(a.walked) / a.path_length;
      ++ratios;
    }
    if (a.free_time > 0.0) {
      time_ratio_sum += travel / a.free_time;
      ++time_ratios;
    }
  }
  if (s.arrived > 0) {
    s.mean_arrival_time = time_sum / s.arrived;
    s.max_arrival_time = time_max;
  }
  for (std::size_t t = 0; t < s.types.size(); ++t) {
    if (s.types[t].arrived > 0) {
      s.types[t].mean_arrival_time = type_time_sums[t] / s.types[t].arrived;
    }
  }
  if (ratios > 0) {
    s.mean_path_ratio = ratio_sum / ratios;
  }
  if (time_ratios > 0) {
    s.mean_time_ratio = time_ratio_sum / time_ratios;
  }
  s.overlap_events = m.overlap_events;
  s.max_overlap = m.max_overlap;
  s.wall_events = m.wall_events;
  s.max_wall_penetration = m.max_wall;

  if (m.step_ms.count() > 0) {
    const double n = static_cast<double>(m.step_ms.count());
    s.step_ms_mean = m.step_ms.mean();
    s.step_ms_p95 = m.step_ms.p95();
    for (const auto& [stage, ms] : m.stage_totals.entries()) {
      s.stage_ms.emplace_back(stage, ms / n);
    }
  }
  return s;
}

nlohmann::ordered_json to_json(const MetricsSummary& s) {
  // ordered_json keeps insertion order: the order of outputs.md, and stage_ms in pipeline order.
  const auto optional = [](const std::optional<double>& v) -> nlohmann::ordered_json {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json stages = nlohmann::ordered_json::object();
  for (const auto& [stage, ms] : s.stage_ms) {
    stages[stage] = ms;
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["scenario"] = s.scenario;
  j["backend"] = s.backend;
  j["agents"] = s.agents;
  j["steps"] = s.steps;
  j["dt"] = decimal_double(s.dt);
  j["arrived"] = s.arrived;
  j["unreachable"] = s.unreachable;
  j["mean_arrival_time"] = optional(s.mean_arrival_time);
  j["max_arrival_time"] = optional(s.max_arrival_time);
  j["overlap_events"] = s.overlap_events;
  j["max_overlap"] = s.max_overlap;
  j["wall_events"] = s.wall_events;
  j["max_wall_penetration"] = s.max_wall_penetration;
  j["mean_path_ratio"] = optional(s.mean_path_ratio);
  j["step_ms_mean"] = s.step_ms_mean;
  j["step_ms_p95"] = s.step_ms_p95;
  j["stage_ms"] = std::move(stages);
  // Only scenarios that use types get the key, so other outputs stay as they were.
  const bool typed = std::any_of(s.types.begin(), s.types.end(),
                                 [](const TypeSummary& t) { return t.type != AgentParams{}.type; });
  if (typed) {
    nlohmann::ordered_json types = nlohmann::ordered_json::object();
    for (const TypeSummary& t : s.types) {
      types[t.type] = {{"agents", t.agents},
                       {"arrived", t.arrived},
                       {"mean_arrival_time", optional(t.mean_arrival_time)}};
    }
    j["types"] = std::move(types);
  }
  // Health of the run, after the spec's keys (outputs.md asks for "at least" its keys).
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const FaultRecord& f : s.faults)
    faults.push_back({{"agent", f.agent}, {"step", f.step}, {"stage", f.stage}});
  j["frozen_agents"] = s.faults.size();
  j["faults"] = std::move(faults);
  j["stuck_agents"] = s.stuck.agents;
  j["stuck_episodes"] = s.stuck.episodes;
  j["stuck_replans"] = s.stuck.replans;
  j["stuck_seconds_total"] = s.stuck.total_seconds;
  j["stuck_seconds_max"] = s.stuck.longest_seconds;
  j["stuck_at_end"] = s.stuck.stuck_now;
  j["navmesh_corrections"] = s.navmesh_corrections;
  j["max_navmesh_correction"] = s.max_navmesh_correction;
  j["link_traversals"] = s.link_traversals;
  // Crowd flow (docs/scenario-extensions.md, "Metrics keys of crowd flow").
  j["arrived_by_contact"] = s.arrived_by_contact;
  j["deadlocked_agents"] = s.deadlocks.agents;
  j["deadlocked_at_end"] = s.deadlocks.at_end;
  j["mean_time_ratio"] = optional(s.mean_time_ratio);
  j["lane_index"] = optional(s.lane_index);
  return j;
}

namespace {

// The field lists of a checkpoint (host/checkpoint/archive.h), shared by save and restore.
constexpr auto kAgentFields = [](auto& archive, auto& a) {
  archive.fields(a.radius, a.last, a.walked, a.path_length, a.free_time, a.unreachable,
                 a.arrival_time, a.arrived_by_contact, a.walked_at_arrival, a.start_time, a.type,
                 a.max_speed);
};
constexpr auto kStageTotalFields = [](auto& archive, auto& stage_total) {
  archive.fields(stage_total.first, stage_total.second);
};

} // namespace

void MetricsCollector::save(ArchiveWriter& out) const {
  const Impl& m = *impl_;
  out.put_records(m.agents, kAgentFields);
  out.fields(m.type_names, m.max_radius, m.observed_steps, m.overlap_events, m.wall_events,
             m.max_overlap, m.max_wall);
  m.step_ms.save(out);
  out.put_records(m.stage_totals.entries(), kStageTotalFields);
}

void MetricsCollector::restore(ArchiveReader& in) {
  Impl& m = *impl_;
  in.get_records(m.agents, kAgentFields);
  in.get(m.type_names);
  for (const Impl::Agent& a : m.agents)
    if (a.type >= m.type_names.size())
      in.fail("an agent's type index is out of range");
  in.fields(m.max_radius, m.observed_steps, m.overlap_events, m.wall_events, m.max_overlap,
            m.max_wall);
  // The largest radius sizes the wall grid's cells: it must be its agents' (a damaged value
  // would ask for a grid of any size).
  float largest = 0.0f;
  for (const Impl::Agent& a : m.agents) {
    if (!(a.radius > 0.0f && a.radius <= 1e3f))
      in.fail("an agent's radius is not a number in (0, 1000]");
    largest = std::max(largest, a.radius);
  }
  if (m.max_radius != largest)
    in.fail("the largest agent radius does not match the agents'");
  m.update_wall_grid();
  m.step_ms.restore(in);
  std::vector<std::pair<std::string, double>> stage_totals;
  in.get_records(stage_totals, kStageTotalFields);
  m.stage_totals.clear();
  for (const auto& [stage, ms] : stage_totals)
    m.stage_totals.add(stage, ms);
}

} // namespace crowd

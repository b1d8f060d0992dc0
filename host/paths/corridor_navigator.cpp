#include "host/paths/corridor_navigator.h"

#include "cuda/kernels/corner_steering.h"
#include "cuda/kernels/corridor_validity.h"
#include "host/checkpoint/archive.h"
#include "host/navmesh/nearest_polygon.h"
#include "host/paths/corridor_corners.h"
#include "host/paths/corridor_move.h"
#include "host/paths/corridor_visibility.h"
#include "host/paths/hierarchical_search.h"
#include "host/paths/navmesh_tables.h"
#include "host/paths/path_tree.h"
#include "host/paths/portal_table.h"
#include "host/paths/tile_graph.h"

#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>
#include <algorithm>
#include <cmath>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/combinable.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <optional>
#include <unordered_map>
#include <vector>

namespace crowd {
namespace {

// dtCrowd's checkPathValidity constants (DetourCrowd.cpp).
constexpr int kCheckLookahead = 10;
constexpr float kTargetReplanDelay = 1.0f; // seconds

// Hierarchical search on a tiled navmesh (tile_graph.h). A shared path tree covers the tiles
// within kTreeWindowTiles of its goal's tile, so that trees stay bounded however large the
// world; an agent outside it gets a search of its own. A search between tiles further apart
// than kRouteMarginTiles runs over the tiles of the tile route and those within
// kRouteMarginTiles of it, instead of over the whole mesh; nearer ones are Detour's A*.
constexpr int kTreeWindowTiles = 1;
constexpr int kRouteMarginTiles = 1;

struct NavAgent {
  dtPathCorridor corridor;
  DenseCorridor dense; ///< corridor's polygons as dense indices, for the corners kernel
  dtPolyRef target_ref = 0;
  glm::vec3 target_pos{0.0f};
  TargetState state = TargetState::None;
  float replan_time = 0.0f;
  float topology_time = 0.0f;
  float radius = 0.0f;
  float max_speed = 0.0f;
  bool queued = false;
  bool wants_path = false;       ///< Set by the validity check, queued in index order after it.
  bool goal_unreachable = false; ///< The last search proved the goal out of reach.
};

struct CachedTree {
  PathTree tree;
  std::uint64_t last_used = 0; ///< path_step of the last request it served
};

struct PathResult {
  int agent = -1;
  std::vector<dtPolyRef> path;
  glm::vec3 end{0.0f};
  bool ok = false;
  bool partial_final = false;
};

} // namespace

struct CorridorNavigator::Impl {
  const NavMesh& navmesh;
  SolverOptions options;
  tbb::task_arena& arena;
  std::deque<NavAgent> agents;
  std::deque<int> queue; // agents waiting for a path search, first come first served
  tbb::enumerable_thread_specific<NavQueryPtr> queries;
  PolygonGraph graph;
  PortalTable portals;            // every portal of the navmesh, for the corners of every step
  PolygonShapes shapes;           // every polygon's outline, for the closest points and raycasts
  NavmeshTablesView tables;       // portals and shapes as the corridor kernels read them
  std::optional<TileGraph> tiles; // a tiled navmesh's tiles, for hierarchical searches
  std::unordered_map<std::int32_t, CachedTree> trees; // by goal polygon
  std::uint64_t path_step = 0;
  std::size_t searches = 0;               // trees built plus A* searches, for tests and inspection
  std::vector<std::pair<float, int>> due; // scratch of optimize_topology: (waited, agent)

  Impl(const NavMesh& mesh, const SolverOptions& opts, tbb::task_arena& task_arena)
      : navmesh(mesh), options(opts), arena(task_arena),
        queries([this] { return navmesh.make_query(options.path_search_nodes); }),
        graph(mesh.detour(), mesh.filter()), portals(mesh.detour()),
        shapes(mesh.detour(), mesh.filter()), tables(navmesh_tables_view(portals, shapes)) {
    if (mesh.tile_size() > 0)
      tiles.emplace(mesh.detour());
  }

  // The tiles a shared tree toward `goal` covers: all of a single-tile navmesh (an empty
  // mask), else a window around the goal's tile.
  TileMask tree_window(int goal) const {
    TileMask mask;
    if (tiles)
      tiles->mark_around({graph.tile_of(goal)}, kTreeWindowTiles, mask);
    return mask;
  }

  dtNavMeshQuery& query() { return *queries.local(); }

  // The point of `poly` nearest `target`: where a path that stops short of its target (longer
  // than the corridor holds, or partial) ends. Nothing when Detour cannot tell.
  std::optional<glm::vec3> nearest_in(dtPolyRef poly, const glm::vec3& target) {
    float nearest[3];
    if (dtStatusFailed(query().closestPointOnPoly(poly, &target.x, nearest, nullptr)))
      return std::nullopt;
    return glm::vec3(nearest[0], nearest[1], nearest[2]);
  }

  template <class F> void for_each_agent(F&& f) {
    const int n = static_cast<int>(agents.size());
    tbb::parallel_for(tbb::blocked_range<int>(0, n, 16), [&](const tbb::blocked_range<int>& r) {
      for (int i = r.begin(); i < r.end(); ++i)
        f(i);
    });
  }

  void enqueue(int index) {
    NavAgent& a = agents[static_cast<std::size_t>(index)];
    a.wants_path = false;
    if (a.queued)
      return;
    a.queued = true;
    a.state = TargetState::WaitingForPath;
    queue.push_back(index);
  }

  // dtCrowd::checkPathValidity for one agent; returns whether to replan.
  bool check_validity(int i, AgentArrays& arrays, float dt) {
    NavAgent& a = agents[static_cast<std::size_t>(i)];
    if (arrays.mode[static_cast<std::size_t>(i)] == kAgentInactive || a.state == TargetState::None)
      return false;
    a.replan_time += dt;
    dtNavMeshQuery& q = query();
    const dtQueryFilter& filter = navmesh.filter();
    bool replan = false;
    dtPolyRef agent_ref = a.corridor.getFirstPoly();
    glm::vec3 agent_pos = arrays.position[static_cast<std::size_t>(i)];
    if (!q.isValidPolyRef(agent_ref, &filter)) {
      // Current location is not valid: find the nearest polygon and move there.
      const glm::vec3 ext = navmesh.placement_extents();
      float nearest[3];
      agent_ref = 0;
      q.findNearestPoly(&agent_pos.x, &ext.x, &filter, &agent_ref, nearest);
      if (!agent_ref)
        return false; // stays invalid; checked again next step
      agent_pos = {nearest[0], nearest[1], nearest[2]};
      a.corridor.reset(agent_ref, nearest);
      arrays.position[static_cast<std::size_t>(i)] = agent_pos;
      replan = true;
    }
    if (a.state == TargetState::Failed)
      return false;
    const std::vector<std::int32_t>& dense_path = a.dense.of(a.corridor, portals.index());
    if (!corridor_is_valid(tables, dense_path.data(), static_cast<int>(dense_path.size()),
                           kCheckLookahead)) {
      a.corridor.trimInvalidPath(agent_ref, &agent_pos.x, &q, &filter);
      replan = true;
    }
    // Near the end of a path that does not reach the target (a truncated or partial path):
    // search again, unless the last search proved the target unreachable.
    if (a.state == TargetState::Valid && a.replan_time > kTargetReplanDelay &&
        a.corridor.getPathCount() < kCheckLookahead && a.corridor.getLastPoly() != a.target_ref &&
        !a.goal_unreachable)
      replan = true;
    return replan;
  }

  // The hierarchical search: the tile route, then an A* over the polygons of the tiles on it
  // and around it, from the goal toward the agent. Returns false (leaving `result` alone)
  // when the ends are not far apart, or no path lies within those tiles: Detour's A* then
  // searches the whole mesh.
  bool search_by_tiles(NavAgent& a, PathResult& result) {
    if (!tiles)
      return false;
    const int start = graph.index_of(a.corridor.getFirstPoly());
    const int goal = graph.index_of(a.target_ref);
    if (start < 0 || goal < 0 ||
        tiles->tile_distance(graph.tile_of(start), graph.tile_of(goal)) <= kRouteMarginTiles)
      return false;
    result.path.resize(static_cast<std::size_t>(options.max_path_polys - 1));
    const HierarchicalPath found =
        find_path_by_tiles(graph, *tiles, start, goal, kRouteMarginTiles, result.path);
    if (found.count == 0)
      return false;
    result.path.resize(static_cast<std::size_t>(found.count));
    result.end = a.target_pos;
    if (!found.complete) {
      // Longer than the corridor holds: aim for the point of its last polygon nearest the
      // target; the validity check asks again near its end.
      const std::optional<glm::vec3> end = nearest_in(result.path.back(), a.target_pos);
      if (!end)
        return false;
      result.end = *end;
    }
    result.ok = true;
    return true;
  }

  PathResult search(int i) {
    PathResult result;
    result.agent = i;
    NavAgent& a = agents[static_cast<std::size_t>(i)];
    if (search_by_tiles(a, result))
      return result;
    dtNavMeshQuery& q = query();
    const dtQueryFilter& filter = navmesh.filter();
    result.path.resize(static_cast<std::size_t>(options.max_path_polys));
    int count = 0;
    const dtStatus status =
        q.findPath(a.corridor.getFirstPoly(), a.target_ref, a.corridor.getPos(), &a.target_pos.x,
                   &filter, result.path.data(), &count, options.max_path_polys - 1);
    if (dtStatusFailed(status) || count == 0)
      return result;
    result.path.resize(static_cast<std::size_t>(count));
    result.end = a.target_pos;
    if (result.path.back() != a.target_ref) {
      // Partial path: aim for the nearest reachable point, inside the last polygon.
      const std::optional<glm::vec3> end = nearest_in(result.path.back(), a.target_pos);
      if (!end)
        return result;
      result.end = *end;
      // Out of reach for good only when the search was not cut short.
      result.partial_final =
          !dtStatusDetail(status, DT_OUT_OF_NODES) && !dtStatusDetail(status, DT_BUFFER_TOO_SMALL);
    }
    result.ok = true;
    return result;
  }

  // A path for agent i from its goal polygon's tree, written into its corridor. Returns false
  // when the tree does not reach the agent's polygon (the goal is out of reach from there): an
  // A* search then finds the partial path to the nearest reachable point.
  bool follow_tree(int i, const PathTree& tree) {
    NavAgent& a = agents[static_cast<std::size_t>(i)];
    thread_local std::vector<dtPolyRef> path;
    // dtPathCorridor::setCorridor asserts npath < its capacity.
    path.resize(static_cast<std::size_t>(options.max_path_polys - 1));
    bool complete = false;
    const int count =
        graph.extract_path(tree, graph.index_of(a.corridor.getFirstPoly()), path, complete);
    if (count == 0)
      return false;
    glm::vec3 end = a.target_pos;
    if (!complete) {
      // Longer than the corridor holds: aim for the point of the last polygon nearest to the
      // target; the validity check asks again near its end.
      const std::optional<glm::vec3> nearest =
          nearest_in(path[static_cast<std::size_t>(count - 1)], a.target_pos);
      if (!nearest)
        return false;
      end = *nearest;
    }
    a.corridor.setCorridor(&end.x, path.data(), count);
    // The tree chose the way out of the agent's polygon for the portal it was reached by, not
    // for where the agent stands; a short A* from its position (the corridor's topology
    // optimisation) mends the start, as a search of its own would have planned it.
    a.corridor.optimizePathTopology(&query(), &navmesh.filter());
    a.goal_unreachable = false;
    a.state = TargetState::Valid;
    a.replan_time = 0.0f;
    return true;
  }

  // Serves the queue in order. An agent whose goal polygon has a tree (cached, or built this
  // step) gets its path from it at once; a goal polygon without one costs one search of the
  // budget (path_requests_per_step), as does an A* search. Agents beyond the budget keep their
  // place. Every decision is taken in queue order, so the outcome does not depend on threads.
  void run_path_searches() {
    ++path_step;
    int budget = std::max(0, options.path_requests_per_step);
    // A short queue is served within a few steps by exact A* searches, one per agent (a tree
    // plans toward its goal polygon's centroid, which in a few sample scenes left agents
    // approaching their goals more slowly); a long one shares paths.
    const bool share = queue.size() > options.path_share_queue_length;
    std::vector<int> from_tree, by_astar;
    std::vector<std::int32_t> new_trees;
    std::deque<int> waiting;
    for (const int i : queue) {
      NavAgent& a = agents[static_cast<std::size_t>(i)];
      if (a.state != TargetState::WaitingForPath) {
        a.queued = false; // the goal was cleared meanwhile
        continue;
      }
      const int goal = graph.index_of(a.target_ref);
      const int start = graph.index_of(a.corridor.getFirstPoly());
      if (goal >= 0 && start >= 0 && share) {
        auto it = trees.find(goal);
        if (it == trees.end() && budget > 0) {
          --budget;
          it = trees.emplace(goal, CachedTree{}).first;
          new_trees.push_back(goal);
        }
        if (it != trees.end()) {
          it->second.last_used = path_step;
          from_tree.push_back(i);
          continue;
        }
      } else if (budget > 0) {
        --budget;
        by_astar.push_back(i);
        continue;
      }
      waiting.push_back(i);
    }
    tbb::parallel_for(std::size_t{0}, new_trees.size(), [&](std::size_t k) {
      graph.build_tree(new_trees[k], trees.at(new_trees[k]).tree, tree_window(new_trees[k]));
    });
    std::vector<std::uint8_t> served(from_tree.size());
    tbb::parallel_for(std::size_t{0}, from_tree.size(), [&](std::size_t k) {
      const NavAgent& a = agents[static_cast<std::size_t>(from_tree[k])];
      served[k] = follow_tree(from_tree[k], trees.at(graph.index_of(a.target_ref)).tree) ? 1 : 0;
    });
    for (std::size_t k = 0; k < from_tree.size(); ++k) {
      NavAgent& a = agents[static_cast<std::size_t>(from_tree[k])];
      if (served[k]) {
        a.queued = false;
      } else if (budget > 0) {
        --budget;
        by_astar.push_back(from_tree[k]);
      } else {
        waiting.push_back(from_tree[k]);
      }
    }
    searches += new_trees.size() + by_astar.size();
    std::vector<PathResult> results(by_astar.size());
    tbb::parallel_for(std::size_t{0}, by_astar.size(),
                      [&](std::size_t k) { results[k] = search(by_astar[k]); });
    for (PathResult& r : results) {
      NavAgent& a = agents[static_cast<std::size_t>(r.agent)];
      a.queued = false;
      a.replan_time = 0.0f;
      if (!r.ok) {
        a.state = TargetState::Failed;
        continue;
      }
      a.corridor.setCorridor(&r.end.x, r.path.data(), static_cast<int>(r.path.size()));
      a.goal_unreachable = r.partial_final;
      a.state = TargetState::Valid;
    }
    queue = std::move(waiting);
    evict_trees();
  }

  // Keeps the cached trees within options.path_tree_cache_bytes, dropping the least recently
  // used first (never one used this step). A dropped tree is rebuilt identical when needed
  // again, so eviction changes only the time taken, never a path.
  void evict_trees() {
    std::size_t bytes = 0;
    for (const auto& [goal, cached] : trees)
      bytes += cached.tree.memory_bytes();
    if (bytes <= options.path_tree_cache_bytes)
      return;
    std::vector<std::pair<std::uint64_t, std::int32_t>> order;
    for (const auto& [goal, cached] : trees)
      order.emplace_back(cached.last_used, goal);
    std::sort(order.begin(), order.end());
    for (const auto& [last_used, goal] : order) {
      if (bytes <= options.path_tree_cache_bytes || last_used == path_step)
        break;
      auto it = trees.find(goal);
      bytes -= it->second.tree.memory_bytes();
      trees.erase(it);
    }
  }

  // dtCrowd::updateTopologyOptimization with a budget: the agents that waited longest past
  // the interval (ties to the lower index, so the choice is the same for any thread count)
  // get their corridor's topology fixed, at most topology_optimizations_per_step per step.
  void optimize_topology(const AgentArrays& arrays, float dt) {
    due.clear();
    for (int i = 0; i < static_cast<int>(agents.size()); ++i) {
      NavAgent& a = agents[static_cast<std::size_t>(i)];
      if (a.state != TargetState::Valid ||
          arrays.mode[static_cast<std::size_t>(i)] == kAgentInactive)
        continue;
      a.topology_time += dt;
      if (a.topology_time >= options.topology_optimization_interval)
        due.emplace_back(a.topology_time, i);
    }
    const std::size_t budget =
        static_cast<std::size_t>(std::max(0, options.topology_optimizations_per_step));
    if (due.size() > budget) {
      const auto longest_first = [](const std::pair<float, int>& x,
                                    const std::pair<float, int>& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
      };
      std::nth_element(due.begin(), due.begin() + static_cast<std::ptrdiff_t>(budget), due.end(),
                       longest_first);
      due.resize(budget);
    }
    tbb::parallel_for(std::size_t{0}, due.size(), [&](std::size_t k) {
      NavAgent& a = agents[static_cast<std::size_t>(due[k].second)];
      a.corridor.optimizePathTopology(&query(), &navmesh.filter());
      a.topology_time = 0.0f;
    });
  }

  void steer(int i, AgentArrays& arrays) {
    NavAgent& a = agents[static_cast<std::size_t>(i)];
    const std::size_t k = static_cast<std::size_t>(i);
    if (arrays.mode[k] == kAgentInactive)
      return;
    const bool has_goal = a.state == TargetState::Valid || a.state == TargetState::WaitingForPath;
    arrays.mode[k] = has_goal ? kAgentMoving : kAgentStanding;
    arrays.desired_speed[k] = has_goal ? a.max_speed : 0.0f;
    arrays.preferred_velocity[k] = glm::vec2(0.0f);
    if (a.state != TargetState::Valid)
      return;
    dtNavMeshQuery& q = query();
    const dtQueryFilter& filter = navmesh.filter();
    const int max_corners = std::max(1, options.max_corners);
    thread_local std::vector<float> verts;
    thread_local std::vector<unsigned char> flags;
    thread_local std::vector<dtPolyRef> polys;
    verts.resize(static_cast<std::size_t>(max_corners) * 3);
    flags.resize(static_cast<std::size_t>(max_corners));
    polys.resize(static_cast<std::size_t>(max_corners));
    int n = find_corridor_corners(a.corridor, a.dense, tables, portals.index(), verts.data(),
                                  flags.data(), polys.data(), max_corners);
    if (n < 0)
      n = a.corridor.findCorners(verts.data(), flags.data(), polys.data(), max_corners, &q,
                                 &filter);
    // Shortcut to the corner after next when it is visible (DT_CROWD_OPTIMIZE_VIS).
    if (n > 0) {
      const float* target = &verts[static_cast<std::size_t>(std::min(1, n - 1)) * 3];
      optimize_corridor_visibility(a.corridor, target,
                                   options.path_optimization_range_factor * a.radius,
                                   options.max_path_polys, shapes, q, filter);
    }
    static_assert(kCornerEnd == DT_STRAIGHTPATH_END);
    arrays.preferred_velocity[k] = preferred_velocity(arrays.position[k], verts.data(),
                                                      flags.data(), n, a.radius, a.max_speed);
  }
};

CorridorNavigator::CorridorNavigator(const NavMesh& navmesh, const SolverOptions& options,
                                     tbb::task_arena& arena)
    : impl_(std::make_unique<Impl>(navmesh, options, arena)) {}

CorridorNavigator::~CorridorNavigator() = default;

bool CorridorNavigator::add_agent(AgentArrays& arrays, int index, float max_speed) {
  if (static_cast<std::size_t>(index) != impl_->agents.size())
    throw std::logic_error("CorridorNavigator: agents must be added in index order");
  NavAgent& a = impl_->agents.emplace_back();
  a.corridor.init(impl_->options.max_path_polys);
  a.radius = arrays.radius[static_cast<std::size_t>(index)];
  a.max_speed = max_speed;
  glm::vec3& pos = arrays.position[static_cast<std::size_t>(index)];
  const glm::vec3 ext = impl_->navmesh.placement_extents();
  dtPolyRef ref = 0;
  float nearest[3];
  impl_->arena.execute([&] {
    impl_->query().findNearestPoly(&pos.x, &ext.x, &impl_->navmesh.filter(), &ref, nearest);
  });
  if (!ref)
    return false;
  pos = {nearest[0], nearest[1], nearest[2]};
  a.corridor.reset(ref, nearest);
  return true;
}

void CorridorNavigator::set_target(int index, const glm::vec3& goal) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  dtPolyRef ref = 0;
  glm::vec3 nearest{0.0f};
  impl_->arena.execute([&] {
    ref = nearest_polygon_anywhere(impl_->navmesh, impl_->query(), goal,
                                   impl_->navmesh.placement_extents(), nearest);
  });
  a.goal_unreachable = false;
  a.replan_time = 0.0f;
  a.topology_time = 0.0f;
  if (!ref) {
    // An empty navmesh: nothing to walk to (reported as unreachable by the metrics).
    a.target_ref = 0;
    a.state = TargetState::Failed;
    return;
  }
  a.target_ref = ref;
  a.target_pos = nearest;
  a.state = TargetState::WaitingForPath;
  impl_->enqueue(index);
}

void CorridorNavigator::clear_target(int index) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  a.state = TargetState::None;
  a.target_ref = 0;
}

bool CorridorNavigator::move_agent(AgentArrays& arrays, int index, const glm::vec3& position) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  const glm::vec3 ext = impl_->navmesh.placement_extents();
  dtPolyRef ref = 0;
  float nearest[3];
  impl_->arena.execute([&] {
    impl_->query().findNearestPoly(&position.x, &ext.x, &impl_->navmesh.filter(), &ref, nearest);
  });
  if (!ref)
    return false;
  // As add_agent: the corridor is the polygon under the agent until its path comes.
  a.corridor.reset(ref, nearest);
  arrays.position[static_cast<std::size_t>(index)] = {nearest[0], nearest[1], nearest[2]};
  if (a.state != TargetState::None && a.target_ref != 0) {
    a.replan_time = 0.0f;
    a.topology_time = 0.0f;
    impl_->enqueue(index);
  }
  return true;
}

void CorridorNavigator::plan(AgentArrays& arrays, float dt, StageTimes& times) {
  Impl& m = *impl_;
  m.arena.execute([&] {
    {
      ScopedStage stage(times, "paths");
      m.for_each_agent([&](int i) {
        if (m.check_validity(i, arrays, dt))
          m.agents[static_cast<std::size_t>(i)].wants_path = true;
      });
      // Queue in index order so the queue, and so every result, is the same for any thread count.
      for (int i = 0; i < static_cast<int>(m.agents.size()); ++i) {
        if (m.agents[static_cast<std::size_t>(i)].wants_path)
          m.enqueue(i);
      }
      m.run_path_searches();
    }
    {
      ScopedStage stage(times, "corridors");
      m.optimize_topology(arrays, dt);
      m.for_each_agent([&](int i) { m.steer(i, arrays); });
    }
  });
}

CorridorNavigator::Corrections CorridorNavigator::constrain(AgentArrays& arrays,
                                                            StageTimes& times) {
  Impl& m = *impl_;
  ScopedStage stage(times, "move_corridors");
  tbb::combinable<Corrections> corrections;
  m.arena.execute([&] {
    m.for_each_agent([&](int i) {
      const std::size_t k = static_cast<std::size_t>(i);
      if (arrays.mode[k] == kAgentInactive)
        return;
      NavAgent& a = m.agents[k];
      if (!a.corridor.getFirstPoly())
        return;
      const glm::vec3 wanted = arrays.position[k];
      move_corridor_position(a.corridor, a.dense, &wanted.x, m.options.max_path_polys, m.shapes,
                             m.query(), m.navmesh.filter());
      const float* p = a.corridor.getPos();
      arrays.position[k] = {p[0], p[1], p[2]};
      const float put_back = std::hypot(p[0] - wanted.x, p[2] - wanted.z);
      if (put_back > 0.1f * a.radius) {
        Corrections& c = corrections.local();
        ++c.count;
        c.max_distance = std::max(c.max_distance, put_back);
      }
      // Without a path the corridor shrinks to the polygon the agent stands on (dtCrowd).
      if (a.state != TargetState::Valid && a.state != TargetState::WaitingForPath)
        a.corridor.reset(a.corridor.getFirstPoly(), p);
    });
  });
  // Count and maximum do not depend on the order the workers are combined in.
  return corrections.combine([](const Corrections& x, const Corrections& y) {
    return Corrections{x.count + y.count, std::max(x.max_distance, y.max_distance)};
  });
}

TargetState CorridorNavigator::target_state(int index) const {
  return impl_->agents.at(static_cast<std::size_t>(index)).state;
}

std::size_t CorridorNavigator::pending_path_requests() const {
  return impl_->queue.size();
}

std::size_t CorridorNavigator::path_searches() const {
  return impl_->searches;
}

std::span<const dtPolyRef> CorridorNavigator::corridor(int index) const {
  const dtPathCorridor& c = impl_->agents.at(static_cast<std::size_t>(index)).corridor;
  return {c.getPath(), static_cast<std::size_t>(c.getPathCount())};
}

std::size_t CorridorNavigator::memory_bytes() const {
  const std::size_t per_agent =
      sizeof(NavAgent) +
      static_cast<std::size_t>(impl_->options.max_path_polys) * sizeof(dtPolyRef);
  std::size_t trees = 0;
  for (const auto& [goal, cached] : impl_->trees)
    trees += sizeof(cached) + cached.tree.memory_bytes();
  std::size_t dense_corridors = 0;
  for (const NavAgent& a : impl_->agents)
    dense_corridors += a.dense.memory_bytes();
  return impl_->agents.size() * per_agent + dense_corridors + impl_->queue.size() * sizeof(int) +
         navmesh_table_bytes() + trees;
}

std::size_t CorridorNavigator::navmesh_table_bytes() const {
  return impl_->graph.memory_bytes() + impl_->portals.memory_bytes() + impl_->shapes.memory_bytes();
}

namespace {

// An agent's request state in a checkpoint (host/checkpoint/archive.h), shared by save and
// restore; its corridor is saved apart (dtPathCorridor is restored through its own calls).
constexpr auto kNavAgentFields = [](auto& archive, auto& a) {
  archive.fields(a.target_ref, a.target_pos, a.state, a.replan_time, a.topology_time, a.radius,
                 a.max_speed, a.queued, a.wants_path, a.goal_unreachable);
};

} // namespace

void CorridorNavigator::save(ArchiveWriter& out) const {
  const Impl& m = *impl_;
  out.put(static_cast<std::uint64_t>(m.agents.size()));
  for (const NavAgent& a : m.agents) {
    const dtPathCorridor& c = a.corridor;
    out.put(glm::vec3(c.getPos()[0], c.getPos()[1], c.getPos()[2]));
    out.put(glm::vec3(c.getTarget()[0], c.getTarget()[1], c.getTarget()[2]));
    out.put(std::vector<dtPolyRef>(c.getPath(), c.getPath() + c.getPathCount()));
    kNavAgentFields(out, a);
  }
  out.put(std::vector<int>(m.queue.begin(), m.queue.end()));
  std::vector<std::pair<std::int32_t, std::uint64_t>> cached;
  for (const auto& [goal, tree] : m.trees)
    cached.emplace_back(goal, tree.last_used);
  std::sort(cached.begin(), cached.end()); // the map's order is not the same in every run
  out.put(static_cast<std::uint64_t>(cached.size()));
  for (const auto& [goal, last_used] : cached) {
    out.put(goal);
    out.put(last_used);
  }
  out.put(m.path_step);
  out.put(static_cast<std::uint64_t>(m.searches));
}

void CorridorNavigator::restore(ArchiveReader& in) {
  Impl& m = *impl_;
  const std::size_t count = in.count();
  if (count < m.agents.size())
    in.fail("the navigator holds fewer agents than the scenario has");
  while (m.agents.size() < count)
    m.agents.emplace_back().corridor.init(m.options.max_path_polys);
  std::vector<dtPolyRef> path;
  for (NavAgent& a : m.agents) {
    const auto pos = in.get<glm::vec3>();
    const auto target = in.get<glm::vec3>();
    in.get(path);
    if (path.size() >= static_cast<std::size_t>(m.options.max_path_polys))
      in.fail("a corridor is longer than the corridor capacity");
    if (path.empty()) {
      a.corridor.reset(0, &pos.x); // an agent that found no navmesh: no polygon
    } else {
      a.corridor.reset(path[0], &pos.x);
      a.corridor.setCorridor(&target.x, path.data(), static_cast<int>(path.size()));
    }
    kNavAgentFields(in, a);
  }
  const auto queue = in.get<std::vector<int>>();
  for (const int i : queue)
    if (i < 0 || static_cast<std::size_t>(i) >= m.agents.size())
      in.fail("a queued path request names no agent");
  m.queue.assign(queue.begin(), queue.end());
  m.trees.clear();
  std::vector<std::int32_t> goals(in.count());
  for (std::int32_t& goal : goals) {
    in.get(goal);
    if (goal < 0 || goal >= m.graph.size())
      in.fail("a cached path tree's goal polygon is not in the navmesh");
    m.trees[goal].last_used = in.get<std::uint64_t>();
  }
  m.arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, goals.size(), [&](std::size_t k) {
      m.graph.build_tree(goals[k], m.trees.at(goals[k]).tree, m.tree_window(goals[k]));
    });
  });
  in.get(m.path_step);
  m.searches = static_cast<std::size_t>(in.get<std::uint64_t>());
}

} // namespace crowd

#include "host/paths/corridor_navigator.h"

#include "cuda/core/parallel_agents.h"
#include "cuda/kernels/corner_steering.h"
#include "cuda/kernels/corridor_corners.h"
#include "cuda/kernels/corridor_following.h"
#include "cuda/kernels/corridor_move.h"
#include "cuda/kernels/corridor_validity.h"
#include "cuda/kernels/corridor_visibility.h"
#include "host/checkpoint/archive.h"
#include "host/navmesh/nearest_polygon.h"
#include "host/navmesh/query_filter_check.h"
#include "host/paths/corridor_move.h"
#include "host/paths/corridor_visibility.h"
#include "host/paths/hierarchical_search.h"
#include "host/paths/navmesh_tables.h"
#include "host/paths/path_tree.h"
#include "host/paths/path_tree_pool.h"
#include "host/paths/portal_table.h"
#include "host/paths/tile_graph.h"

#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <oneapi/tbb/combinable.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace crowd {
namespace {

// dtCrowd's checkPathValidity constant (DetourCrowd.cpp); its CHECK_LOOKAHEAD is
// kCorridorCheckLookahead (cuda/kernels/corridor_validity.h).
constexpr float kTargetReplanDelay = 1.0f; // seconds

// Hierarchical search on a tiled navmesh (tile_graph.h). A shared path tree covers the tiles
// within kTreeWindowTiles of its goal's tile, so that trees stay bounded however large the
// world; an agent outside it gets a search of its own. A search between tiles further apart
// than kRouteMarginTiles runs over the tiles of the tile route and those within
// kRouteMarginTiles of it, instead of over the whole mesh; nearer ones are Detour's A*.
constexpr int kTreeWindowTiles = 1;
constexpr int kRouteMarginTiles = 1;

// The agent's corridor is its row of the agent arrays (AgentArrays::corridors); the rest of
// its movement request is here.
/// An off-mesh link an agent crosses (DetourCrowd's dtCrowdAgentAnimation): where it stood when
/// it took the link, the link's ends, the seconds so far and the whole crossing's.
struct LinkCrossing {
  glm::vec3 from{0.0f}, start{0.0f}, end{0.0f};
  float time = 0.0f, duration = 0.0f;
};

struct NavAgent {
  dtPolyRef target_ref = 0;
  glm::vec3 target_pos{0.0f};
  TargetState state = TargetState::None;
  float replan_time = 0.0f;
  float topology_time = 0.0f;
  float max_speed = 0.0f;
  bool queued = false;
  bool wants_path = false;       ///< Set by the validity check, queued in index order after it.
  bool goal_unreachable = false; ///< The last search proved the goal out of reach.
  LinkCrossing link;             ///< While Impl::on_link says so.
  std::uint8_t filter = 0;       ///< Its query filter type (Impl::filters).
};

/// Whether two filters let through the same polygons (their area costs aside).
bool same_passage(const dtQueryFilter& a, const dtQueryFilter& b) {
  return a.getIncludeFlags() == b.getIncludeFlags() && a.getExcludeFlags() == b.getExcludeFlags();
}

/// Whether two filters are the same for a search: the same passage and area costs.
bool same_search(const dtQueryFilter& a, const dtQueryFilter& b) {
  if (!same_passage(a, b))
    return false;
  for (int area = 0; area < DT_MAX_AREAS; ++area)
    if (a.getAreaCost(area) != b.getAreaCost(area))
      return false;
  return true;
}

/// dtCrowd's tween: where t lies between t0 and t1, clamped to [0, 1].
float tween(float t, float t0, float t1) {
  return std::clamp((t - t0) / (t1 - t0), 0.0f, 1.0f);
}

/// dtVlerp: a + (b - a) * u, as Detour rounds it.
glm::vec3 lerp(const glm::vec3& a, const glm::vec3& b, float u) {
  return {a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u};
}

/// A tree of the cache (the tree itself is in the pool, PathTreePool).
struct CachedTree {
  std::uint64_t last_used = 0; ///< path_step of the last request it served
  /// What the cache's budget counts for it: PathTree::memory_bytes of the tree as built (the
  /// capacity of its rows), as the cache counted when it held PathTrees, so that eviction
  /// drops the same trees as then.
  std::size_t bytes = 0;
};

/// What a path search found of an agent (CorridorNavigator::Impl::outcome): a path, and that
/// its goal is out of reach for good (a partial path of a search not cut short).
constexpr std::uint8_t kOutcomePath = 0x01;
constexpr std::uint8_t kOutcomeUnreachable = 0x02;

struct PathResult {
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
  AgentArrays& arrays;
  CorridorArrays& rows; // arrays.corridors
  CorridorRowFetch fetch_rows;
  CorridorStartFetch fetch_row_starts;
  std::deque<NavAgent> agents;
  std::deque<int> queue; // agents waiting for a path search, first come first served
  tbb::enumerable_thread_specific<NavQueryPtr> queries;
  PolygonGraph graph;
  PortalTable portals;            // every portal of the navmesh, for the corners of every step
  PolygonShapes shapes;           // every polygon's outline, for the closest points and raycasts
  NavmeshTablesView tables;       // portals and shapes as the corridor kernels read them
  std::optional<TileGraph> tiles; // a tiled navmesh's tiles, for hierarchical searches
  std::unordered_map<std::int32_t, CachedTree> trees; // by goal polygon
  PathTreePool tree_pool; // the cached trees themselves, as the corridor bodies read them
  std::uint64_t path_step = 0;
  std::size_t searches = 0;               // trees built plus A* searches, for tests and inspection
  std::size_t requests_served = 0;        // path requests answered, from trees or by A*
  std::vector<std::pair<float, int>> due; // scratch of optimize_topology: (waited, agent)
  /// Per agent: what a path search found of it (kOutcome* bits), written where the agent's row
  /// is computed and shared with the other processes (share_outcomes).
  std::vector<std::uint8_t> outcome;
  /// Per agent: 1 while it crosses an off-mesh link (NavAgent::link), moved by advance_links.
  std::vector<std::uint8_t> on_link;
  /// Per agent: 1 when the last corners the host found for it end at a link's start
  /// (DT_STRAIGHTPATH_OFFMESH_CONNECTION): take_links looks whether it is near enough to cross.
  std::vector<std::uint8_t> link_ahead;
  int crossings = 0; ///< Links taken by the last take_links.
  /// The processes the path trees of a step are split among (set_agent_share); null: alone.
  AgentShare* agent_share = nullptr;
  /// The query filters by type (set_query_filter), and per type whether its agents are
  /// followed by Detour on the host (another passage than the tables') and whether they search
  /// alone (other costs or passage than the shared trees' and tile routes').
  std::array<dtQueryFilter, kQueryFilterTypes> filters;
  std::array<std::uint8_t, kQueryFilterTypes> own_passage{};
  std::array<std::uint8_t, kQueryFilterTypes> own_search{};

  Impl(const NavMesh& mesh, const SolverOptions& opts, tbb::task_arena& task_arena,
       AgentArrays& agent_arrays, CorridorRowFetch fetch, CorridorStartFetch fetch_starts)
      : navmesh(mesh), options(opts), arena(task_arena), arrays(agent_arrays),
        rows(agent_arrays.corridors), fetch_rows(std::move(fetch)),
        fetch_row_starts(std::move(fetch_starts)),
        queries([this] { return navmesh.make_query(options.path_search_nodes); }),
        graph(mesh.detour(), mesh.filter()), portals(mesh.detour()),
        shapes(mesh.detour(), mesh.filter()), tables(navmesh_tables_view(portals, shapes)),
        tree_pool(graph.size()) {
    if (mesh.tile_size() > 0)
      tiles.emplace(mesh.detour());
    filters.fill(mesh.filter());
  }

  // The navigator keeps its own state (agents, on_link, link_ahead, outcome, the queue) by agent
  // id, and reads the agent arrays and corridor rows at the agent's row (AgentArrays::row_of):
  // the rows may be in any order (AgentArrays::reorder_rows). The lists the corridor phases hand
  // it (CorridorArrays::asked) and the fetches it asks of the executor are rows.
  int row_of(int i) const { return arrays.row_of(i); }

  const dtQueryFilter& filter_of(int i) const {
    return filters[agents[static_cast<std::size_t>(i)].filter];
  }
  /// Whether Detour follows agent i's corridor on the host (kCorridorOwnFilter).
  bool own_filter(int i) const { return own_passage[agents[static_cast<std::size_t>(i)].filter]; }
  /// Whether agent i's paths may come from the shared trees and tile routes.
  bool shares_paths(int i) const { return !own_search[agents[static_cast<std::size_t>(i)].filter]; }

  // check_corridor's findings for agent i's row (fetched): the tables' for an agent of their
  // filter; Detour's isValidPolyRef with the agent's own filter for the others, as
  // dtPathCorridor::isValid and dtCrowd's checkPathValidity ask it.
  std::uint8_t check_row(int i) {
    const int r = row_of(i);
    const auto rk = static_cast<std::size_t>(r);
    const std::int32_t* row = rows.row(r);
    const int n = rows.size[rk];
    if (!own_filter(i))
      return check_corridor(tables, row, n, rows.goal[rk]);
    const dtQueryFilter& filter = filter_of(i);
    const dtNavMeshQuery& q = query();
    return check_corridor_by(
        [&](std::int32_t p) { return p >= 0 && q.isValidPolyRef(polygons().ref_of(p), &filter); },
        row, n, rows.goal[rk]);
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

  // Makes the host's copies of these agents' rows current before they are read
  // (CorridorArrays::held).
  void fetch(std::span<const std::int32_t> which) const {
    if (fetch_rows && !which.empty())
      fetch_rows(arrays.rows_of(which));
  }

  // Whether this process computes agent i's row itself (AgentShare::computes_row): alone, it
  // does every agent's.
  bool computes(int i) const { return agent_share == nullptr || agent_share->computes_row(i); }

  // The agents of `which` this process computes, their rows made current here. Where the rows
  // are split across processes the rows a process computes are current there already, and a
  // fetch would bring every process the others'.
  std::vector<std::int32_t> computed_here(std::span<const std::int32_t> which) const {
    std::vector<std::int32_t> here;
    for (const std::int32_t i : which)
      if (computes(i))
        here.push_back(i);
    if (agent_share == nullptr || !agent_share->splits_corridor_rows())
      fetch(here);
    return here;
  }

  // After the processes that compute the agents of `which` each wrote outcome[i] for theirs:
  // every process holds every one (AgentShare::fetch_rows).
  void share_outcomes(std::span<const std::int32_t> which) {
    if (agent_share != nullptr)
      agent_share->fetch_rows({{reinterpret_cast<std::byte*>(outcome.data()), 1}}, which);
  }

  // The first polygon of the rows of the agents `which` (dense indices, -1 for an empty row),
  // read without making the rows current where they live in device memory.
  std::vector<std::int32_t> starts_of(std::span<const std::int32_t> which) const {
    std::vector<std::int32_t> first(which.size());
    if (fetch_row_starts) {
      fetch_row_starts(arrays.rows_of(which), first);
      return first;
    }
    for (std::size_t j = 0; j < which.size(); ++j)
      first[j] = rows.first_polygon(row_of(which[j]));
    return first;
  }

  const PolygonIndex& polygons() const { return portals.index(); }

  // Agent i's corridor as a dtPathCorridor (one per worker thread), for Detour's own corridor
  // operations; store() writes it back to the row. Exact both ways: a dtPathCorridor is its
  // position, target and path.
  dtPathCorridor& load(int i) {
    // dtPathCorridor::init allocates once per corridor: a new one for another capacity. One
    // polygon more than a row holds: a corridor move's merge fills a row to its capacity
    // (dtMergeCorridorStartMoved), and setCorridor asserts that a path is shorter than its
    // corridor's; store() keeps a row's worth, as Detour's merges would have at the capacity.
    thread_local std::unique_ptr<dtPathCorridor> corridor;
    thread_local int capacity = 0;
    if (!corridor || capacity != rows.capacity) {
      corridor = std::make_unique<dtPathCorridor>();
      corridor->init(rows.capacity + 1);
      capacity = rows.capacity;
    }
    thread_local std::vector<dtPolyRef> refs;
    const int r = row_of(i);
    const auto rk = static_cast<std::size_t>(r);
    const int n = rows.size[rk];
    refs.resize(static_cast<std::size_t>(n));
    const std::int32_t* row = rows.row(r);
    for (int p = 0; p < n; ++p)
      refs[static_cast<std::size_t>(p)] = polygons().ref_of(row[p]);
    corridor->reset(n > 0 ? refs[0] : 0, &rows.position[rk].x);
    if (n > 0)
      corridor->setCorridor(&rows.target[rk].x, refs.data(), n);
    return *corridor;
  }
  void store(int i, const dtPathCorridor& corridor) {
    const int r = row_of(i);
    const auto rk = static_cast<std::size_t>(r);
    const dtPolyRef* path = corridor.getPath();
    const int n = corridor.getPathCount() > 0 && path[0] != 0
                      ? std::min(corridor.getPathCount(), rows.capacity)
                      : 0;
    std::int32_t* row = rows.row(r);
    for (int p = 0; p < n; ++p)
      row[p] = polygons().index_of(path[p]);
    rows.size[rk] = n;
    rows.position[rk] = {corridor.getPos()[0], corridor.getPos()[1], corridor.getPos()[2]};
    rows.target[rk] = {corridor.getTarget()[0], corridor.getTarget()[1], corridor.getTarget()[2]};
    rows.wrote(r);
  }
  // dtPathCorridor::reset(polygon, pos): the corridor is the one polygon, ending where it starts.
  void reset_row(int i, dtPolyRef polygon, const glm::vec3& pos) {
    const int r = row_of(i);
    const auto rk = static_cast<std::size_t>(r);
    const int p = polygons().index_of(polygon);
    rows.row(r)[0] = p;
    rows.size[rk] = p >= 0 ? 1 : 0;
    rows.position[rk] = pos;
    rows.target[rk] = pos;
    rows.wrote(r);
  }
  // Agent i's corridor as polygon refs, from a row the host holds.
  std::vector<dtPolyRef> path_of(int i) const {
    const int r = row_of(i);
    const std::int32_t* row = rows.row(r);
    std::vector<dtPolyRef> path(
        static_cast<std::size_t>(rows.size.at(static_cast<std::size_t>(r))));
    for (std::size_t p = 0; p < path.size(); ++p)
      path[p] = polygons().ref_of(row[p]);
    return path;
  }
  dtPolyRef first_polygon(int i) const { return ref_of_row_polygon(rows.first_polygon(row_of(i))); }
  /// A row's dense polygon index as Detour's reference; 0 for none (-1).
  dtPolyRef ref_of_row_polygon(std::int32_t polygon) const {
    return polygon >= 0 ? polygons().ref_of(polygon) : 0;
  }

  // The point of `poly` nearest `target`: where a path that stops short of its target (longer
  // than the corridor holds, or partial) ends. Nothing when Detour cannot tell.
  std::optional<glm::vec3> nearest_in(dtPolyRef poly, const glm::vec3& target) {
    float nearest[3];
    if (dtStatusFailed(query().closestPointOnPoly(poly, &target.x, nearest, nullptr)))
      return std::nullopt;
    return glm::vec3(nearest[0], nearest[1], nearest[2]);
  }

  template <class F> void for_each_agent(F&& f) {
    parallel_for_each_agent(static_cast<int>(agents.size()), 16, f);
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

  // dtCrowd::checkPathValidity for one agent, on what the executor's check_corridors phase
  // found in its row (rows.checks); returns whether to replan. A row the host changes here (a
  // new start, a trimmed corridor) is checked again here, by the same body.
  bool check_validity(int i, float dt) {
    const std::size_t k = static_cast<std::size_t>(i);
    const auto rk = static_cast<std::size_t>(row_of(i));
    NavAgent& a = agents[k];
    if (arrays.mode[rk] == kAgentInactive || a.state == TargetState::None ||
        a.state == TargetState::Velocity || on_link[k])
      return false;
    a.replan_time += dt;
    dtNavMeshQuery& q = query();
    const dtQueryFilter& filter = filter_of(i);
    bool replan = false;
    std::uint8_t found = own_filter(i) ? check_row(i) : rows.checks[rk];
    dtPolyRef agent_ref = 0; // read from the row only when an event needs it
    glm::vec3 agent_pos = arrays.position[rk];
    if (found & kCorridorStartInvalid) {
      // Current location is not valid: find the nearest polygon and move there.
      const glm::vec3 ext = navmesh.placement_extents();
      float nearest[3];
      agent_ref = 0;
      q.findNearestPoly(&agent_pos.x, &ext.x, &filter, &agent_ref, nearest);
      if (!agent_ref)
        return false; // stays invalid; checked again next step
      agent_pos = {nearest[0], nearest[1], nearest[2]};
      reset_row(i, agent_ref, agent_pos);
      arrays.position[rk] = agent_pos;
      replan = true;
      found = check_row(i);
    }
    if (a.state == TargetState::Failed)
      return false;
    if (found & kCorridorAheadInvalid) {
      if (!agent_ref)
        agent_ref = first_polygon(i);
      dtPathCorridor& corridor = load(i);
      corridor.trimInvalidPath(agent_ref, &agent_pos.x, &q, &filter);
      store(i, corridor);
      replan = true;
      found = check_row(i);
    }
    // Near the end of a path that does not reach the target (a truncated or partial path):
    // search again, unless the last search proved the target unreachable.
    if (a.state == TargetState::Valid && a.replan_time > kTargetReplanDelay &&
        (found & kCorridorNearEnd) && !a.goal_unreachable)
      replan = true;
    return replan;
  }

  // Agent i's corridor `path` (references of the navmesh before it changed) in the new
  // numbering. Where it runs into a rebuilt tile, DetourCrowd's answer to an invalid path
  // (dtCrowd's checkPathValidity): the corridor is cut before the first polygon that is gone
  // and ends at the point of the last one nearest its target (dtPathCorridor::trimInvalidPath),
  // and the agent plans again. An agent whose own polygon is gone (an obstacle dropped on it)
  // moves to the nearest point of the navmesh, out of the obstacle. A goal whose polygon is gone
  // moves to the nearest polygon too.
  void renumber(int i, const std::vector<dtPolyRef>& path) {
    const std::size_t k = static_cast<std::size_t>(i);
    const int r = row_of(i);
    const auto rk = static_cast<std::size_t>(r);
    NavAgent& a = agents[k];
    std::int32_t* row = rows.row(r);
    int valid = 0;
    for (; valid < static_cast<int>(path.size()); ++valid) {
      const int p = polygons().index_of(path[static_cast<std::size_t>(valid)]);
      if (p < 0)
        break;
      row[valid] = p;
    }
    rows.size[rk] = valid;
    rows.corner_count[rk] = 0; // its corners' polygons were numbered the old way
    link_ahead[k] = 0;
    rows.wrote(r);
    if (arrays.mode[rk] == kAgentInactive)
      return; // removed: nothing to place or plan
    bool replan = valid < static_cast<int>(path.size());
    if (a.target_ref != 0 && polygons().index_of(a.target_ref) < 0) {
      glm::vec3 nearest{0.0f};
      a.target_ref = nearest_polygon_anywhere(navmesh, query(), a.target_pos,
                                              navmesh.placement_extents(), nearest, &filter_of(i));
      a.target_pos = nearest;
      replan = true;
    }
    if (a.state == TargetState::Velocity)
      rows.set_goal(r, -1);
    else
      rows.set_goal(r, a.target_ref != 0 ? polygons().index_of(a.target_ref) : -1, a.target_pos);
    if (valid == 0) {
      // Where it stands (or, crossing a link, where the link lands) is gone.
      const glm::vec3 from = on_link[k] ? a.link.end : arrays.position[rk];
      dtPolyRef ref = 0;
      float nearest[3];
      glm::vec3 ext = navmesh.placement_extents();
      // An obstacle wider than the placement box: look further, up to 4 times.
      for (int widen = 0; widen < 3 && ref == 0; ++widen, ext *= glm::vec3(2.0f, 1.0f, 2.0f))
        query().findNearestPoly(&from.x, &ext.x, &filter_of(i), &ref, nearest);
      if (ref != 0) {
        const glm::vec3 placed{nearest[0], nearest[1], nearest[2]};
        reset_row(i, ref, placed);
        if (!on_link[k])
          arrays.position[rk] = placed;
      }
    } else if (replan) {
      const dtPolyRef last = polygons().ref_of(row[valid - 1]);
      if (const auto end = nearest_in(last, rows.target[rk]))
        rows.target[rk] = *end;
    }
    if (a.state == TargetState::Failed && a.target_ref != 0)
      replan = true; // the way may be open now
    a.goal_unreachable = false;
    if (replan && a.target_ref != 0 && a.state != TargetState::None &&
        a.state != TargetState::Velocity) {
      a.replan_time = 0.0f;
      a.topology_time = 0.0f;
      enqueue(i);
    }
  }

  // The hierarchical search: the tile route, then an A* over the polygons of the tiles on it
  // and around it, from the goal toward the agent. Returns false (leaving `result` alone)
  // when the ends are not far apart, or no path lies within those tiles: Detour's A* then
  // searches the whole mesh.
  bool search_by_tiles(int i, PathResult& result) {
    if (!tiles || !shares_paths(i))
      return false;
    const NavAgent& a = agents[static_cast<std::size_t>(i)];
    const int start = graph.index_of(first_polygon(i));
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
    const NavAgent& a = agents[static_cast<std::size_t>(i)];
    if (search_by_tiles(i, result))
      return result;
    dtNavMeshQuery& q = query();
    const dtQueryFilter& filter = filter_of(i);
    result.path.resize(static_cast<std::size_t>(options.max_path_polys));
    int count = 0;
    const dtStatus status = q.findPath(
        first_polygon(i), a.target_ref, &rows.position[static_cast<std::size_t>(row_of(i))].x,
        &a.target_pos.x, &filter, result.path.data(), &count, options.max_path_polys - 1);
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
  bool follow_tree(int i, int tree) {
    const NavAgent& a = agents[static_cast<std::size_t>(i)];
    thread_local std::vector<dtPolyRef> path;
    // dtPathCorridor::setCorridor asserts npath < its capacity.
    path.resize(static_cast<std::size_t>(options.max_path_polys - 1));
    bool complete = false;
    const int count = graph.extract_path(tree_pool.view(), tree, graph.index_of(first_polygon(i)),
                                         path, complete);
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
    dtPathCorridor& corridor = load(i);
    corridor.setCorridor(&end.x, path.data(), count);
    // The tree chose the way out of the agent's polygon for the portal it was reached by, not
    // for where the agent stands; a short A* from its position (the corridor's topology
    // optimisation) mends the start, as a search of its own would have planned it.
    corridor.optimizePathTopology(&query(), &navmesh.filter());
    store(i, corridor);
    return true;
  }

  // Serves the queue in order. An agent whose goal polygon has a tree (cached, or built this
  // step) gets its path from it at once; a goal polygon without one costs one search of the
  // budget (path_requests_per_step), as does an A* search. Agents beyond the budget keep their
  // place. Every decision is taken in queue order, so the outcome does not depend on threads.
  void run_path_searches() {
    ++path_step;
    // Every queued agent's start polygon is read (those beyond the budget too), and only that:
    // in a planning burst the queue holds most of the crowd, whose rows would otherwise cross
    // from the device every step. The rows of the agents served come down below.
    const std::vector<std::int32_t> queued(queue.begin(), queue.end());
    const std::vector<std::int32_t> starts = starts_of(queued);
    int budget = std::max(0, options.path_requests_per_step);
    // A short queue is served within a few steps by exact A* searches, one per agent (a tree
    // plans toward its goal polygon's centroid, which in a few sample scenes left agents
    // approaching their goals more slowly); a long one shares paths.
    const bool share = queue.size() > options.path_share_queue_length;
    std::vector<int> from_tree, by_astar;
    std::vector<std::int32_t> new_trees;
    std::deque<int> waiting;
    for (std::size_t q = 0; q < queued.size(); ++q) {
      const int i = queued[q];
      NavAgent& a = agents[static_cast<std::size_t>(i)];
      if (a.state != TargetState::WaitingForPath) {
        a.queued = false; // the goal was cleared meanwhile
        continue;
      }
      const int goal = graph.index_of(a.target_ref);
      const int start = graph.index_of(ref_of_row_polygon(starts[q]));
      if (goal >= 0 && start >= 0 && share && shares_paths(i)) {
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
    // Each path is found where its agent's corridor row is (computed_here): split across
    // processes, by its owner, which shares only what the search found (share_outcomes); the
    // decisions that follow are taken alike on every process.
    outcome.resize(agents.size());
    build_trees(new_trees);
    const std::vector<std::int32_t> tree_here = computed_here(from_tree);
    tbb::parallel_for(std::size_t{0}, tree_here.size(), [&](std::size_t k) {
      const int i = tree_here[k];
      const NavAgent& a = agents[static_cast<std::size_t>(i)];
      outcome[static_cast<std::size_t>(i)] =
          follow_tree(i, tree_pool.view().tree_of(graph.index_of(a.target_ref))) ? kOutcomePath : 0;
    });
    share_outcomes(from_tree);
    for (std::size_t k = 0; k < from_tree.size(); ++k) {
      NavAgent& a = agents[static_cast<std::size_t>(from_tree[k])];
      if (outcome[static_cast<std::size_t>(from_tree[k])] & kOutcomePath) {
        a.queued = false;
        ++requests_served;
        a.goal_unreachable = false;
        a.state = TargetState::Valid;
        a.replan_time = 0.0f;
      } else if (budget > 0) {
        --budget;
        by_astar.push_back(from_tree[k]);
      } else {
        waiting.push_back(from_tree[k]);
      }
    }
    searches += new_trees.size() + by_astar.size();
    const std::vector<std::int32_t> search_here = computed_here(by_astar);
    tbb::parallel_for(std::size_t{0}, search_here.size(), [&](std::size_t k) {
      const int i = search_here[k];
      const PathResult r = search(i);
      if (r.ok) {
        dtPathCorridor& corridor = load(i);
        corridor.setCorridor(&r.end.x, r.path.data(), static_cast<int>(r.path.size()));
        store(i, corridor);
      }
      outcome[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(
          (r.ok ? kOutcomePath : 0) | (r.partial_final ? kOutcomeUnreachable : 0));
    });
    share_outcomes(by_astar);
    for (const int i : by_astar) {
      NavAgent& a = agents[static_cast<std::size_t>(i)];
      const std::uint8_t found = outcome[static_cast<std::size_t>(i)];
      a.queued = false;
      ++requests_served;
      a.replan_time = 0.0f;
      if (!(found & kOutcomePath)) {
        a.state = TargetState::Failed;
        continue;
      }
      a.goal_unreachable = (found & kOutcomeUnreachable) != 0;
      a.state = TargetState::Valid;
    }
    queue = std::move(waiting);
  }

  /// The trees of `goals` (in the cache already, not yet built), built on the workers and put
  /// in the pool in the order of `goals`; split with the other processes where there are (each
  /// builds its share and they exchange them: a tree depends only on its goal, so it is the
  /// same wherever it is built).
  void build_trees(const std::vector<std::int32_t>& goals) {
    std::vector<PathTree> built(goals.size());
    if (agent_share == nullptr) {
      build_trees_here(goals, built);
    } else {
      std::vector<std::size_t> mine;
      for (std::size_t k = 0; k < goals.size(); ++k)
        if (agent_share->runs_job(k))
          mine.push_back(k);
      std::vector<std::vector<std::byte>> bytes(mine.size());
      tbb::parallel_for(std::size_t{0}, mine.size(), [&](std::size_t j) {
        build_tree_of(goals[mine[j]], built[mine[j]]);
        bytes[j] = path_tree_bytes(built[mine[j]]);
      });
      const std::vector<std::vector<std::byte>> all = agent_share->share_jobs(goals.size(), bytes);
      for (std::size_t k = 0; k < goals.size(); ++k)
        if (!agent_share->runs_job(k))
          built[k] = path_tree_from_bytes(all[k]);
    }
    evict_trees(built_bytes(built));
    pool_trees(goals, built);
  }

  static std::size_t built_bytes(const std::vector<PathTree>& built) {
    std::size_t bytes = 0;
    for (const PathTree& tree : built)
      bytes += tree.memory_bytes();
    return bytes;
  }

  /// The trees of `goals`, all built here on the workers, into `built`.
  void build_trees_here(const std::vector<std::int32_t>& goals, std::vector<PathTree>& built) {
    tbb::parallel_for(std::size_t{0}, goals.size(),
                      [&](std::size_t k) { build_tree_of(goals[k], built[k]); });
  }
  void build_tree_of(std::int32_t goal, PathTree& tree) {
    graph.build_tree(goal, tree, tree_window(goal));
  }
  /// Puts `built`, the trees of `goals`, in the pool, and their bytes in the cache's count.
  void pool_trees(const std::vector<std::int32_t>& goals, std::vector<PathTree>& built) {
    for (std::size_t k = 0; k < goals.size(); ++k) {
      trees.at(goals[k]).bytes = built[k].memory_bytes();
      tree_pool.add(goals[k], built[k]);
      built[k] = PathTree{}; // its rows freed at once: the pool holds it now
    }
  }

  // Keeps the cached trees within options.path_tree_cache_bytes, dropping the least recently
  // used first (never one used this step). A dropped tree is rebuilt identical when needed
  // again, so eviction changes only the time taken, never a path. It runs once a step's new
  // trees (`incoming_bytes`, in the cache already but not yet counted) are built and before
  // they enter the pool, so that the pool never holds more than the budget and the room the
  // dropped trees leave is theirs. The same trees go as when it ran at the step's end: every
  // tree used this step is kept either way, and nothing uses a tree in between.
  void evict_trees(std::size_t incoming_bytes) {
    std::size_t bytes = incoming_bytes;
    for (const auto& [goal, cached] : trees)
      bytes += cached.bytes;
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
      bytes -= it->second.bytes;
      trees.erase(it);
      tree_pool.remove(goal);
    }
  }

  // dtCrowd::updateTopologyOptimization with a budget: the agents that waited longest past
  // the interval (ties to the lower index, so the choice is the same for any thread count)
  // get their corridor's topology fixed, at most topology_optimizations_per_step per step.
  void optimize_topology(float dt) {
    due.clear();
    for (int i = 0; i < static_cast<int>(agents.size()); ++i) {
      NavAgent& a = agents[static_cast<std::size_t>(i)];
      if (a.state != TargetState::Valid ||
          arrays.mode[static_cast<std::size_t>(row_of(i))] == kAgentInactive)
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
    std::vector<std::int32_t> optimized(due.size());
    for (std::size_t k = 0; k < due.size(); ++k)
      optimized[k] = due[k].second;
    // Only the corridor changes, where it is computed (computed_here).
    const std::vector<std::int32_t> here = computed_here(optimized);
    tbb::parallel_for(std::size_t{0}, here.size(), [&](std::size_t k) {
      const int i = here[k];
      dtPathCorridor& corridor = load(i);
      corridor.optimizePathTopology(&query(), &filter_of(i));
      store(i, corridor);
    });
    for (const int i : optimized)
      agents[static_cast<std::size_t>(i)].topology_time = 0.0f;
  }

  // What the corridor phases are to do with agent i this step (the kCorridor* bits), and its
  // mode and desired speed; its preferred velocity stays zero unless it follows a corridor.
  void prepare_following(int i) {
    const NavAgent& a = agents[static_cast<std::size_t>(i)];
    const std::size_t k = static_cast<std::size_t>(row_of(i)); // the arrays' and corridors' row
    if (arrays.mode[k] == kAgentInactive)
      return;
    if (on_link[static_cast<std::size_t>(i)]) {
      // Moved along its link by advance_links; at rest to the kernels, no corridor phase.
      arrays.mode[k] = kAgentOnLink;
      arrays.desired_speed[k] = 0.0f;
      arrays.preferred_velocity[k] = glm::vec2(0.0f);
      arrays.corridor_direction[k] = glm::vec2(0.0f);
      rows.state[k] = 0;
      return;
    }
    if (a.state == TargetState::Velocity) {
      // dtCrowd::update's steering of a velocity request: the velocity, at its own speed; no
      // corridor to follow or keep (the move shrinks it to the agent's polygon).
      arrays.mode[k] = kAgentMoving;
      arrays.desired_speed[k] = glm::length(a.target_pos);
      arrays.preferred_velocity[k] = glm::vec2(a.target_pos.x, a.target_pos.z);
      arrays.corridor_direction[k] = glm::vec2(0.0f);
      rows.state[k] = 0;
      return;
    }
    const bool has_goal = a.state == TargetState::Valid || a.state == TargetState::WaitingForPath;
    arrays.mode[k] = has_goal ? kAgentMoving : kAgentStanding;
    arrays.desired_speed[k] = has_goal ? a.max_speed : 0.0f;
    arrays.preferred_velocity[k] = glm::vec2(0.0f);
    arrays.corridor_direction[k] = glm::vec2(0.0f);
    const bool from_tree = a.state == TargetState::Valid && shares_paths(i) && !own_filter(i) &&
                           tree_pool.view().tree_of(rows.goal[k]) >= 0;
    rows.state[k] = static_cast<std::uint8_t>(
        (a.state == TargetState::Valid ? kCorridorFollow : 0) | (has_goal ? kCorridorKeepPath : 0) |
        (own_filter(i) ? kCorridorOwnFilter : 0) | (from_tree ? kCorridorFromTree : 0));
  }

  // follow_corridor's part for the agent in row `r`, which it flagged, with Detour where the
  // tables cannot answer: the corners (then the rest of the part, shortcut_and_steer, as the
  // body does it), or the shortcut alone.
  void answer_following(int r, const AgentView& view) {
    const int i = arrays.id_of(r);
    answer_following_row(i, r, view);
    // Only the host's Detour answers find a link's start among the corners: the tables ask at
    // a link.
    const auto rk = static_cast<std::size_t>(r);
    const int n = rows.corner_count[rk];
    link_ahead[static_cast<std::size_t>(i)] =
        n > 0 && (rows.corner_flags[rk * static_cast<std::size_t>(rows.corner_capacity) +
                                    static_cast<std::size_t>(n - 1)] &
                  DT_STRAIGHTPATH_OFFMESH_CONNECTION) != 0;
  }

  // The kernel bodies below (shortcut_and_steer, steer_along_corridor) take the row; the
  // navigator's own (corners_with_detour, shortcut_with_detour) the agent.
  void answer_following_row(int i, int r, const AgentView& view) {
    const auto k = static_cast<std::size_t>(r);
    const std::uint8_t asked = rows.state[k] & kCorridorAskBits;
    rows.state[k] &= static_cast<std::uint8_t>(~kCorridorAskBits);
    rows.wrote(r); // corners, shortcut, preferred velocity: the phase fetched the row
    const CorridorView corridors = rows.view();
    CornerBuffer corners = corridors.corners(r);
    const float range_factor = options.path_optimization_range_factor;
    const SteeringRow steering{arrays.preferred_velocity.data(), arrays.corridor_direction.data()};
    if ((asked & kCorridorAskCorners) && own_filter(i)) {
      // shortcut_and_steer's order, with Detour's raycast through the agent's own filter.
      const int n = corners_with_detour(i, corners);
      rows.corner_count[k] = n;
      if (n > 0)
        shortcut_with_detour(i, &corners.verts[std::min(1, n - 1) * 3],
                             range_factor * view.radius[r]);
      steer_along_corridor(r, tables, corridors, view, steering, n);
      return;
    }
    if (asked & kCorridorAskCorners) {
      const int n = corners_with_detour(i, corners);
      if (shortcut_and_steer(r, tables, corridors, view, steering, range_factor, n))
        return;
    }
    if (asked & (kCorridorAskCorners | kCorridorAskVisibility)) {
      const int n = rows.corner_count[k];
      // The steering as the body computed it before it asked for the shortcut, again here (the
      // corners' answer above has just done it): an executor that holds the rows on its device
      // computed it there, and uploads the host's with the row.
      if (!(asked & kCorridorAskCorners))
        steer_along_corridor(r, tables, corridors, view, steering, n);
      shortcut_with_detour(i, &corners.verts[std::min(1, n - 1) * 3],
                           range_factor * view.radius[r]);
    }
  }

  // dtCrowd::update's trigger of off-mesh connections: an agent following its corridor whose
  // last corner is a link's start, within 2.25 radii of it, has its corridor moved over the
  // link (dtPathCorridor::moveOverOffmeshConnection) and crosses it. DetourCrowd triggers it in
  // the step that found the corners; here it happens at the start of the next, before the
  // corridor phases take the agents' modes to the executor.
  void take_links() {
    crossings = 0;
    std::vector<std::int32_t> candidates;
    for (std::size_t k = 0; k < link_ahead.size(); ++k)
      if (link_ahead[k])
        candidates.push_back(static_cast<std::int32_t>(k));
    if (candidates.empty())
      return;
    fetch(candidates);
    for (const int i : candidates) {
      const auto k = static_cast<std::size_t>(i);
      const auto rk = static_cast<std::size_t>(row_of(i));
      link_ahead[k] = 0;
      NavAgent& a = agents[k];
      const int n = rows.corner_count[rk];
      if (arrays.mode[rk] == kAgentInactive || on_link[k] || a.state != TargetState::Valid ||
          n <= 0)
        continue;
      const std::size_t last =
          rk * static_cast<std::size_t>(rows.corner_capacity) + static_cast<std::size_t>(n - 1);
      const glm::vec3 corner = rows.corner_verts[last];
      const glm::vec3 at = arrays.position[rk];
      const float reach = 2.25f * arrays.radius[rk];
      const float dx = corner.x - at.x, dz = corner.z - at.z;
      if (!(rows.corner_flags[last] & DT_STRAIGHTPATH_OFFMESH_CONNECTION) ||
          !(dx * dx + dz * dz < reach * reach) || rows.corner_polys[last] < 0)
        continue;
      dtPathCorridor& corridor = load(i);
      dtPolyRef refs[2];
      glm::vec3 start{0.0f}, end{0.0f};
      if (!corridor.moveOverOffmeshConnection(polygons().ref_of(rows.corner_polys[last]), refs,
                                              &start.x, &end.x, &query()))
        continue;
      store(i, corridor);
      const float length = std::hypot(end.x - start.x, end.z - start.z);
      a.link = {at, start, end, 0.0f, a.max_speed > 0.0f ? length / a.max_speed * 0.5f : 0.0f};
      on_link[k] = 1;
      ++crossings;
    }
  }

  // dtCrowd::update's move of the agents on links, after the step: to the link's start in the
  // first 15% of the crossing, then to its end; at the end it walks on from there.
  void advance_links(float dt) {
    for (std::size_t k = 0; k < on_link.size(); ++k) {
      if (!on_link[k])
        continue;
      LinkCrossing& link = agents[k].link;
      const auto rk = static_cast<std::size_t>(row_of(static_cast<int>(k)));
      link.time += dt;
      if (arrays.mode[rk] == kAgentInactive || link.time > link.duration) {
        on_link[k] = 0;
        if (arrays.mode[rk] != kAgentInactive)
          arrays.position[rk] = link.end; // where its corridor starts
        continue;
      }
      const float ta = link.duration * 0.15f;
      arrays.position[rk] = link.time < ta
                                ? lerp(link.from, link.start, tween(link.time, 0.0f, ta))
                                : lerp(link.start, link.end, tween(link.time, ta, link.duration));
    }
  }

  // dtPathCorridor::findCorners by Detour, for a corridor the tables cannot answer for: the
  // corners in `out` as the corners kernel body writes them.
  int corners_with_detour(int i, CornerBuffer& out) {
    static_assert(kCornerEnd == DT_STRAIGHTPATH_END && sizeof(unsigned char) == 1);
    thread_local std::vector<dtPolyRef> polys;
    polys.resize(static_cast<std::size_t>(out.capacity));
    const int n = load(i).findCorners(out.verts, out.flags, polys.data(), out.capacity, &query(),
                                      &filter_of(i));
    for (int c = 0; c < n; ++c)
      out.polys[c] = polygons().index_of(polys[static_cast<std::size_t>(c)]);
    out.count = n;
    return n;
  }

  // optimizePathVisibility with Detour's raycast, for a shortcut the tables cannot answer for.
  void shortcut_with_detour(int i, const float* next, float range) {
    dtPathCorridor& corridor = load(i);
    if (own_filter(i))
      corridor.optimizePathVisibility(next, range, &query(), &filter_of(i));
    else
      optimize_corridor_visibility(corridor, next, range, rows.capacity, shapes, query(),
                                   navmesh.filter());
    store(i, corridor);
  }

  // move_corridor_of_agent's part for the agent in row `r`, which it flagged: Detour's
  // moveAlongSurface, then the end of the move as the body does it. Adds the distance the agent
  // was put back to `corrections`.
  void answer_move(int r, NavmeshCorrections& corrections) {
    const int i = arrays.id_of(r);
    const auto k = static_cast<std::size_t>(r);
    rows.state[k] &= static_cast<std::uint8_t>(~kCorridorAskMove);
    dtPathCorridor& corridor = load(i);
    if (own_filter(i))
      corridor.movePosition(&arrays.position[k].x, &query(), &filter_of(i));
    else
      move_corridor_position(corridor, &arrays.position[k].x, rows.capacity, shapes, query(),
                             navmesh.filter());
    store(i, corridor);
    corrections.add(finish_corridor_move(r, rows.view(), tree_pool.view(), arrays.position[k]),
                    arrays.radius[k]);
  }
};

void CorridorNavigator::set_agent_share(AgentShare* share) {
  impl_->agent_share = share;
}

void CorridorNavigator::navmesh_changed() {
  Impl& m = *impl_;
  std::vector<std::int32_t> every(m.agents.size());
  std::iota(every.begin(), every.end(), 0);
  m.fetch(every);
  // Every corridor by reference before the tables number the polygons anew: a rebuilt tile's
  // polygons have new references, the others keep theirs.
  std::vector<std::vector<dtPolyRef>> paths(m.agents.size());
  for (std::size_t k = 0; k < m.agents.size(); ++k)
    paths[k] = m.path_of(static_cast<int>(k));
  m.graph = PolygonGraph(m.navmesh.detour(), m.navmesh.filter());
  m.portals = PortalTable(m.navmesh.detour());
  m.shapes = PolygonShapes(m.navmesh.detour(), m.navmesh.filter());
  m.tables = navmesh_tables_view(m.portals, m.shapes);
  m.tiles.reset();
  if (m.navmesh.tile_size() > 0)
    m.tiles.emplace(m.navmesh.detour());
  m.trees.clear();
  m.tree_pool.clear(m.graph.size());
  m.arena.execute([&] {
    for (std::size_t k = 0; k < m.agents.size(); ++k)
      m.renumber(static_cast<int>(k), paths[k]);
  });
}

CorridorNavigator::CorridorNavigator(const NavMesh& navmesh, const SolverOptions& options,
                                     tbb::task_arena& arena, AgentArrays& arrays,
                                     CorridorRowFetch fetch, CorridorStartFetch fetch_starts)
    : impl_(std::make_unique<Impl>(navmesh, options, arena, arrays, std::move(fetch),
                                   std::move(fetch_starts))) {
  CorridorArrays& rows = arrays.corridors;
  if (rows.count() > 0 &&
      (rows.capacity != options.max_path_polys || rows.corner_capacity != options.max_corners))
    throw std::logic_error("CorridorNavigator: the arrays hold corridors of another capacity");
  rows.capacity = options.max_path_polys;
  rows.corner_capacity = std::max(1, options.max_corners);
}

CorridorNavigator::~CorridorNavigator() = default;

bool CorridorNavigator::add_agent(int index, float max_speed, int filter_type) {
  AgentArrays& arrays = impl_->arrays;
  // Its corridor row is appended as its agent row was: both the last row, `index`.
  if (static_cast<std::size_t>(index) != impl_->agents.size() ||
      arrays.corridors.count() != index || arrays.row_of(index) != index)
    throw std::logic_error("CorridorNavigator: agents must be added in index order");
  NavAgent& a = impl_->agents.emplace_back();
  impl_->on_link.push_back(0);
  impl_->link_ahead.push_back(0);
  arrays.corridors.append(arrays.position[static_cast<std::size_t>(index)]);
  a.max_speed = max_speed;
  set_filter_type(index, filter_type);
  glm::vec3& pos = arrays.position[static_cast<std::size_t>(index)];
  const glm::vec3 ext = impl_->navmesh.placement_extents();
  dtPolyRef ref = 0;
  float nearest[3];
  impl_->arena.execute([&] {
    impl_->query().findNearestPoly(&pos.x, &ext.x, &impl_->filter_of(index), &ref, nearest);
  });
  if (!ref)
    return false;
  pos = {nearest[0], nearest[1], nearest[2]};
  impl_->reset_row(index, ref, pos);
  return true;
}

void CorridorNavigator::set_target(int index, const glm::vec3& goal) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  dtPolyRef ref = 0;
  glm::vec3 nearest{0.0f};
  impl_->arena.execute([&] {
    ref = nearest_polygon_anywhere(impl_->navmesh, impl_->query(), goal,
                                   impl_->navmesh.placement_extents(), nearest,
                                   &impl_->filter_of(index));
  });
  a.goal_unreachable = false;
  a.replan_time = 0.0f;
  a.topology_time = 0.0f;
  if (!ref) {
    // An empty navmesh: nothing to walk to (reported as unreachable by the metrics).
    a.target_ref = 0;
    impl_->rows.set_goal(impl_->row_of(index), -1);
    a.state = TargetState::Failed;
    return;
  }
  a.target_ref = ref;
  a.target_pos = nearest;
  impl_->rows.set_goal(impl_->row_of(index), impl_->polygons().index_of(ref), nearest);
  a.state = TargetState::WaitingForPath;
  impl_->enqueue(index);
}

void CorridorNavigator::clear_target(int index) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  a.state = TargetState::None;
  a.target_ref = 0;
  const int row = impl_->row_of(index);
  impl_->rows.set_goal(row, -1);
  // Also in the middle of a step (an agent frozen after a fault): the corridor move then
  // shrinks its corridor to the polygon it stands on.
  impl_->rows.state[static_cast<std::size_t>(row)] &=
      static_cast<std::uint8_t>(~(kCorridorFollow | kCorridorKeepPath));
}

void CorridorNavigator::set_velocity(int index, const glm::vec3& velocity) {
  clear_target(index);
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  a.state = TargetState::Velocity;
  a.target_pos = velocity; // where dtCrowd keeps a velocity request, and saved as a target is
}

void CorridorNavigator::set_max_speed(int index, float max_speed) {
  impl_->agents.at(static_cast<std::size_t>(index)).max_speed = max_speed;
}

void CorridorNavigator::set_filter_type(int index, int filter_type) {
  if (const std::string problem = query_filter_type_problem(filter_type); !problem.empty())
    throw std::invalid_argument("query filter " + problem);
  impl_->agents.at(static_cast<std::size_t>(index)).filter = static_cast<std::uint8_t>(filter_type);
}

void CorridorNavigator::set_query_filter(int type, const dtQueryFilter& filter) {
  if (const std::string problem = query_filter_problem(type, filter); !problem.empty())
    throw std::invalid_argument("query filter: " + problem);
  Impl& m = *impl_;
  const auto t = static_cast<std::size_t>(type);
  m.filters[t] = filter;
  m.own_passage[t] = same_passage(filter, m.navmesh.filter()) ? 0 : 1;
  m.own_search[t] = same_search(filter, m.navmesh.filter()) ? 0 : 1;
}

const dtQueryFilter& CorridorNavigator::query_filter(int type) const {
  return impl_->filters.at(static_cast<std::size_t>(type));
}

bool CorridorNavigator::move_agent(int index, const glm::vec3& position) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  const glm::vec3 ext = impl_->navmesh.placement_extents();
  dtPolyRef ref = 0;
  float nearest[3];
  impl_->arena.execute([&] {
    impl_->query().findNearestPoly(&position.x, &ext.x, &impl_->filter_of(index), &ref, nearest);
  });
  if (!ref)
    return false;
  // As add_agent: the corridor is the polygon under the agent until its path comes; off any
  // link it was crossing.
  impl_->on_link[static_cast<std::size_t>(index)] = 0;
  impl_->link_ahead[static_cast<std::size_t>(index)] = 0;
  const glm::vec3 placed{nearest[0], nearest[1], nearest[2]};
  impl_->reset_row(index, ref, placed);
  impl_->arrays.position[static_cast<std::size_t>(impl_->row_of(index))] = placed;
  if (a.state != TargetState::None && a.target_ref != 0) {
    a.replan_time = 0.0f;
    a.topology_time = 0.0f;
    impl_->enqueue(index);
  }
  return true;
}

bool CorridorNavigator::move_target(int index, const glm::vec3& target) {
  NavAgent& a = impl_->agents.at(static_cast<std::size_t>(index));
  if (a.state != TargetState::Valid)
    return false;
  Impl& m = *impl_;
  const std::int32_t which[] = {index};
  m.fetch(which);
  bool reached = false;
  m.arena.execute([&] {
    dtPathCorridor& corridor = m.load(index);
    // DetourCrowd's own move of a corridor's end (dtPathCorridor::moveTargetPosition): along
    // the surface from the old target, the polygons crossed merged onto the corridor's end.
    if (!corridor.moveTargetPosition(&target.x, &m.query(), &m.filter_of(index)))
      return;
    m.store(index, corridor);
    const float* end = corridor.getTarget();
    a.target_pos = {end[0], end[1], end[2]};
    a.target_ref = corridor.getLastPoly();
    m.rows.set_goal(m.row_of(index), m.polygons().index_of(a.target_ref), a.target_pos);
    const float dx = end[0] - target.x, dz = end[2] - target.z;
    reached = dx * dx + dz * dz <= 1e-4f;
  });
  return reached;
}

void CorridorNavigator::plan(float dt, StageTimes& times) {
  Impl& m = *impl_;
  m.arena.execute([&] {
    {
      ScopedStage stage(times, "corridors");
      m.take_links();
    }
    {
      ScopedStage stage(times, "paths");
      // The rows check_validity reads: of a start or look-ahead polygon the look-ahead found
      // invalid, and of the agents Detour checks on the host. A path near its end needs only
      // the finding (every agent still waiting for its first path has one).
      std::vector<std::int32_t> found;
      for (int i = 0; i < static_cast<int>(m.agents.size()); ++i)
        if ((m.rows.checks[static_cast<std::size_t>(m.row_of(i))] &
             (kCorridorStartInvalid | kCorridorAheadInvalid)) != 0 ||
            m.own_filter(i))
          found.push_back(i);
      m.fetch(found);
      m.for_each_agent([&](int i) {
        if (m.check_validity(i, dt))
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
      m.optimize_topology(dt);
      m.for_each_agent([&](int i) { m.prepare_following(i); });
    }
  });
}

void CorridorNavigator::answer_following() {
  Impl& m = *impl_;
  const std::vector<std::int32_t>& asked = m.rows.asked;
  const AgentView view = m.arrays.view_without_rotations();
  m.arena.execute([&] {
    parallel_for_each_agent(static_cast<int>(asked.size()), 4, [&](int k) {
      m.answer_following(asked[static_cast<std::size_t>(k)], view);
    });
  });
}

void CorridorNavigator::answer_moves(NavmeshCorrections& corrections) {
  Impl& m = *impl_;
  const std::vector<std::int32_t>& asked = m.rows.asked;
  tbb::combinable<NavmeshCorrections> answered;
  m.arena.execute([&] {
    parallel_for_each_agent(static_cast<int>(asked.size()), 4, [&](int k) {
      m.answer_move(asked[static_cast<std::size_t>(k)], answered.local());
    });
  });
  answered.combine_each([&](const NavmeshCorrections& c) { corrections.add(c); });
}

void CorridorNavigator::advance_links(float dt) {
  impl_->advance_links(dt);
}

int CorridorNavigator::links_taken() const {
  return impl_->crossings;
}

std::span<const std::uint8_t> CorridorNavigator::on_links() const {
  return impl_->on_link;
}

const NavmeshTablesView& CorridorNavigator::tables() const {
  return impl_->tables;
}

const PathTreePool& CorridorNavigator::path_trees() const {
  return impl_->tree_pool;
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

std::size_t CorridorNavigator::path_requests_served() const {
  return impl_->requests_served;
}

std::vector<dtPolyRef> CorridorNavigator::corridor(int index) const {
  const std::int32_t which[] = {index};
  impl_->fetch(which);
  return impl_->path_of(index);
}

std::vector<PathCorner> CorridorNavigator::corners(int index) const {
  const std::int32_t which[] = {index};
  impl_->fetch(which);
  const CorridorArrays& rows = impl_->rows;
  const auto row = static_cast<std::size_t>(impl_->row_of(index));
  const auto first = row * static_cast<std::size_t>(rows.corner_capacity);
  const auto count = static_cast<std::size_t>(rows.corner_count.at(row));
  std::vector<PathCorner> corners;
  for (std::size_t c = 0; c < count; ++c)
    corners.push_back({rows.corner_verts[first + c], rows.corner_flags[first + c]});
  return corners;
}

std::size_t CorridorNavigator::memory_bytes() const {
  // The corridors themselves are rows of the agent arrays, counted there.
  const std::size_t trees =
      impl_->trees.size() * sizeof(CachedTree) + impl_->tree_pool.memory_bytes();
  return impl_->agents.size() * sizeof(NavAgent) + impl_->queue.size() * sizeof(int) +
         impl_->outcome.capacity() + navmesh_table_bytes() + trees;
}

std::size_t CorridorNavigator::navmesh_table_bytes() const {
  return impl_->graph.memory_bytes() + impl_->portals.memory_bytes() + impl_->shapes.memory_bytes();
}

namespace {

// An agent's request state in a checkpoint (host/checkpoint/archive.h), shared by save and
// restore; its corridor is saved apart (dtPathCorridor is restored through its own calls).
constexpr auto kNavAgentFields = [](auto& archive, auto& a) {
  archive.fields(a.target_ref, a.target_pos, a.state, a.replan_time, a.topology_time, a.max_speed,
                 a.queued, a.wants_path, a.goal_unreachable, a.link.from, a.link.start, a.link.end,
                 a.link.time, a.link.duration, a.filter);
};

} // namespace

void CorridorNavigator::save(ArchiveWriter& out) const {
  const Impl& m = *impl_;
  std::vector<std::int32_t> every(m.agents.size());
  std::iota(every.begin(), every.end(), 0);
  m.fetch(every);
  out.put(static_cast<std::uint64_t>(m.agents.size()));
  for (std::size_t k = 0; k < m.agents.size(); ++k) {
    const int i = static_cast<int>(k);
    const auto row = static_cast<std::size_t>(m.row_of(i));
    out.put(m.rows.position[row]);
    out.put(m.rows.target[row]);
    out.put(m.path_of(i)); // fetched above
    kNavAgentFields(out, m.agents[k]);
  }
  out.put(m.on_link);
  out.put(m.link_ahead);
  for (const dtQueryFilter& filter : m.filters) {
    out.put(filter.getIncludeFlags());
    out.put(filter.getExcludeFlags());
    for (int area = 0; area < DT_MAX_AREAS; ++area)
      out.put(filter.getAreaCost(area));
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
  if (static_cast<std::size_t>(m.arrays.count()) != count)
    in.fail("the navigator's agent count is not the agent arrays'");
  while (m.agents.size() < count) {
    m.agents.emplace_back();
    m.rows.append(glm::vec3(0.0f));
  }
  m.on_link.resize(count, 0);
  m.link_ahead.resize(count, 0);
  std::vector<dtPolyRef> path;
  for (std::size_t k = 0; k < count; ++k) {
    const int r = m.row_of(static_cast<int>(k));
    const auto rk = static_cast<std::size_t>(r);
    m.rows.position[rk] = in.get<glm::vec3>();
    m.rows.target[rk] = in.get<glm::vec3>();
    in.get(path);
    if (path.size() == 1 && path[0] == 0)
      path.clear(); // older builds' way to write an agent on no polygon
    if (path.size() >= static_cast<std::size_t>(m.options.max_path_polys))
      in.fail("a corridor is longer than the corridor capacity");
    std::int32_t* row = m.rows.row(r);
    for (std::size_t p = 0; p < path.size(); ++p) {
      row[p] = m.polygons().index_of(path[p]);
      if (row[p] < 0)
        in.fail("a corridor names a polygon the navmesh does not have");
    }
    m.rows.size[rk] = static_cast<std::int32_t>(path.size());
    kNavAgentFields(in, m.agents[k]);
    if (const std::string problem = query_filter_type_problem(m.agents[k].filter); !problem.empty())
      in.fail("an agent's query filter " + problem);
    const dtPolyRef goal = m.agents[k].target_ref;
    m.rows.set_goal(r, goal ? m.polygons().index_of(goal) : -1, m.agents[k].target_pos);
    m.rows.wrote(r); // the executor's copy is stale
  }
  in.get(m.on_link);
  in.expect(m.on_link.size(), count, "the on-link flags' count");
  in.get(m.link_ahead);
  in.expect(m.link_ahead.size(), count, "the link-ahead flags' count");
  for (int type = 0; type < kQueryFilterTypes; ++type) {
    dtQueryFilter filter;
    filter.setIncludeFlags(in.get<unsigned short>());
    filter.setExcludeFlags(in.get<unsigned short>());
    for (int area = 0; area < DT_MAX_AREAS; ++area)
      filter.setAreaCost(area, in.get<float>());
    if (const std::string problem = query_filter_problem(type, filter); !problem.empty())
      in.fail("query filter " + std::to_string(type) + ": " + problem);
    set_query_filter(type, filter);
  }
  const auto queue = in.get<std::vector<int>>();
  for (const int i : queue)
    if (i < 0 || static_cast<std::size_t>(i) >= m.agents.size())
      in.fail("a queued path request names no agent");
  m.queue.assign(queue.begin(), queue.end());
  m.trees.clear();
  m.tree_pool.clear(m.graph.size());
  std::vector<std::int32_t> goals(in.count());
  for (std::int32_t& goal : goals) {
    in.get(goal);
    if (goal < 0 || goal >= m.graph.size())
      in.fail("a cached path tree's goal polygon is not in the navmesh");
    if (m.trees.contains(goal))
      in.fail("a cached path tree's goal polygon is listed twice");
    m.trees[goal].last_used = in.get<std::uint64_t>();
  }
  // Every process restores the same file, so each builds every tree itself: no exchange here.
  std::vector<PathTree> built(goals.size());
  m.arena.execute([&] { m.build_trees_here(goals, built); });
  m.pool_trees(goals, built);
  in.get(m.path_step);
  m.searches = static_cast<std::size_t>(in.get<std::uint64_t>());
}

} // namespace crowd

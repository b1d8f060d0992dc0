#include "host/paths/shortest_routes.h"

#include "host/navmesh/navmesh.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourNode.h>
#include <DetourStatus.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <tbb/enumerable_thread_specific.h>
#include <vector>

namespace crowd {
namespace {

/// A node pool no search of `nav` can run out of: dtNavMeshQuery::findPath takes one node per
/// polygon and state (a polygon at a tile border one per side it is entered from, up to
/// DT_MAX_STATES_PER_NODE), and the navmesh can never hold more polygons than its tiles' room
/// (dtNavMeshParams: a rebuilt tile keeps its room); Detour's limit where that is more. Detour's
/// limit everywhere cost a small scene's simulation over half of its making (each worker's some
/// 2.6 MB of nodes and open list allocated, cleared and freed; tests/fuzz's checkpoint reader
/// makes one per input), and a search finds the same path in any pool it cannot run out of.
int search_nodes(const NavMesh& nav) {
  const dtNavMeshParams& room = *nav.detour().getParams();
  const long long nodes =
      static_cast<long long>(room.maxTiles) * room.maxPolys * DT_MAX_STATES_PER_NODE;
  return static_cast<int>(
      std::clamp<long long>(nodes, NavMesh::kMinQueryNodes, NavMesh::kMaxQueryNodes));
}

} // namespace

struct ShortestRoutes::Impl {
  struct Worker {
    NavQueryPtr query;
    std::vector<dtPolyRef> path;
    std::vector<float> straight;
  };

  const NavMesh* navmesh = nullptr;
  dtQueryFilter filter;
  glm::vec3 extents{0.0f};
  float agent_height = 2.0f;
  int max_path = 1;
  tbb::enumerable_thread_specific<Worker> workers;

  explicit Impl(const NavMesh& nav)
      : navmesh(&nav), filter(nav.filter()), extents(nav.placement_extents()),
        agent_height(nav.settings().agent_height),
        // A path never visits a polygon twice, so the polygon count bounds its length.
        max_path(std::max(nav.polygon_count(), 1) + 1), workers([this] {
          return Worker{navmesh->make_query(search_nodes(*navmesh)),
                        std::vector<dtPolyRef>(static_cast<std::size_t>(max_path)),
                        std::vector<float>(3 * static_cast<std::size_t>(max_path + 2))};
        }) {}

  /// The xz length of the shortest path from `from` to `to` (-1 when Detour cannot straighten
  /// it), or nothing when `to` cannot be reached.
  std::optional<double> leg_length(Worker& w, float arrival_radius, const glm::vec3& from,
                                   const glm::vec3& to) const {
    dtNavMeshQuery& query = *w.query;
    const float half[3] = {extents.x, extents.y, extents.z};
    const float start[3] = {from.x, from.y, from.z};
    const float goal[3] = {to.x, to.y, to.z};
    dtPolyRef start_ref = 0, goal_ref = 0;
    float start_pt[3], goal_pt[3];
    const dtStatus s1 = query.findNearestPoly(start, half, &filter, &start_ref, start_pt);
    const dtStatus s2 = query.findNearestPoly(goal, half, &filter, &goal_ref, goal_pt);
    if (dtStatusFailed(s1) || dtStatusFailed(s2) || start_ref == 0 || goal_ref == 0)
      return std::nullopt;
    // A target farther from the navmesh than the arrival test reaches is never arrived at.
    if (std::hypot(goal_pt[0] - goal[0], goal_pt[2] - goal[2]) > arrival_radius ||
        std::abs(goal_pt[1] - goal[1]) > agent_height)
      return std::nullopt;
    int npath = 0;
    const dtStatus st = query.findPath(start_ref, goal_ref, start_pt, goal_pt, &filter,
                                       w.path.data(), &npath, max_path);
    if (dtStatusFailed(st) || npath == 0 ||
        w.path[static_cast<std::size_t>(npath - 1)] != goal_ref ||
        dtStatusDetail(st, DT_PARTIAL_RESULT))
      return std::nullopt;
    int nstraight = 0;
    const dtStatus ss =
        query.findStraightPath(start_pt, goal_pt, w.path.data(), npath, w.straight.data(), nullptr,
                               nullptr, &nstraight, max_path + 2);
    if (dtStatusFailed(ss))
      return -1.0; // Reachable, length unknown.
    double length = 0.0;
    for (int k = 1; k < nstraight; ++k) {
      const float* a = &w.straight[static_cast<std::size_t>(3 * (k - 1))];
      const float* b = &w.straight[static_cast<std::size_t>(3 * k)];
      const double dx = static_cast<double>(b[0]) - a[0], dz = static_cast<double>(b[2]) - a[2];
      length += std::sqrt(dx * dx + dz * dz);
    }
    return length;
  }
};

ShortestRoutes::ShortestRoutes(const NavMesh& navmesh) : impl_(std::make_unique<Impl>(navmesh)) {}
ShortestRoutes::~ShortestRoutes() = default;
ShortestRoutes::ShortestRoutes(ShortestRoutes&&) noexcept = default;
ShortestRoutes& ShortestRoutes::operator=(ShortestRoutes&&) noexcept = default;

ShortestRoute ShortestRoutes::measure(std::span<const glm::vec3> stops,
                                      float arrival_radius) const {
  Impl::Worker& worker = impl_->workers.local();
  double total = 0.0; // Negative once a leg's length is unknown: no length.
  for (std::size_t leg = 1; leg < stops.size(); ++leg) {
    const std::optional<double> length =
        impl_->leg_length(worker, arrival_radius, stops[leg - 1], stops[leg]);
    if (!length)
      return ShortestRoute{false, 0.0};
    total = total < 0.0 || *length < 0.0 ? -1.0 : total + *length;
  }
  return ShortestRoute{true, std::max(total, 0.0)};
}

} // namespace crowd

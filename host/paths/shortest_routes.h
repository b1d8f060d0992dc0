// The shortest navmesh route through a list of stops, and whether it exists: what the solver
// judges an agent's goal by (stuck agents with an unreachable goal are not replanned) and what
// the metrics divide walked distance by (path ratio, time ratio). Measured once per agent
// when it is made known and again when its goal changes, never per step.
//
// A leg is Detour's findNearestPoly of both ends (placement extents), findPath, and
// findStraightPath, measured in xz. It is unreachable when an end has no polygon in reach,
// when the navmesh point nearest its end is farther from it than the arrival test could ever
// accept (arrival_radius in xz, agent_height in y: a goal inside an obstacle or past the
// bounds), or when findPath returns a partial path (the last polygon is not the end's). The
// A* pool is at Detour's maximum (65535 nodes) and the path buffer as long as the navmesh has
// polygons, so a path is never cut short by the buffer.
#pragma once

#include <glm/vec3.hpp>
#include <memory>
#include <span>

namespace crowd {

class NavMesh;

/// An agent's shortest route from its start through its waypoints to its goal.
struct ShortestRoute {
  bool reachable = true; ///< Every leg reachable.
  /// xz metres; 0 when unreachable, degenerate, or when Detour could not straighten a leg.
  double length = 0.0;
};

class ShortestRoutes {
public:
  /// `navmesh` must outlive this.
  explicit ShortestRoutes(const NavMesh& navmesh);
  ~ShortestRoutes();
  ShortestRoutes(ShortestRoutes&&) noexcept;
  ShortestRoutes& operator=(ShortestRoutes&&) noexcept;

  /// The route through `stops` (the start first, the goal last) in order. Safe to call from
  /// several threads at once: each thread searches with its own query.
  ShortestRoute measure(std::span<const glm::vec3> stops, float arrival_radius) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace crowd

// Scenario extension `events` (docs/scenario-extensions.md): dynamic obstacles added, moved and
// removed on the navmesh at their times, through the Crowd's obstacle calls. The simulation
// applies the events due before each step; the crowd's agents follow the rebuilt tiles.
#pragma once

#include "host/navmesh/navmesh.h"
#include "host/scenario/scenario.h"
#include "host/sim/crowd.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace crowd {

class ObstacleEvents {
public:
  /// The events of `scenario` for `crowd` (whose navmesh was built for them:
  /// NavmeshBuildSettings::dynamic), both of which must outlive this. Checks every obstacle the
  /// events put down against the navmesh first, so that a run does not stop halfway: throws
  /// ScenarioError naming the event.
  ObstacleEvents(const Scenario& scenario, Crowd& crowd);

  /// Applies the events due at `now` (seconds from the start: those at or before it, not
  /// applied yet), in time order, ties in file order, then rebuilds the navmesh's tiles they
  /// touch (Crowd::update_obstacles). Returns whether the navmesh changed.
  bool apply_due(double now);
  /// The first step k (starting at k * dt, dt in decimal seconds as the simulation's clock)
  /// before which apply_due would apply the next event not applied yet; INT_MAX when none is
  /// left. A restored checkpoint replays the events with it, step by step as they applied.
  int next_due_step(double dt) const;
  /// Obstacles standing.
  int standing() const { return static_cast<int>(standing_.size()); }

private:
  struct Standing {
    int id = 0; ///< Crowd::add_obstacle's.
    NavObstacle obstacle;
  };
  /// What event `i` puts down: its obstacle, or the one it moves, at its new place.
  NavObstacle obstacle_of(std::size_t i, const NavObstacle* moved) const;
  /// Where on the navmesh a point given as [x, z] stands: the surface under it.
  glm::vec3 foot_of(const PointSpec& point) const;
  std::string path_of(std::size_t i) const;

  const Scenario& scenario_;
  Crowd& crowd_;
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
  std::map<std::string, Standing> standing_;
};

} // namespace crowd

// Random corridors for the path tests: a Detour path between two random points of a test
// navmesh (tests/support/pillar_field.h), loaded into dtPathCorridors the way the crowd does.
#pragma once

#include <DetourNavMeshQuery.h>
#include <DetourPathCorridor.h>
#include <glm/glm.hpp>
#include <initializer_list>
#include <random>
#include <vector>

namespace crowd::test {

struct RandomPath {
  dtPolyRef start = 0, goal = 0;
  float start_pos[3] = {}, goal_pos[3] = {};
  std::vector<dtPolyRef> polys; ///< dtNavMeshQuery::findPath's path, at most `capacity` long
};

/// Draws two points in [-29, 29]^2 (x then z of the start, then of the goal) and finds the path
/// between them; false when a point misses the navmesh or no path comes back.
inline bool random_path(const dtNavMeshQuery& query, const dtQueryFilter& filter, glm::vec3 ext,
                        std::mt19937& rng, int capacity, RandomPath& out) {
  std::uniform_real_distribution<float> coord(-29.0f, 29.0f);
  const glm::vec3 from{coord(rng), 0.0f, coord(rng)}, to{coord(rng), 0.0f, coord(rng)};
  out = RandomPath{};
  query.findNearestPoly(&from.x, &ext.x, &filter, &out.start, out.start_pos);
  query.findNearestPoly(&to.x, &ext.x, &filter, &out.goal, out.goal_pos);
  if (!out.start || !out.goal)
    return false;
  out.polys.resize(static_cast<std::size_t>(capacity));
  int count = 0;
  query.findPath(out.start, out.goal, out.start_pos, out.goal_pos, &filter, out.polys.data(),
                 &count, capacity);
  out.polys.resize(static_cast<std::size_t>(count));
  return count > 0;
}

/// Starts each corridor at the path's start, heading along the path to its goal.
inline void load_corridors(const RandomPath& path, int capacity,
                           std::initializer_list<dtPathCorridor*> corridors) {
  for (dtPathCorridor* c : corridors) {
    c->init(capacity);
    c->reset(path.start, path.start_pos);
    c->setCorridor(path.goal_pos, path.polys.data(), static_cast<int>(path.polys.size()));
  }
}

} // namespace crowd::test

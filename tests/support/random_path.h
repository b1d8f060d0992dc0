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

/// A path from a random start by way of a random point to a random goal in [-29, 29]^2 (as a
/// corridor looks after its agent was pushed off its way: visibility shortcuts straighten it);
/// false when a point misses the navmesh or a search fails.
inline bool random_path_with_a_detour(const dtNavMeshQuery& query, const dtQueryFilter& filter,
                                      glm::vec3 ext, std::mt19937& rng, int capacity,
                                      RandomPath& out) {
  std::uniform_real_distribution<float> coord(-29.0f, 29.0f);
  const glm::vec3 from{coord(rng), 0.0f, coord(rng)}, via{coord(rng), 0.0f, coord(rng)},
      to{coord(rng), 0.0f, coord(rng)};
  out = RandomPath{};
  dtPolyRef middle = 0;
  float middle_pos[3];
  query.findNearestPoly(&from.x, &ext.x, &filter, &out.start, out.start_pos);
  query.findNearestPoly(&via.x, &ext.x, &filter, &middle, middle_pos);
  query.findNearestPoly(&to.x, &ext.x, &filter, &out.goal, out.goal_pos);
  if (!out.start || !middle || !out.goal)
    return false;
  std::vector<dtPolyRef> second(static_cast<std::size_t>(capacity));
  out.polys.resize(static_cast<std::size_t>(capacity));
  int count = 0, second_count = 0;
  query.findPath(out.start, middle, out.start_pos, middle_pos, &filter, out.polys.data(), &count,
                 capacity);
  query.findPath(middle, out.goal, middle_pos, out.goal_pos, &filter, second.data(), &second_count,
                 capacity);
  if (count == 0 || second_count == 0 || out.polys[static_cast<std::size_t>(count - 1)] != middle)
    return false;
  for (int k = 1; k < second_count && count < capacity - 1; ++k)
    out.polys[static_cast<std::size_t>(count++)] = second[static_cast<std::size_t>(k)];
  out.polys.resize(static_cast<std::size_t>(count));
  return true;
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

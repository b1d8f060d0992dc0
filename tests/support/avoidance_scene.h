// A hand-made neighbourhood for the avoidance bodies' tests: agent 0 at the origin with a
// velocity (and the same desired velocity) and desired speed 1.4 m/s, the agents added after it
// as its neighbours, and the wall segments added as its wall row. Radius 0.4 m for every agent.
#pragma once

#include "cuda/core/agent_arrays.h"

namespace crowd::test {

struct AvoidanceScene {
  AgentArrays arrays;

  AvoidanceScene(glm::vec2 velocity, int max_segments, int max_neighbors = 4) {
    arrays.max_neighbors = max_neighbors;
    arrays.max_segments = max_segments;
    add({0.0f, 0.0f}, velocity);
  }
  /// An agent at `at` moving at `velocity`; after the first, a neighbour of agent 0.
  int add(glm::vec2 at, glm::vec2 velocity, std::uint8_t mode = kAgentMoving) {
    const int i = arrays.append({at.x, 0.0f, at.y}, 0.4f, 2.0f, 8.0f, 4.8f, 2.0f, 0);
    const auto k = static_cast<std::size_t>(i);
    arrays.mode[k] = mode;
    arrays.velocity[k] = velocity;
    arrays.desired_velocity[k] = velocity;
    arrays.desired_speed[k] = 1.4f;
    if (i > 0) {
      arrays.neighbor_index[static_cast<std::size_t>(arrays.neighbor_count[0])] = i;
      ++arrays.neighbor_count[0];
    }
    return i;
  }
  /// Wall segment a->b in agent 0's row (its walkable side is to the right of a->b).
  void wall(glm::vec2 a, glm::vec2 b) {
    arrays.segment[static_cast<std::size_t>(arrays.segment_count[0])] = {a.x, a.y, b.x, b.y};
    ++arrays.segment_count[0];
  }
};

} // namespace crowd::test

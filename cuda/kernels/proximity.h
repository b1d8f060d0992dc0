// Stage 4, proximity: each agent's nearest neighbours and nearest wall segments.
// DetourCrowd takes the first 32 agents its proximity grid returns, then keeps the 6 nearest
// (getNeighbours, DetourCrowd.cpp), so in dense crowds the true nearest can be missed (RN
// #641). Here every agent within range is considered and the K nearest kept (RVO2's
// insertAgentNeighbor insertion sort); ties go to the lower agent id, so the result depends
// neither on the order candidates are visited in nor on the rows the agents are in. Walls:
// dtLocalBoundary keeps the 8 nearest segments of the polygons around the agent; here the nearest S
// boundary edges within range that face the agent (the facing test of dtCrowd::update's velocity
// planning).
#pragma once

#include "cuda/kernels/agent_grid.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/geometry.h"
#include "cuda/kernels/wall_grid.h"

namespace crowd {

/// Inserts (key, id) into the ascending list keys/ids of length `count` (capacity `capacity`),
/// ordered by key then by `order(id)`; returns the new length. Sets `truncated` when something
/// is dropped. `order` ranks what ties: the id itself, or for a row of agents its agent's id
/// (agent_of_row), so that the list does not depend on the rows the agents are in.
template <class TieOrder>
CROWD_HD int insert_nearest(float key, std::int32_t id, float* keys, std::int32_t* ids, int count,
                            int capacity, bool& truncated, TieOrder order) {
  int pos = count;
  const std::int32_t rank = order(id);
  while (pos > 0 && (keys[pos - 1] > key || (keys[pos - 1] == key && order(ids[pos - 1]) > rank)))
    --pos;
  if (pos >= capacity) {
    truncated = true;
    return count;
  }
  if (count == capacity)
    truncated = true;
  const int last = count < capacity ? count : capacity - 1;
  for (int i = last; i > pos; --i) {
    keys[i] = keys[i - 1];
    ids[i] = ids[i - 1];
  }
  keys[pos] = key;
  ids[pos] = id;
  return count < capacity ? count + 1 : capacity;
}

/// insert_nearest with ties to the lower id.
CROWD_HD int insert_nearest(float key, std::int32_t id, float* keys, std::int32_t* ids, int count,
                            int capacity, bool& truncated) {
  return insert_nearest(key, id, keys, ids, count, capacity, truncated,
                        [](std::int32_t x) { return x; });
}

/// Finds agent `i`'s neighbours (in range, height ranges overlapping; DetourCrowd's test).
/// Candidates are read from the grid's sorted copy of positions and heights, which holds the
/// same floats as v.position and v.height, so the result is the same as reading those.
CROWD_HD void find_neighbors(int i, const AgentView& v, const AgentGridView& agent_grid) {
  const int k_max = v.max_neighbors;
  float* dist = v.neighbor_distance_sq + static_cast<long long>(i) * k_max;
  std::int32_t* ids = v.neighbor_index + static_cast<long long>(i) * k_max;
  int n = 0;
  bool truncated = false;
  if (kernels_move(v.mode[i]) && k_max > 0) {
    const glm::vec3 p = v.position[i];
    const float range = v.query_range[i];
    const float range_sq = range * range;
    const float height = v.height[i];
    for_each_position_near(agent_grid.grid, {p.x, p.z}, range, [&](int k) {
      const glm::vec4 q = agent_grid.point[k];
      const glm::vec3 d = p - glm::vec3(q);
      const float d_sq = d.x * d.x + d.z * d.z;
      if (d_sq > range_sq || fabsf(d.y) >= (height + q.w) / 2.0f)
        return;
      const std::int32_t j = agent_grid.grid.items[k];
      if (j == i)
        return;
      n = insert_nearest(d_sq, j, dist, ids, n, k_max, truncated,
                         [&](std::int32_t row) { return agent_of_row(v, row); });
    });
  }
  v.neighbor_count[i] = n;
  v.status[i] = static_cast<std::uint8_t>((v.status[i] & ~kNeighborsTruncated) |
                                          (truncated ? kNeighborsTruncated : 0));
}

/// Collects agent i's colliders for the time-to-collision model (cuda/kernels/ttc_avoidance.h)
/// when its list is due: the agents within its collector_radius (x/z) and collector_half_height
/// above or below, the max_neighbors nearest (ties to the lower id), into its collider_index
/// row; due on its first step on the model, then every collector_frames_between_updates steps.
/// Agents on another model keep no list.
CROWD_HD void collect_colliders(int i, const AgentView& v, const AgentGridView& agent_grid) {
  TtcState& state = v.ttc_state[i];
  const AvoidanceParams& params = v.avoidance_params[v.avoidance_set[i]];
  if (!kernels_move(v.mode[i]) || params.model != kAvoidanceTtc) {
    state.collider_count = 0;
    state.frames_to_refresh = 0;
    return;
  }
  if (state.frames_to_refresh > 0) {
    --state.frames_to_refresh;
    return;
  }
  const TtcAvoidanceParams& p = params.ttc;
  std::int32_t* ids = v.collider_index + static_cast<long long>(i) * v.max_neighbors;
  const glm::vec3 centre = v.position[i];
  const float range_sq = p.collector_radius * p.collector_radius;
  const auto distance_sq = [&](const glm::vec3& q) {
    return (q.x - centre.x) * (q.x - centre.x) + (q.z - centre.z) * (q.z - centre.z);
  };
  int n = 0;
  for_each_position_near(agent_grid.grid, {centre.x, centre.z}, p.collector_radius, [&](int k) {
    const glm::vec4 q = agent_grid.point[k];
    const float d_sq = distance_sq(glm::vec3(q));
    if (d_sq > range_sq || fabsf(q.y - centre.y) > p.collector_half_height)
      return;
    const std::int32_t j = agent_grid.grid.items[k];
    if (j == i)
      return;
    // insert_nearest's order, the keys of the kept entries recomputed from their positions
    // (the row has no room for them).
    int at = n;
    while (at > 0) {
      const std::int32_t before = ids[at - 1];
      const float before_sq = distance_sq(v.position[before]);
      if (before_sq < d_sq || (before_sq == d_sq && agent_of_row(v, before) < agent_of_row(v, j)))
        break;
      --at;
    }
    if (at >= v.max_neighbors)
      return;
    const int last = n < v.max_neighbors ? n : v.max_neighbors - 1;
    for (int m = last; m > at; --m)
      ids[m] = ids[m - 1];
    ids[at] = j;
    n = n < v.max_neighbors ? n + 1 : v.max_neighbors;
  });
  state.collider_count = n;
  state.frames_to_refresh = p.collector_frames_between_updates - 1;
}

/// Finds agent `i`'s wall segments: within range, at its height, facing it, nearest first.
/// `scratch_distance` is [max_segments] floats and `scratch_ids` [max_segments] ints.
CROWD_HD void find_wall_segments(int i, const AgentView& v, const WallGridView& walls,
                                 float* scratch_distance, std::int32_t* scratch_ids) {
  int n = 0;
  bool truncated = false;
  const int s_max = v.max_segments;
  if (kernels_move(v.mode[i]) && s_max > 0) {
    const glm::vec3 p = v.position[i];
    const glm::vec2 pg{p.x, p.z};
    const float range = v.query_range[i];
    const float range_sq = range * range;
    const float height = v.height[i];
    for_each_segment_listing_near(walls, pg, range, [&](int k) {
      const WallListing& l = walls.listing[k];
      // Walls of another floor are not obstacles here.
      if (fabsf(l.mid_y - p.y) >= height)
        return;
      const glm::vec2 a{l.ends.x, l.ends.y};
      const glm::vec2 b{l.ends.z, l.ends.w};
      // Segments facing away from the agent (dtCrowd::update, velocity planning).
      if (tri_area_2d(pg, a, b) < 0.0f)
        return;
      float t = 0.0f;
      const float d_sq = distance_point_segment_sqr_2d(pg, a, b, t);
      if (d_sq > range_sq)
        return;
      n = insert_nearest(d_sq, walls.grid.items[k], scratch_distance, scratch_ids, n, s_max,
                         truncated);
    });
  }
  glm::vec4* out = v.segment + static_cast<long long>(i) * s_max;
  for (int k = 0; k < n; ++k) {
    const glm::vec3 a = walls.p[scratch_ids[k]];
    const glm::vec3 b = walls.q[scratch_ids[k]];
    out[k] = {a.x, a.z, b.x, b.z};
  }
  v.segment_count[i] = n;
  v.status[i] = static_cast<std::uint8_t>((v.status[i] & ~kSegmentsTruncated) |
                                          (truncated ? kSegmentsTruncated : 0));
}

} // namespace crowd

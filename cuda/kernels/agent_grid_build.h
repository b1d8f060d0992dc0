// Builds the agent grid with Thrust, one piece of code for both executors: the execution
// policy decides where it runs (thrust::cuda::par_nosync on a stream, or thrust::cpp::par on
// the host). Inactive agents get the key one past the last cell, so they sort to the end and
// no cell range contains them. Once sorted, each item's agent_grid_point is copied into sorted
// order next to it (cuda/kernels/agent_grid.h).
#pragma once

#include "cuda/kernels/agent_grid.h"
#include "cuda/kernels/agent_view.h"

#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

namespace crowd {

struct AgentCellKey {
  GridSpec spec;
  const glm::vec3* position;
  const std::uint8_t* mode;
  CROWD_HD std::int32_t operator()(std::int32_t agent) const {
    if (mode[agent] == kAgentInactive)
      return spec.cell_count();
    return spec.key(spec.cell_of({position[agent].x, position[agent].z}));
  }
};

/// (cell key, agent id) of one agent: the sort's key and item, written in one pass.
struct AgentKeyAndItem {
  AgentCellKey key;
  CROWD_HD thrust::tuple<std::int32_t, std::int32_t> operator()(std::int32_t agent) const {
    return thrust::make_tuple(key(agent), agent);
  }
};

struct AgentGridPoint {
  const glm::vec3* position;
  const float* height;
  CROWD_HD glm::vec4 operator()(std::int32_t agent) const {
    return agent_grid_point(position[agent], height[agent]);
  }
};

/// keys [count] scratch; items [count] receives agent ids sorted by cell (ascending ids within
/// a cell: the sort is stable); point [count] receives agent_grid_point of items[k];
/// cell_start [cell_count + 2].
template <class Policy>
void build_agent_grid(Policy&& policy, const GridSpec& spec, const AgentView& agents,
                      std::int32_t* keys, std::int32_t* items, glm::vec4* point,
                      std::int32_t* cell_start) {
  const int n = agents.count;
  // Keys and items in one launch on the GPU (a tabulate and a sequence were two).
  thrust::transform(policy, thrust::counting_iterator<std::int32_t>(0),
                    thrust::counting_iterator<std::int32_t>(n),
                    thrust::make_zip_iterator(thrust::make_tuple(keys, items)),
                    AgentKeyAndItem{{spec, agents.position, agents.mode}});
  thrust::stable_sort_by_key(policy, keys, keys + n, items);
  thrust::transform(policy, items, items + n, point,
                    AgentGridPoint{agents.position, agents.height});
  // cell_start[c] = first sorted position whose key >= c, for c in [0, cell_count + 1].
  thrust::lower_bound(policy, keys, keys + n, thrust::counting_iterator<std::int32_t>(0),
                      thrust::counting_iterator<std::int32_t>(spec.cell_count() + 2), cell_start);
}

} // namespace crowd

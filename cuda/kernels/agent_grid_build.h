// Builds the agent grid with Thrust, one piece of code for both executors: the execution
// policy decides where it runs (thrust::cuda::par_nosync on a stream, or thrust::cpp::par on
// the host). Inactive agents get the key one past the last cell, so they sort to the end and
// no cell range contains them.
#pragma once

#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/uniform_grid.h"

#include <thrust/binary_search.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

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

/// keys [count] scratch; items [count] receives agent ids sorted by cell (ascending ids within
/// a cell: the sort is stable); cell_start [cell_count + 2].
template <class Policy>
void build_agent_grid(Policy&& policy, const GridSpec& spec, const AgentView& agents,
                      std::int32_t* keys, std::int32_t* items, std::int32_t* cell_start) {
  const int n = agents.count;
  thrust::tabulate(policy, keys, keys + n, AgentCellKey{spec, agents.position, agents.mode});
  thrust::sequence(policy, items, items + n);
  thrust::stable_sort_by_key(policy, keys, keys + n, items);
  // cell_start[c] = first sorted position whose key >= c, for c in [0, cell_count + 1].
  thrust::lower_bound(policy, keys, keys + n, thrust::counting_iterator<std::int32_t>(0),
                      thrust::counting_iterator<std::int32_t>(spec.cell_count() + 2), cell_start);
}

} // namespace crowd

// Orders of the agent arrays' rows for the tests that move them (AgentArrays::reorder_rows):
// a random one, and back to id order to compare with a run that never moved them.
#pragma once

#include "cuda/core/agent_arrays.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace crowd::test {

/// A random order of the rows of `arrays`.
inline std::vector<std::int32_t> shuffled_rows(const AgentArrays& arrays, std::mt19937& rng) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(arrays.count()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

/// `arrays` with every agent back in the row of its id.
inline AgentArrays in_id_order(AgentArrays arrays) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(arrays.count()));
  for (int row = 0; row < arrays.count(); ++row)
    order[static_cast<std::size_t>(arrays.id_of(row))] = row;
  arrays.reorder_rows(order);
  return arrays;
}

} // namespace crowd::test

// A frame's text formatted on the workers, in agent order: each agent's row depends on that agent
// alone, so fixed chunks of agents are formatted apart and joined in order, the same bytes as
// one loop on one thread whatever the thread count.
#pragma once

#include "cuda/core/parallel_agents.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace crowd {

/// Agents [0, count)'s rows: format_row(out, i) appends agent i's row (or nothing) to `out`.
/// Chunks of kOrderedRowsChunk agents are formatted on the workers of the calling arena (the
/// command's --threads), then joined: a trajectory frame of 64,000 agents took a writer about 13
/// ms on one thread, and grows with the crowd (README, "Across processes").
inline constexpr int kOrderedRowsChunk = 2048;

template <class FormatRow> std::string ordered_rows(std::size_t count, FormatRow&& format_row) {
  const auto chunks = static_cast<int>((count + kOrderedRowsChunk - 1) / kOrderedRowsChunk);
  std::vector<std::string> parts(static_cast<std::size_t>(chunks));
  parallel_for_each_agent(chunks, 1, [&](int c) {
    const std::size_t begin = static_cast<std::size_t>(c) * kOrderedRowsChunk;
    const std::size_t end = std::min(count, begin + kOrderedRowsChunk);
    std::string& out = parts[static_cast<std::size_t>(c)];
    for (std::size_t i = begin; i < end; ++i)
      format_row(out, i);
  });
  std::size_t bytes = 0;
  for (const std::string& part : parts)
    bytes += part.size();
  std::string joined;
  joined.reserve(bytes);
  for (const std::string& part : parts)
    joined += part;
  return joined;
}

} // namespace crowd

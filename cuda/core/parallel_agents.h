// f(i) for every agent index in [0, count), spread over the workers of the calling task arena
// in chunks of at least `grain` agents: how the CPU runs a kernel body that handles one agent
// per thread on the GPU. The bodies touch only their own agent's rows (or read others'), so
// the result does not depend on the chunking or the number of workers.
#pragma once

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

namespace crowd {

/// f(begin, end) for chunks of agents covering [0, count): for bodies that gather per chunk
/// what would cost a worker-local lookup per agent.
template <class F> void parallel_for_each_chunk(int count, int grain, F&& f) {
  tbb::parallel_for(tbb::blocked_range<int>(0, count, grain),
                    [&](const tbb::blocked_range<int>& r) { f(r.begin(), r.end()); });
}

template <class F> void parallel_for_each_agent(int count, int grain, F&& f) {
  parallel_for_each_chunk(count, grain, [&](int begin, int end) {
    for (int i = begin; i < end; ++i)
      f(i);
  });
}

} // namespace crowd

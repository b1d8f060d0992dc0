#include "host/cli/thread_limit.h"

#include <algorithm>
#include <cstddef>
#include <oneapi/tbb/info.h>
#include <thread>

namespace crowd {

int share_of_cores(int ranks_on_machine) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int share = cores / std::max(1, ranks_on_machine);
  return std::max(1, std::min(share, tbb::info::default_concurrency()));
}

ThreadLimit::ThreadLimit(int threads) {
  if (threads > 0)
    control_.emplace(tbb::global_control::max_allowed_parallelism,
                     static_cast<std::size_t>(threads));
}

} // namespace crowd

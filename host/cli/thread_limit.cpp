#include "host/cli/thread_limit.h"

#include <cstddef>

namespace crowd {

ThreadLimit::ThreadLimit(int threads) {
  if (threads > 0)
    control_.emplace(tbb::global_control::max_allowed_parallelism,
                     static_cast<std::size_t>(threads));
}

} // namespace crowd

#include "host/output/ordered_rows.h"

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <string>

namespace crowd {
namespace {

// Agent i's row names it; every third agent has none (an agent not shown).
void row_of(std::string& out, std::size_t i) {
  if (i % 3 == 2)
    return;
  out += std::to_string(i);
  out += '\n';
}

TEST(OrderedRows, AreTheRowsOfOneLoopInAgentOrderForAnyThreadCount) {
  // Counts around the chunk's edges: none, a part of one chunk, exactly one, one agent more.
  for (const std::size_t count :
       {std::size_t{0}, std::size_t{1}, std::size_t{kOrderedRowsChunk - 1},
        std::size_t{kOrderedRowsChunk}, std::size_t{kOrderedRowsChunk + 1},
        std::size_t{5 * kOrderedRowsChunk + 17}}) {
    std::string one_loop;
    for (std::size_t i = 0; i < count; ++i)
      row_of(one_loop, i);
    for (const int threads : {1, 4}) {
      tbb::task_arena arena(threads);
      std::string rows;
      arena.execute([&] { rows = ordered_rows(count, row_of); });
      EXPECT_EQ(rows, one_loop) << count << " agents on " << threads << " threads";
    }
  }
}

} // namespace
} // namespace crowd

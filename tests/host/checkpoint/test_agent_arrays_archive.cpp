// The agent arrays in a checkpoint (host/checkpoint/agent_arrays_archive.h): every column comes
// back as saved, and a checkpoint whose column is not as long as its agents' rows is refused
// with one CheckpointError, whichever column it is (the kernels would read past it).
#include "host/checkpoint/agent_arrays_archive.h"
#include "host/checkpoint/archive.h"
#include "tests/support/executor_stages.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

namespace crowd {
namespace {

/// Three agents with neighbours, a collider and a standoff partner, mid-run.
AgentArrays three_agents() {
  AgentArrays arrays;
  arrays.max_neighbors = 2;
  const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
  for (int i = 0; i < 3; ++i)
    arrays.append({static_cast<float>(i), 0.0f, 0.5f}, 0.3f + 0.1f * static_cast<float>(i), 2.0f,
                  8.0f, 3.6f, 2.0f, set);
  arrays.velocity[1] = {0.5f, -1.25f};
  arrays.neighbor_index[0] = 2;
  arrays.neighbor_count[0] = 1;
  arrays.neighbor_distance_sq[0] = 4.0f;
  arrays.collider_index[2 * 2] = 0;
  arrays.ttc_state[2].collider_count = 1;
  arrays.standoff_partner[1] = 2;
  return arrays;
}

/// `arrays` saved and restored into fresh ones; throws CheckpointError as the restore does.
AgentArrays round_trip(const AgentArrays& arrays) {
  ArchiveWriter out;
  save_agent_arrays(out, arrays);
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "test.ckpt");
  AgentArrays restored;
  restore_agent_arrays(in, restored);
  return restored;
}

TEST(AgentArraysArchive, RestoresEveryColumnAsSaved) {
  const AgentArrays saved = three_agents();
  const AgentArrays restored = round_trip(saved);
  EXPECT_TRUE(test::bit_identical(saved, restored));
  EXPECT_EQ(restored.radius, saved.radius);
  EXPECT_EQ(restored.avoidance_params, saved.avoidance_params);
}

TEST(AgentArraysArchive, RefusesAnyColumnShorterThanItsRows) {
  int columns = 0;
  three_agents().for_each_column([&](const auto&, int) { ++columns; });
  ASSERT_GT(columns, 20);
  for (int shortened = 0; shortened < columns; ++shortened) {
    AgentArrays arrays = three_agents();
    int column = 0;
    arrays.for_each_column([&](auto& values, int) {
      if (column++ == shortened)
        values.pop_back();
    });
    try {
      round_trip(arrays);
      ADD_FAILURE() << "column " << shortened << " one short was restored";
    } catch (const CheckpointError& error) {
      EXPECT_NE(std::string(error.what()).find("test.ckpt: damaged: "), std::string::npos)
          << error.what();
    }
  }
}

TEST(AgentArraysArchive, RowsThatAreNotTheirAgentsIdsAreNotSaved) {
  AgentArrays arrays = three_agents();
  arrays.reorder_rows({2, 0, 1});
  ArchiveWriter out;
  EXPECT_THROW(save_agent_arrays(out, arrays), std::logic_error);
}

} // namespace
} // namespace crowd

// The kernel stages' per-agent arrays (cuda/core/agent_arrays.h): room reserved for a run's
// agents is all that adding them takes, in every column and corridor row.
#include "cuda/core/agent_arrays.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(AgentArrays, AddingTheAgentsReservedForGrowsNoColumn) {
  AgentArrays arrays;
  arrays.corridors.capacity = 32;
  arrays.corridors.corner_capacity = 4;
  const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
  constexpr int kAgents = 777; // no power of two: a column grown by doubling holds more
  arrays.reserve(kAgents);
  const std::size_t reserved = arrays.memory_bytes();
  for (int i = 0; i < kAgents; ++i) {
    const glm::vec3 at{static_cast<float>(i), 0.0f, 0.0f};
    arrays.append(at, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, set);
    arrays.corridors.append(at);
  }
  ASSERT_EQ(arrays.count(), kAgents);
  ASSERT_EQ(arrays.corridors.count(), kAgents);
  EXPECT_EQ(arrays.memory_bytes(), reserved);

  // One more than reserved grows them, as before.
  arrays.append({0.0f, 0.0f, 1.0f}, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, set);
  EXPECT_GT(arrays.memory_bytes(), reserved);
}

} // namespace
} // namespace crowd

// The out-of-device-memory arithmetic and message of the CUDA executor. Plain C++: runs on
// every machine, GPU or not.
#include "cuda/executor/device_memory_budget.h"

#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;

DeviceMemoryBudget budget_of(std::size_t free_bytes, std::size_t held, std::size_t fixed,
                             std::size_t per_agent) {
  DeviceMemoryBudget budget;
  budget.free_bytes = free_bytes;
  budget.total_bytes = 4096 * kMiB;
  budget.held_bytes = held;
  budget.fixed_bytes = fixed;
  budget.bytes_per_agent = per_agent;
  return budget;
}

TEST(DeviceMemoryBudget, CountsFreeAndHeldMemoryLessTheFixedPart) {
  // 1000 free + 200 held - 100 fixed = 1100 bytes for agents of 11 bytes.
  EXPECT_EQ(agents_that_fit(budget_of(1000, 200, 100, 11)), 100u);
  // Rounds down: a partial agent does not fit.
  EXPECT_EQ(agents_that_fit(budget_of(1000, 200, 100, 12)), 91u);
}

TEST(DeviceMemoryBudget, NoAgentFitsWhenTheFixedPartTakesEverything) {
  EXPECT_EQ(agents_that_fit(budget_of(50, 50, 100, 8)), 0u);
  EXPECT_EQ(agents_that_fit(budget_of(50, 40, 100, 8)), 0u);
}

TEST(DeviceMemoryBudget, UnknownWithoutFreeMemoryOrBytesPerAgent) {
  EXPECT_FALSE(agents_that_fit(budget_of(1000, 0, 0, 0)));
  DeviceMemoryBudget no_info = budget_of(1000, 0, 0, 8);
  no_info.free_bytes.reset();
  no_info.total_bytes.reset();
  EXPECT_FALSE(agents_that_fit(no_info));
}

TEST(DeviceMemoryBudget, MessageIsOneLineWithRequestFreeTotalAndAgentsThatFit) {
  const DeviceMemoryBudget budget = budget_of(10 * kMiB, 2 * kMiB, kMiB, 256);
  const std::string message =
      out_of_device_memory_message("cudaMalloc of position for 5000 agents", 123456,
                                   "cudaErrorMemoryAllocation (out of memory)", budget);
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("cudaMalloc of position for 5000 agents requested 123456 bytes"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("cudaErrorMemoryAllocation"), std::string::npos) << message;
  EXPECT_NE(message.find("10.0 MiB free of 4096.0 MiB"), std::string::npos) << message;
  // (10 + 2 - 1) MiB / 256 B = 45056 agents.
  EXPECT_NE(message.find("256 bytes per agent"), std::string::npos) << message;
  EXPECT_NE(message.find("about 45056 agents fit on this device"), std::string::npos) << message;
}

TEST(DeviceMemoryBudget, MessageSaysWhenFreeMemoryIsUnknown) {
  DeviceMemoryBudget budget = budget_of(0, 0, 0, 256);
  budget.free_bytes.reset();
  budget.total_bytes.reset();
  const std::string message = out_of_device_memory_message("cudaMalloc of the wall grid", 64,
                                                           "cudaErrorMemoryAllocation", budget);
  EXPECT_NE(message.find("free memory is unknown"), std::string::npos) << message;
  EXPECT_EQ(message.find("agents fit"), std::string::npos) << message;
}

} // namespace
} // namespace crowd

// The CUDA executor against the CPU executor over whole steps of a random crowd, and its
// behaviour on a machine without a device. The comparisons need a device (a GPU, or GPGPU-Sim
// in CI: bash .ci/gpu-sim) and skip themselves without one; the "no device" test runs exactly
// there. Stage by stage comparisons are in test_cuda_kernels.cpp.
#include <gtest/gtest.h>

#if defined(CROWD_HAS_CUDA)

#include "cuda/core/executor.h"
#include "tests/support/cuda_device.h"
#include "tests/support/executor_stages.h"
#include "tests/support/random_crowd.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::kNoCudaDevice;
using test::RandomCrowd;

/// Runs `steps` steps of the same crowd on both executors and compares every array after
/// every step, bit for bit: the two executors run the same float operations in the same order
/// (cuda_executor.cu, "Agreement with the CPU"). Halfway, agents are added (the device mirror
/// grows) and a few removed (a layout change). On a difference, the step is run again phase by
/// phase to name the first stage and array that part.
void expect_executors_agree(int agent_count, int big_pattern_every, int steps,
                            int force_model_every = 0, int orca_every = 0, int ttc_every = 0) {
  std::mt19937 rng(20240611u);
  RandomCrowd cpu_crowd;
  test::add_random_agents(cpu_crowd, agent_count, rng, big_pattern_every, force_model_every,
                          orca_every, ttc_every);
  const std::mt19937 rng_after_setup = rng;
  RandomCrowd gpu_crowd = cpu_crowd;

  const WallGridData walls = test::random_crowd_walls();
  auto cpu = make_cpu_executor(1);
  auto gpu = make_cuda_executor();
  cpu->set_walls(walls);
  gpu->set_walls(walls);

  for (int step = 0; step < steps; ++step) {
    if (step == steps / 2) {
      // The same additions on both sides (same random stream), then removals.
      std::mt19937 rng_cpu = rng_after_setup;
      std::mt19937 rng_gpu = rng_after_setup;
      test::add_random_agents(cpu_crowd, agent_count / 10, rng_cpu, big_pattern_every,
                              force_model_every, orca_every, ttc_every);
      test::add_random_agents(gpu_crowd, agent_count / 10, rng_gpu, big_pattern_every,
                              force_model_every, orca_every, ttc_every);
      for (int id = 1; id < agent_count; id += agent_count / 5) {
        test::remove_random_agent(cpu_crowd, id);
        test::remove_random_agent(gpu_crowd, id);
      }
    }
    test::plan_random_crowd(cpu_crowd);
    test::plan_random_crowd(gpu_crowd);
    const AgentArrays inputs = cpu_crowd.agents;
    StageTimes cpu_times, gpu_times;
    cpu->step(cpu_crowd.agents, cpu_crowd.params(), cpu_times);
    gpu->step(gpu_crowd.agents, gpu_crowd.params(), gpu_times);
    gpu->read_back_everything(); // the rows a step does not download, for the comparison

    const ::testing::AssertionResult same = test::bit_identical(cpu_crowd.agents, gpu_crowd.agents);
    if (!same) {
      ADD_FAILURE() << "step " << step << ": the executors differ" << same.message() << "\n"
                    << test::first_divergent_phase(*cpu, *gpu, inputs, cpu_crowd.params());
      return;
    }

    std::vector<std::string> stages;
    for (const auto& [name, ms] : gpu_times.entries()) {
      stages.push_back(name);
      EXPECT_GE(ms, 0.0) << name;
    }
    EXPECT_EQ(stages, std::vector<std::string>(kKernelStageNames.begin(), kKernelStageNames.end()));
  }
  EXPECT_GT(gpu->device_memory_bytes(), 0u);
  // The comparison means something only if agents met each other and the walls.
  const AgentArrays& c = cpu_crowd.agents;
  EXPECT_GT(std::count_if(c.neighbor_count.begin(), c.neighbor_count.end(),
                          [](std::int32_t k) { return k > 0; }),
            agent_count / 4);
  EXPECT_GT(std::count_if(c.segment_count.begin(), c.segment_count.end(),
                          [](std::int32_t k) { return k > 0; }),
            agent_count / 20);
}

TEST(CudaExecutor, MakeThrowsAClearErrorWhenThereIsNoDevice) {
  if (cuda_device_count() > 0)
    GTEST_SKIP() << "a CUDA device is present (" << cuda_device_name() << ")";
  try {
    auto executor = make_cuda_executor();
    FAIL() << "make_cuda_executor() returned an executor without a device";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("no CUDA device found: ", 0), 0u) << message;
    EXPECT_GT(message.size(), std::string("no CUDA device found: ").size()) << message;
  }
}

TEST(CudaExecutor, MatchesTheCpuExecutorBitForBitOnARandomSceneWithWalls) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // Under the simulator, 150 agents over 12 steps meet as often per agent as 300 over 20.
  expect_executors_agree(test::size_for_device(300, 150), 0, test::size_for_device(20, 12));
}

TEST(CudaExecutor, MatchesTheCpuExecutorBitForBitWithTheForceModel) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // Every 3rd agent avoids by the force model (one thread of its block), among sampling ones.
  expect_executors_agree(test::size_for_device(300, 150), 0, test::size_for_device(20, 12), 3);
}

TEST(CudaExecutor, MatchesTheCpuExecutorBitForBitWithOrca) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // Every 3rd agent avoids by ORCA (one thread of its block, its half-planes in shared memory),
  // every 4th other by the force model, among sampling ones.
  expect_executors_agree(test::size_for_device(300, 150), 0, test::size_for_device(20, 12), 4, 3);
}

TEST(CudaExecutor, MatchesTheCpuExecutorBitForBitWithTimeToCollisionSampling) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // Every 2nd agent samples by time to collision (its fan one thread per sample, its smoothing
  // through shared memory, its colliders collected by the proximity kernel every 4 steps, its
  // clocks), among ORCA, force-model and sampling ones; removals leave stale colliders.
  expect_executors_agree(test::size_for_device(300, 150), 0, test::size_for_device(24, 12), 5, 3,
                         2);
}

TEST(CudaExecutor, MatchesTheCpuExecutorBitForBitWithTheLargestSamplingPattern) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // Every 7th agent samples 32 divs x 4 rings + 1 = 129 velocities: 160-thread blocks,
  // several samples' worth of idle threads, the strided loop of the block interface.
  expect_executors_agree(test::size_for_device(200, 100), 7, test::size_for_device(20, 10));
}

TEST(CudaExecutor, StepsAnEmptyCrowd) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  auto gpu = make_cuda_executor();
  gpu->set_walls(test::random_crowd_walls());
  AgentArrays agents;
  KernelStepParams params;
  StageTimes times;
  EXPECT_NO_THROW(gpu->step(agents, params, times));
}

TEST(CudaExecutor, ReportsNeighbourTruncationLikeTheCpu) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  // 20 agents in a 2 m square, K = 2: every agent has more neighbours than it keeps.
  std::mt19937 rng(7u);
  std::uniform_real_distribution<float> place(19.0f, 21.0f);
  RandomCrowd crowd;
  crowd.agents.max_neighbors = 2;
  for (int k = 0; k < 20; ++k) {
    crowd.agents.append({place(rng), 0.0f, place(rng)}, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f,
                        crowd.agents.avoidance_set_of(AvoidanceParams{}));
    crowd.goals.emplace_back(place(rng), place(rng));
  }
  crowd.max_query_range = 3.6f;
  test::plan_random_crowd(crowd);
  auto gpu = make_cuda_executor();
  gpu->set_walls(test::random_crowd_walls());
  StageTimes times;
  gpu->step(crowd.agents, crowd.params(), times);
  gpu->read_back_everything(); // a step downloads the status bits, not the counts
  for (std::size_t i = 0; i < crowd.agents.status.size(); ++i) {
    EXPECT_EQ(crowd.agents.neighbor_count[i], 2) << i;
    EXPECT_TRUE(crowd.agents.status[i] & kNeighborsTruncated) << i;
  }
}

// A step downloads positions, velocities, status and standoff timers only; the debug view asks
// for one agent's rows, and for the neighbour counts and desired and chosen velocities, when it
// shows that agent, and gets what the kernels found (the CPU's, to the bit).
TEST(CudaExecutor, ReadsBackWhatTheDebugViewShowsWhenItAsks) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoCudaDevice;
  RandomCrowd crowd =
      test::random_crowd_in_motion(test::size_for_device(300, 60), 11u, /*big_pattern_every=*/0,
                                   /*warmup_steps=*/3);
  AgentArrays on_cpu = crowd.agents;
  AgentArrays on_gpu = crowd.agents;
  // Rows nobody wrote: only a read-back can make them the kernels' rows.
  std::fill(on_gpu.neighbor_index.begin(), on_gpu.neighbor_index.end(), -7);
  std::fill(on_gpu.segment.begin(), on_gpu.segment.end(), glm::vec4(-7.0f));
  // Steering writes every agent's desired velocity; new_velocity keeps its pre-step value on
  // the host until the read-back (inactive agents keep theirs through the step).
  std::fill(on_gpu.desired_velocity.begin(), on_gpu.desired_velocity.end(), glm::vec2(-7.0f));
  const WallGridData walls = test::random_crowd_walls(); // the CPU executor keeps a view
  auto cpu = make_cpu_executor(1);
  auto gpu = make_cuda_executor();
  cpu->set_walls(walls);
  gpu->set_walls(walls);
  StageTimes times;
  cpu->step(on_cpu, crowd.params(), times);
  gpu->step(on_gpu, crowd.params(), times);
  EXPECT_EQ(on_gpu.desired_velocity[0], glm::vec2(-7.0f)) << "not downloaded by a step";
  EXPECT_NE(on_gpu.new_velocity, on_cpu.new_velocity) << "not downloaded by a step";
  EXPECT_EQ(on_gpu.position, on_cpu.position);
  EXPECT_EQ(on_gpu.velocity, on_cpu.velocity);
  EXPECT_EQ(on_gpu.status, on_cpu.status);
  const auto k = static_cast<std::size_t>(on_cpu.max_neighbors);
  const auto s = static_cast<std::size_t>(on_cpu.max_segments);
  int with_rows = 0;
  for (int agent = 0; agent < on_cpu.count(); agent += 7) {
    const auto i = static_cast<std::size_t>(agent);
    gpu->read_back_for_inspection(agent);
    ASSERT_EQ(on_gpu.neighbor_count[i], on_cpu.neighbor_count[i]) << agent;
    EXPECT_EQ(on_gpu.desired_velocity[i], on_cpu.desired_velocity[i]) << agent;
    EXPECT_EQ(on_gpu.new_velocity[i], on_cpu.new_velocity[i]) << agent;
    ASSERT_EQ(on_gpu.segment_count[i], on_cpu.segment_count[i]) << agent;
    for (std::size_t t = 0; t < static_cast<std::size_t>(on_cpu.neighbor_count[i]); ++t) {
      const std::int32_t j = on_cpu.neighbor_index[i * k + t];
      EXPECT_EQ(on_gpu.neighbor_index[i * k + t], j) << agent;
      EXPECT_EQ(on_gpu.desired_velocity[static_cast<std::size_t>(j)],
                on_cpu.desired_velocity[static_cast<std::size_t>(j)])
          << agent << "'s neighbour " << j;
    }
    for (std::size_t t = 0; t < static_cast<std::size_t>(on_cpu.segment_count[i]); ++t)
      EXPECT_EQ(on_gpu.segment[i * s + t], on_cpu.segment[i * s + t]) << agent;
    with_rows += on_cpu.neighbor_count[i] > 0 && on_cpu.segment_count[i] > 0;
  }
  EXPECT_GT(with_rows, 0) << "the crowd is dense enough to have neighbours and walls";
}

} // namespace
} // namespace crowd

#else // !CROWD_HAS_CUDA

TEST(CudaExecutor, NotBuilt) {
  GTEST_SKIP() << "this build has no CUDA backend (nvcc not found): the CUDA executor is not "
                  "compiled";
}

#endif

// Each kernel stage alone on both executors: the same arrays, prepared on the host, go to the
// CPU and the CUDA executor in full (StepInputs::Everything); one phase runs; every array comes
// back and must be equal bit for bit (the executors run the same float operations in the same
// order: cuda/executor/cuda_executor.cu, "Agreement with the CPU"). Needs a device (a GPU, or
// GPGPU-Sim in CI: bash .ci/gpu-sim); skips without one.
#include <gtest/gtest.h>

#if defined(CROWD_HAS_CUDA)

#include "cuda/core/executor.h"
#include "tests/support/cuda_device.h"
#include "tests/support/executor_stages.h"
#include "tests/support/random_crowd.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::StepPhase;

/// A crowd in motion (after CPU warm-up steps), the same for every test of this file: its
/// velocities, neighbour rows and contacts are those of a real step's inputs. Every 7th agent
/// samples the largest pattern, every 10th is inactive, every 3rd stands.
const test::RandomCrowd& prepared_crowd() {
  static const test::RandomCrowd crowd =
      test::random_crowd_in_motion(test::size_for_device(400, 160), 7321u, 7, 8);
  return crowd;
}

/// Both executors, with the crowd's walls.
struct ExecutorPair {
  WallGridData walls = test::random_crowd_walls(); // the CPU executor keeps a view of it
  std::unique_ptr<Executor> cpu = make_cpu_executor(1);
  std::unique_ptr<Executor> gpu = make_cuda_executor();
  ExecutorPair() {
    cpu->set_walls(walls);
    gpu->set_walls(walls);
  }
};

/// An array of AgentArrays, for naming what a phase must change.
template <class T> using ArrayOf = std::vector<T> AgentArrays::*;

/// Gives `inputs` in full to both executors, runs `before` then `phase` on both, reads every
/// array back and expects them bit-identical; expects the phase to have changed `changed` on
/// the CPU, so that the comparison is not vacuous. Returns the CPU's arrays.
template <class T>
AgentArrays expect_phase_bit_identical(const AgentArrays& inputs, const KernelStepParams& params,
                                       const std::vector<StepPhase>& before, StepPhase phase,
                                       ArrayOf<T> changed) {
  ExecutorPair executors;
  AgentArrays cpu_arrays = inputs;
  AgentArrays gpu_arrays = inputs;
  executors.cpu->begin_step(cpu_arrays, params, StepInputs::Everything);
  executors.gpu->begin_step(gpu_arrays, params, StepInputs::Everything);
  for (const StepPhase& p : before) {
    test::run_phase(*executors.cpu, p);
    test::run_phase(*executors.gpu, p);
  }
  test::run_phase(*executors.cpu, phase);
  test::run_phase(*executors.gpu, phase);
  executors.cpu->read_back_everything();
  executors.gpu->read_back_everything();
  EXPECT_TRUE(test::bit_identical(cpu_arrays, gpu_arrays)) << "after " << test::phase_name(phase);
  EXPECT_NE(inputs.*changed, cpu_arrays.*changed)
      << test::phase_name(phase) << " changed nothing it should: the comparison is vacuous";
  return cpu_arrays;
}

class CudaKernels : public ::testing::Test {
protected:
  void SetUp() override {
    if (cuda_device_count() == 0)
      GTEST_SKIP() << test::kNoCudaDevice;
  }
  static const AgentArrays& inputs() { return prepared_crowd().agents; }
  static KernelStepParams params() { return prepared_crowd().params(); }
};

TEST_F(CudaKernels, AgentGridIsBitIdentical) {
  ExecutorPair executors;
  AgentArrays cpu_arrays = inputs();
  AgentArrays gpu_arrays = inputs();
  executors.cpu->begin_step(cpu_arrays, params(), StepInputs::Everything);
  executors.gpu->begin_step(gpu_arrays, params(), StepInputs::Everything);
  executors.cpu->build_grid();
  executors.gpu->build_grid();
  const AgentGridSnapshot cpu_grid = executors.cpu->agent_grid();
  const AgentGridSnapshot gpu_grid = executors.gpu->agent_grid();
  const std::vector<std::string> lines = test::differing_grids(cpu_grid, gpu_grid);
  EXPECT_TRUE(lines.empty()) << ::testing::PrintToString(lines);
  ASSERT_EQ(cpu_grid.items.size(), inputs().position.size());
  // Inactive agents sort to the end, past every cell.
  const auto inactive = std::count(inputs().mode.begin(), inputs().mode.end(), kAgentInactive);
  EXPECT_GT(inactive, 0);
  EXPECT_EQ(cpu_grid.cell_start.back() - cpu_grid.cell_start[cpu_grid.cell_start.size() - 2],
            inactive);
}

TEST_F(CudaKernels, ProximityRowsAreBitIdentical) {
  const AgentArrays out =
      expect_phase_bit_identical(inputs(), params(), {{KernelStage::Grid}},
                                 {KernelStage::Proximity}, &AgentArrays::neighbor_distance_sq);
  // Agents met each other and the walls, and some rows were cut at max_neighbors.
  EXPECT_GT(std::count_if(out.segment_count.begin(), out.segment_count.end(),
                          [](std::int32_t k) { return k > 0; }),
            0);
  EXPECT_GT(std::count_if(out.status.begin(), out.status.end(),
                          [](std::uint8_t s) { return (s & kNeighborsTruncated) != 0; }),
            0);
}

TEST_F(CudaKernels, SteeringWithSeparationIsBitIdentical) {
  expect_phase_bit_identical(inputs(), params(), {}, {KernelStage::Steering},
                             &AgentArrays::desired_velocity);
}

/// The standoff breaker in every state: half the walking agents stand still in a crowd squeezed
/// into the middle of the world (so many stand face to face), some about to start a manoeuvre,
/// some in one, some in a long meeting.
TEST_F(CudaKernels, SteeringThroughStandoffsIsBitIdentical) {
  AgentArrays crowd = inputs();
  const glm::vec2 centre = (test::kRandomCrowdMin + test::kRandomCrowdMax) * 0.5f;
  for (std::size_t i = 0; i < crowd.position.size(); ++i) {
    glm::vec3& p = crowd.position[i];
    p.x = centre.x + (p.x - centre.x) * 0.35f;
    p.z = centre.y + (p.z - centre.y) * 0.35f;
    if (i % 2 == 0)
      crowd.velocity[i] = glm::vec2(0.0f);
    crowd.standoff_clock[i].x = i % 5 == 1 ? 0.15f : (i % 5 == 2 ? -0.2f : 0.0f);
    // Some in a meeting that is about to pass its limit, with someone they may meet again.
    crowd.standoff_clock[i].y = i % 7 == 3 ? kStandoffMeetingLimit - 0.05f : 0.0f;
    crowd.standoff_partner[i] =
        i % 7 == 3 ? static_cast<std::int32_t>((i + 1) % crowd.position.size()) : -1;
  }
  const AgentArrays out =
      expect_phase_bit_identical(crowd, params(), {{KernelStage::Grid}, {KernelStage::Proximity}},
                                 {KernelStage::Steering}, &AgentArrays::standoff_clock);
  // Some agents found themselves blocked this step: their timers started or ran out.
  int newly_blocked = 0, started = 0;
  for (std::size_t i = 0; i < out.standoff_clock.size(); ++i) {
    newly_blocked += crowd.standoff_clock[i].x == 0.0f && out.standoff_clock[i].x > 0.0f ? 1 : 0;
    started += crowd.standoff_clock[i].x > 0.0f && out.standoff_clock[i].x < 0.0f ? 1 : 0;
  }
  EXPECT_GT(newly_blocked, 0);
  EXPECT_GT(started, 0);
}

TEST_F(CudaKernels, IntegrationIsBitIdentical) {
  expect_phase_bit_identical(inputs(), params(), {}, {KernelStage::Integrate},
                             &AgentArrays::position);
}

/// Pass after pass on both executors: the CPU skips agents whose neighbourhood did not move
/// in the pass before, the GPU computes every agent, and they must agree after every pass.
TEST_F(CudaKernels, EveryCollisionPassIsBitIdentical) {
  // The crowd squeezed into the middle third of the world, around the pillar: overlaps that
  // take every pass to resolve. Grid and proximity first, for the neighbour rows.
  AgentArrays squeezed = inputs();
  const glm::vec2 centre = (test::kRandomCrowdMin + test::kRandomCrowdMax) * 0.5f;
  for (glm::vec3& p : squeezed.position) {
    p.x = centre.x + (p.x - centre.x) * 0.35f;
    p.z = centre.y + (p.z - centre.y) * 0.35f;
  }
  ExecutorPair executors;
  AgentArrays cpu_arrays = squeezed;
  AgentArrays gpu_arrays = squeezed;
  executors.cpu->begin_step(cpu_arrays, params(), StepInputs::Everything);
  executors.gpu->begin_step(gpu_arrays, params(), StepInputs::Everything);
  for (Executor* executor : {executors.cpu.get(), executors.gpu.get()}) {
    executor->build_grid();
    executor->find_proximity();
  }
  int passes_that_moved = 0;
  for (int pass = 0; pass < params().collision_iterations; ++pass) {
    const std::vector<glm::vec3> before = cpu_arrays.position;
    executors.cpu->resolve_collisions(pass);
    executors.gpu->resolve_collisions(pass);
    executors.cpu->read_back_everything();
    executors.gpu->read_back_everything();
    ASSERT_TRUE(test::bit_identical(cpu_arrays, gpu_arrays)) << "after pass " << pass;
    passes_that_moved += before != cpu_arrays.position ? 1 : 0;
  }
  EXPECT_EQ(passes_that_moved, params().collision_iterations)
      << "the squeezed crowd should need every pass";
}

/// Avoidance with every agent on one parameter set.
class CudaKernelsAvoidance : public CudaKernels,
                             public ::testing::WithParamInterface<const char*> {};

AvoidanceParams avoidance_params_named(const std::string& name) {
  if (name == "low")
    return avoidance_preset(AvoidancePreset::Low);
  if (name == "medium")
    return avoidance_preset(AvoidancePreset::Medium);
  if (name == "good")
    return avoidance_preset(AvoidancePreset::Good);
  if (name == "high")
    return avoidance_preset(AvoidancePreset::High);
  AvoidanceParams even = avoidance_preset(AvoidancePreset::Good);
  if (name == "even_divs") {
    // An even div count takes the reference's one-slot-too-far branch of the pattern.
    even.adaptive_divs = 8;
    return even;
  }
  return test::largest_avoidance_pattern();
}

TEST_P(CudaKernelsAvoidance, ChosenVelocitiesAreBitIdentical) {
  AgentArrays arrays = inputs();
  arrays.avoidance_params.assign(1, avoidance_params_named(GetParam()));
  std::fill(arrays.avoidance_set.begin(), arrays.avoidance_set.end(), 0);
  ++arrays.layout_version;
  expect_phase_bit_identical(arrays, params(), {}, {KernelStage::Avoidance},
                             &AgentArrays::new_velocity);
}

INSTANTIATE_TEST_SUITE_P(CudaPresets, CudaKernelsAvoidance,
                         ::testing::Values("low", "medium", "good", "high", "even_divs",
                                           "largest"));

TEST_F(CudaKernels, AWholeStepIsBitIdenticalPhaseByPhase) {
  ExecutorPair executors;
  const std::string divergence =
      test::first_divergent_phase(*executors.cpu, *executors.gpu, inputs(), params());
  EXPECT_EQ(divergence, "");
}

} // namespace
} // namespace crowd

#else // !CROWD_HAS_CUDA

TEST(CudaKernels, NotBuilt) {
  GTEST_SKIP() << "this build has no CUDA backend (nvcc not found): the CUDA executor is not "
                  "compiled";
}

#endif

// The CUDA executor against the CPU executor on the same random scene, and its behaviour on a
// machine without a device. The comparisons need a GPU and skip themselves without one; the
// "no device" test runs exactly there.
#include <gtest/gtest.h>

#if defined(CROWD_HAS_CUDA)

#include "cuda/kernels/geometry.h"
#include "host/sim/executor.h"
#include "host/sim/wall_grid_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {
namespace {

constexpr const char* kNoDevice =
    "no CUDA device: the CUDA executor is compiled but cannot run here";

/// Device cosf/sinf (the sample pattern) differ from glibc's by an ulp or two, and nvcc fuses
/// multiply-adds unless built with --fmad=false: positions and velocities agree to this, not
/// bit for bit.
constexpr float kTolerance = 1e-3f;

constexpr glm::vec2 kWorldMin{0.0f, 0.0f};
constexpr glm::vec2 kWorldMax{40.0f, 40.0f};

/// A wall from a to b, oriented as the navmesh's boundary edges are: walkable space to the
/// left, i.e. tri_area_2d(walkable point, p, q) >= 0.
WallSegment wall(glm::vec2 a, glm::vec2 b, glm::vec2 walkable_point) {
  WallSegment s{{a.x, 0.0f, a.y}, {b.x, 0.0f, b.y}};
  if (tri_area_2d(walkable_point, a, b) < 0.0f)
    std::swap(s.p, s.q);
  return s;
}

/// The border of the world and a 4 x 4 m pillar in its middle, in a wall grid of 4 m cells.
WallGridData make_walls() {
  std::vector<WallSegment> segments;
  const glm::vec2 centre = (kWorldMin + kWorldMax) * 0.5f;
  const glm::vec2 corners[4] = {
      kWorldMin, {kWorldMax.x, kWorldMin.y}, kWorldMax, {kWorldMin.x, kWorldMax.y}};
  for (int k = 0; k < 4; ++k)
    segments.push_back(wall(corners[k], corners[(k + 1) % 4], centre));
  const glm::vec2 pillar[4] = {centre + glm::vec2(-2.0f, -2.0f), centre + glm::vec2(2.0f, -2.0f),
                               centre + glm::vec2(2.0f, 2.0f), centre + glm::vec2(-2.0f, 2.0f)};
  for (int k = 0; k < 4; ++k) {
    // Walkable outside the pillar: just beyond the middle of the edge.
    const glm::vec2 mid = (pillar[k] + pillar[(k + 1) % 4]) * 0.5f;
    segments.push_back(wall(pillar[k], pillar[(k + 1) % 4], mid + (mid - centre)));
  }
  return build_wall_grid(segments, kWorldMin, kWorldMax, 4.0f);
}

struct Scene {
  AgentArrays agents;
  std::vector<glm::vec2> goals; // [count]
  float max_query_range = 0.0f;
};

/// Adds `count` agents at random places of the world, with random sizes and goals; every
/// `big_pattern_every`-th agent (0 = none) gets the largest sampling pattern.
void add_random_agents(Scene& scene, int count, std::mt19937& rng, int big_pattern_every) {
  std::uniform_real_distribution<float> place(1.0f, 39.0f);
  std::uniform_real_distribution<float> radius(0.3f, 0.5f);
  std::uniform_real_distribution<float> separation(0.0f, 2.0f);
  AvoidanceParams big;
  big.adaptive_divs = kMaxPatternDivs;
  big.adaptive_rings = kMaxPatternRings;
  big.adaptive_depth = 2;
  const AvoidancePreset presets[] = {AvoidancePreset::Low, AvoidancePreset::Good,
                                     AvoidancePreset::High};
  for (int k = 0; k < count; ++k) {
    const float r = radius(rng);
    const int index = scene.agents.count();
    const AvoidanceParams params =
        big_pattern_every > 0 && index % big_pattern_every == 0
            ? big
            : avoidance_preset(presets[static_cast<std::size_t>(index) % 3]);
    const float range = r * 12.0f; // DetourCrowd's collisionQueryRange
    scene.agents.append({place(rng), 0.0f, place(rng)}, r, 2.0f, 8.0f, range, separation(rng),
                        scene.agents.avoidance_set_of(params));
    scene.goals.emplace_back(place(rng), place(rng));
    scene.max_query_range = std::max(scene.max_query_range, range);
  }
}

/// What the host does before the kernel stages: every third agent stands, the others head
/// for their goals at 1.2-1.6 m/s (from their own positions, as the corridors would).
void plan(Scene& scene) {
  AgentArrays& a = scene.agents;
  for (std::size_t i = 0; i < a.mode.size(); ++i) {
    if (a.mode[i] == kAgentInactive)
      continue;
    const float speed = 1.2f + 0.4f * static_cast<float>(i % 5) / 4.0f;
    a.desired_speed[i] = speed;
    const glm::vec2 to_goal = scene.goals[i] - glm::vec2(a.position[i].x, a.position[i].z);
    const float distance = std::sqrt(to_goal.x * to_goal.x + to_goal.y * to_goal.y);
    if (i % 3 == 0 || distance < 0.1f) {
      a.mode[i] = kAgentStanding;
      a.preferred_velocity[i] = glm::vec2(0.0f);
    } else {
      a.mode[i] = kAgentMoving;
      a.preferred_velocity[i] = to_goal * (speed / distance);
    }
  }
}

void remove_agent(Scene& scene, int id) {
  scene.agents.mode[static_cast<std::size_t>(id)] = kAgentInactive;
  scene.agents.velocity[static_cast<std::size_t>(id)] = glm::vec2(0.0f);
  ++scene.agents.layout_version;
}

float max_difference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(
        {worst, std::abs(a[i].x - b[i].x), std::abs(a[i].y - b[i].y), std::abs(a[i].z - b[i].z)});
  return worst;
}

float max_difference(const std::vector<glm::vec2>& a, const std::vector<glm::vec2>& b) {
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max({worst, std::abs(a[i].x - b[i].x), std::abs(a[i].y - b[i].y)});
  return worst;
}

/// Runs `steps` steps of the same scene on both executors and compares after every step.
/// Halfway, agents are added (the device mirror grows) and a few removed (layout change).
void expect_executors_agree(int agent_count, int big_pattern_every, int steps) {
  std::mt19937 rng(20240611u);
  Scene cpu_scene;
  add_random_agents(cpu_scene, agent_count, rng, big_pattern_every);
  const std::mt19937 rng_after_setup = rng;
  Scene gpu_scene = cpu_scene;

  const WallGridData walls = make_walls();
  auto cpu = make_cpu_executor(1);
  auto gpu = make_cuda_executor();
  cpu->set_walls(walls);
  gpu->set_walls(walls);

  for (int step = 0; step < steps; ++step) {
    if (step == steps / 2) {
      // The same additions on both sides (same random stream), then removals.
      std::mt19937 rng_cpu = rng_after_setup;
      std::mt19937 rng_gpu = rng_after_setup;
      add_random_agents(cpu_scene, agent_count / 10, rng_cpu, big_pattern_every);
      add_random_agents(gpu_scene, agent_count / 10, rng_gpu, big_pattern_every);
      for (int id = 1; id < agent_count; id += agent_count / 5) {
        remove_agent(cpu_scene, id);
        remove_agent(gpu_scene, id);
      }
    }
    KernelStepParams params;
    params.agent_grid = make_grid_spec(kWorldMin, kWorldMax, cpu_scene.max_query_range);
    plan(cpu_scene);
    plan(gpu_scene);
    StageTimes cpu_times, gpu_times;
    cpu->step(cpu_scene.agents, params, cpu_times);
    gpu->step(gpu_scene.agents, params, gpu_times);

    const AgentArrays& c = cpu_scene.agents;
    const AgentArrays& g = gpu_scene.agents;
    ASSERT_LE(max_difference(c.position, g.position), kTolerance) << "positions, step " << step;
    ASSERT_LE(max_difference(c.velocity, g.velocity), kTolerance) << "velocities, step " << step;
    ASSERT_LE(max_difference(c.desired_velocity, g.desired_velocity), kTolerance)
        << "desired velocities, step " << step;
    ASSERT_LE(max_difference(c.new_velocity, g.new_velocity), kTolerance)
        << "new velocities, step " << step;
    ASSERT_EQ(c.neighbor_count, g.neighbor_count) << "neighbour counts, step " << step;
    ASSERT_EQ(c.status, g.status) << "status bits, step " << step;

    std::vector<std::string> stages;
    for (const auto& [name, ms] : gpu_times.entries()) {
      stages.push_back(name);
      EXPECT_GE(ms, 0.0) << name;
    }
    EXPECT_EQ(stages,
              (std::vector<std::string>{"upload", "grid", "proximity", "steering", "avoidance",
                                        "integrate", "collisions", "download"}));
  }
  EXPECT_GT(gpu->device_memory_bytes(), 0u);
  // The comparison means something only if agents met each other and the walls.
  const AgentArrays& c = cpu_scene.agents;
  EXPECT_GT(std::count_if(c.neighbor_count.begin(), c.neighbor_count.end(),
                          [](std::int32_t k) { return k > 0; }),
            agent_count / 4);
  EXPECT_GT(std::count_if(c.segment_count.begin(), c.segment_count.end(),
                          [](std::int32_t k) { return k > 0; }),
            agent_count / 20);
}

TEST(CudaExecutor, MakeThrowsAClearErrorWhenThereIsNoDevice) {
  if (cuda_device_count() > 0)
    GTEST_SKIP() << "a CUDA device is present";
  try {
    auto executor = make_cuda_executor();
    FAIL() << "make_cuda_executor() returned an executor without a device";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("no CUDA device found: ", 0), 0u) << message;
    EXPECT_GT(message.size(), std::string("no CUDA device found: ").size()) << message;
  }
}

TEST(CudaExecutor, MatchesTheCpuExecutorOnARandomSceneWithWalls) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoDevice;
  expect_executors_agree(300, 0, 20);
}

TEST(CudaExecutor, MatchesTheCpuExecutorWithTheLargestSamplingPattern) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoDevice;
  // Every 7th agent samples 32 divs x 4 rings + 1 = 129 velocities: 160-thread blocks,
  // several samples' worth of idle threads, the strided loop of the block interface.
  expect_executors_agree(200, 7, 20);
}

TEST(CudaExecutor, StepsAnEmptyCrowd) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoDevice;
  auto gpu = make_cuda_executor();
  gpu->set_walls(make_walls());
  AgentArrays agents;
  KernelStepParams params;
  StageTimes times;
  EXPECT_NO_THROW(gpu->step(agents, params, times));
}

TEST(CudaExecutor, ReportsNeighbourTruncationLikeTheCpu) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << kNoDevice;
  // 20 agents in a 2 m square, K = 2: every agent has more neighbours than it keeps.
  std::mt19937 rng(7u);
  std::uniform_real_distribution<float> place(19.0f, 21.0f);
  Scene scene;
  scene.agents.max_neighbors = 2;
  for (int k = 0; k < 20; ++k) {
    scene.agents.append({place(rng), 0.0f, place(rng)}, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f,
                        scene.agents.avoidance_set_of(AvoidanceParams{}));
    scene.goals.emplace_back(place(rng), place(rng));
  }
  plan(scene);
  auto gpu = make_cuda_executor();
  gpu->set_walls(make_walls());
  KernelStepParams params;
  params.agent_grid = make_grid_spec(kWorldMin, kWorldMax, 3.6f);
  StageTimes times;
  gpu->step(scene.agents, params, times);
  for (std::size_t i = 0; i < scene.agents.status.size(); ++i) {
    EXPECT_EQ(scene.agents.neighbor_count[i], 2) << i;
    EXPECT_TRUE(scene.agents.status[i] & kNeighborsTruncated) << i;
  }
}

} // namespace
} // namespace crowd

#else // !CROWD_HAS_CUDA

TEST(CudaExecutor, NotBuilt) {
  GTEST_SKIP() << "this build has no CUDA backend (nvcc not found): the CUDA executor is not "
                  "compiled";
}

#endif

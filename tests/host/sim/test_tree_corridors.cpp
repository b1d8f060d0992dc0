// Corridors topped up from the shared path trees (cuda/kernels/path_trees.h): agents whose path
// is longer than their corridor holds follow their goal's tree to the end without asking the
// host for another search, where A*-planned agents search again near each corridor's end; the
// CUDA executor tops them up as the CPU does.
#include "cuda/core/executor.h"
#include "host/checkpoint/archive.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/scenario.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace crowd {
namespace {

// A 60 x 20 m hall with a pillar every 4 m, in one tile: paths across it cross dozens of
// polygons.
const NavMesh& pillar_hall() {
  static const NavMesh navmesh = [] {
    std::string obstacles;
    for (int x = 4; x < 60; x += 4)
      for (int z = 4; z < 20; z += 4)
        obstacles += (obstacles.empty() ? "" : ", ") + std::string("[[") + std::to_string(x) +
                     ", " + std::to_string(z) + "], [" + std::to_string(x) + ".6, " +
                     std::to_string(z) + "], [" + std::to_string(x) + ".6, " + std::to_string(z) +
                     ".6], [" + std::to_string(x) + ", " + std::to_string(z) + ".6]]";
    const std::string text = R"({"world": {"bounds": [[0, 0], [60, 20]], "obstacles": [)" +
                             obstacles + R"(]}, "agents": [{"position": [1, 1], "goal": [2, 2]}]})";
    return NavMesh::build(parse_scenario(text, "pillar_hall.json"));
  }();
  return navmesh;
}

constexpr int kCapacity = 16;

SolverOptions short_corridors(bool share_paths) {
  SolverOptions options;
  options.max_path_polys = kCapacity;
  options.threads = 2;
  // Any queue shares paths (trees), or none does (an A* search per agent).
  options.path_share_queue_length = share_paths ? 0 : 1'000'000;
  return options;
}

const glm::vec3 kGoal{58.0f, 0.0f, 10.0f};

void add_walkers(CrowdSolver& solver) {
  for (int k = 0; k < 6; ++k) {
    AgentSetup setup;
    setup.position = {1.5f, 0.0f, 2.0f + 3.0f * static_cast<float>(k)};
    setup.goal = kGoal;
    solver.add_agent(setup);
  }
}

bool all_near_goal(const CrowdSolver& solver) {
  for (const glm::vec3& p : solver.positions())
    if (std::hypot(p.x - kGoal.x, p.z - kGoal.z) > 3.0f)
      return false;
  return true;
}

TEST(TreeCorridors, AgentsFollowTheirGoalsTreePastTheirCorridorsEndWithoutAnotherSearch) {
  CrowdSolver trees(pillar_hall(), short_corridors(true), make_cpu_executor(2));
  CrowdSolver astar(pillar_hall(), short_corridors(false), make_cpu_executor(2));
  add_walkers(trees);
  add_walkers(astar);
  trees.step(0.1f);
  astar.step(0.1f);
  // The way is longer than a corridor holds: each corridor stops short of the goal polygon.
  const std::vector<dtPolyRef> first = trees.navigator().corridor(0);
  ASSERT_GE(static_cast<int>(first.size()), kCapacity - 1) << "a corridor as full as it gets";
  const std::size_t tree_searches = trees.navigator().path_searches();
  EXPECT_EQ(tree_searches, 1u) << "one tree toward the shared goal polygon";
  for (int step = 0; step < 900 && !(all_near_goal(trees) && all_near_goal(astar)); ++step) {
    trees.step(0.1f);
    astar.step(0.1f);
  }
  EXPECT_TRUE(all_near_goal(trees));
  EXPECT_TRUE(all_near_goal(astar));
  // Topped up from the tree, no agent asked the host for another path all the way; A*'s
  // corridors ran out and were searched again.
  EXPECT_EQ(trees.navigator().path_searches(), tree_searches);
  EXPECT_EQ(trees.navigator().path_requests_served(), 6u);
  EXPECT_GT(astar.navigator().path_requests_served(), 2u * 6u);
}

TEST(TreeCorridors, ACheckpointTakenWhileTreeFollowersTopUpResumesBitForBit) {
  CrowdSolver original(pillar_hall(), short_corridors(true), make_cpu_executor(2));
  add_walkers(original);
  for (int step = 0; step < 50; ++step)
    original.step(0.1f);
  ArchiveWriter out;
  original.save(out);
  CrowdSolver resumed(pillar_hall(), short_corridors(true), make_cpu_executor(1));
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "trees");
  resumed.restore(in);
  for (int step = 0; step < 200; ++step) {
    original.step(0.1f);
    resumed.step(0.1f);
  }
  ASSERT_EQ(original.positions().size(), resumed.positions().size());
  EXPECT_EQ(0, std::memcmp(original.positions().data(), resumed.positions().data(),
                           original.positions().size_bytes()));
  EXPECT_EQ(resumed.navigator().path_requests_served(), 0u) << "the restored ones asked none";
}

#if defined(CROWD_HAS_CUDA) // the CUDA executor is built only with nvcc
TEST(CudaTreeCorridors, TreeFollowersAreToppedUpOnTheDeviceAsOnTheCpu) {
  if (!cuda_device_available())
    GTEST_SKIP() << "no CUDA device: the CUDA executor cannot run here (bash .ci/gpu-sim runs "
                    "this test under GPGPU-Sim)";
  CrowdSolver cpu(pillar_hall(), short_corridors(true), make_cpu_executor(2));
  CrowdSolver gpu(pillar_hall(), short_corridors(true), make_cuda_executor());
  add_walkers(cpu);
  add_walkers(gpu);
  int top_ups = 0; // steps in which some agent's corridor grew from its tree
  std::vector<std::size_t> sizes(6, 0);
  for (int step = 0; step < 60; ++step) {
    cpu.step(0.1f);
    gpu.step(0.1f);
    bool grew = false;
    for (int i = 0; i < 6; ++i) {
      ASSERT_EQ(cpu.positions()[static_cast<std::size_t>(i)],
                gpu.positions()[static_cast<std::size_t>(i)])
          << "step " << step << " agent " << i;
      const std::size_t size = gpu.navigator().corridor(i).size();
      grew = grew || (step > 0 && size > sizes[static_cast<std::size_t>(i)]);
      sizes[static_cast<std::size_t>(i)] = size;
    }
    top_ups += grew ? 1 : 0;
  }
  EXPECT_GT(top_ups, 0) << "no corridor was topped up within the steps compared";
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(cpu.navigator().corridor(i), gpu.navigator().corridor(i)) << "agent " << i;
  EXPECT_EQ(cpu.navigator().path_requests_served(), 6u);
  EXPECT_EQ(gpu.navigator().path_requests_served(), 6u);
}
#endif

} // namespace
} // namespace crowd

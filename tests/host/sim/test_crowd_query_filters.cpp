// Per-type query filters (Crowd::set_query_filter, AgentParams::query_filter_type), as
// DetourCrowd's 16: an agent whose filter excludes a link's flags walks round instead of
// crossing it, an area cost makes the link the dearer way, and a filter that lets through the
// same polygons as the navmesh's moves agents to the bit as the kernels' tables do (Detour then
// follows them on the host). The filters travel in checkpoints.
#include "cuda/core/executor.h"
#include "host/sim/crowd.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"
#include "tests/support/crowd_api.h"
#include "tests/support/link_worlds.h"

#include <DetourNavMeshQuery.h>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <unistd.h>
#include <utility>

namespace crowd {
namespace {

using test::crowd_on;
using test::ground_distance;

constexpr unsigned short kLinkFlag = 2;
constexpr int kLinkArea = 5;

/// The split room (tests/support/link_worlds.h) with one link over its wall at z = 3, of its own
/// flag and area: round the wall is about 37 m, over the link about 20.
const NavMesh& linked_room() {
  static const NavMesh navmesh = NavMesh::build(parse_scenario(
      test::split_room(R"([{"start": [12, 3], "end": [18, 3], "flags": 2, "area": 5}])"),
      "links.json"));
  return navmesh;
}

/// A 30 x 20 m hall with five pillars to weave between, on one tile.
const NavMesh& pillar_hall() {
  static const NavMesh navmesh = NavMesh::build(parse_scenario(R"({
    "name": "pillar_hall", "dt": 0.1, "steps": 1,
    "world": {"bounds": [[0, 0], [30, 20]], "obstacles": [
      [[10, 4], [11, 4], [11, 6], [10, 6]], [[10, 9], [11, 9], [11, 11], [10, 11]],
      [[10, 14], [11, 14], [11, 16], [10, 16]], [[18, 6], [19, 6], [19, 8], [18, 8]],
      [[18, 12], [19, 12], [19, 14], [18, 14]]]},
    "agents": [{"position": [1, 1], "goal": [2, 2]}]})",
                                                               "pillar_hall.json"));
  return navmesh;
}

struct Walk {
  int updates = 0; ///< Until it stood within 0.5 m of its target (or 600).
  int on_link = 0; ///< Updates it spent crossing the link.
  bool arrived = false;
};

/// One agent of filter type `type` from (5, z) to (25, z) across the split room.
Walk walk_across(Crowd& crowd, int type, float z = 3.0f) {
  AgentParams params;
  params.query_filter_type = type;
  const int id = crowd.add_agent({5.0f, 0.0f, z}, params);
  crowd.request_move_target(id, {25.0f, 0.0f, z});
  Walk walk;
  for (; walk.updates < 600; ++walk.updates) {
    if (ground_distance(crowd.position(id), crowd.target(id)) < 0.5f) {
      walk.arrived = true;
      break;
    }
    crowd.update(0.1f);
    walk.on_link += crowd.is_on_link(id) ? 1 : 0;
  }
  return walk;
}

TEST(CrowdQueryFilters, AnAgentWhoseFilterExcludesTheLinksFlagWalksRound) {
  Crowd crowd(linked_room().detour(), crowd_on(BackendKind::Cpu));
  dtQueryFilter no_links;
  no_links.setExcludeFlags(kLinkFlag);
  crowd.set_query_filter(1, no_links);
  const Walk jumper = walk_across(crowd, 0);
  EXPECT_TRUE(jumper.arrived);
  EXPECT_GT(jumper.on_link, 15); // about 2.1 s over the link
  EXPECT_LT(jumper.updates, 200);
  const Walk walker = walk_across(crowd, 1);
  EXPECT_TRUE(walker.arrived);
  EXPECT_EQ(walker.on_link, 0);
  EXPECT_GT(walker.updates, 240); // round the wall: about 27 s at 1.4 m/s
}

TEST(CrowdQueryFilters, AnAreaCostMakesTheLinkTheDearerWay) {
  Crowd crowd(linked_room().detour(), crowd_on(BackendKind::Cpu));
  dtQueryFilter dear_links;
  dear_links.setAreaCost(kLinkArea, 100.0f); // 6 m over the link cost 600 m of floor
  crowd.set_query_filter(3, dear_links);
  const Walk walker = walk_across(crowd, 3);
  EXPECT_TRUE(walker.arrived);
  EXPECT_EQ(walker.on_link, 0);
  EXPECT_GT(walker.updates, 240);
}

/// Six agents crossing the room (diagonally, through each other), all of filter type `type`;
/// their positions after each of `updates` updates.
std::vector<glm::vec3> crossing(Crowd& crowd, int type, int updates) {
  AgentParams params;
  params.query_filter_type = type;
  for (int k = 0; k < 3; ++k) {
    const float z = 2.0f + 6.0f * static_cast<float>(k);
    crowd.request_move_target(crowd.add_agent({4.0f, 0.0f, z}, params), {26.0f, 0.0f, 20.0f - z});
    crowd.request_move_target(crowd.add_agent({26.0f, 0.0f, z + 1.0f}, params),
                              {4.0f, 0.0f, 19.0f - z});
  }
  std::vector<glm::vec3> positions;
  for (int step = 0; step < updates; ++step) {
    crowd.update(0.1f);
    for (int id = 0; id < crowd.agent_count(); ++id)
      positions.push_back(crowd.position(id));
  }
  return positions;
}

/// A filter that lets through the same polygons as the navmesh's, but is not it: it excludes a
/// flag no polygon has.
dtQueryFilter same_polygons_other_filter() {
  dtQueryFilter filter;
  filter.setExcludeFlags(0x8000);
  return filter;
}

void expect_same_paths(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    ASSERT_EQ(a[k], b[k]) << "update " << k / 6 << ", agent " << k % 6;
}

TEST(CrowdQueryFilters, DetourOnTheHostFollowsCorridorsToTheBitAsTheKernelsTables) {
  // Type 1's agents are followed by Detour on the host (kCorridorOwnFilter), type 0's by the
  // tables the kernels read, which reproduce Detour's queries: the same corridors, corners and
  // moves, step for step.
  std::vector<std::unique_ptr<CrowdSolver>> solvers;
  for (int type = 0; type < 2; ++type) {
    auto& solver = solvers.emplace_back(
        std::make_unique<CrowdSolver>(pillar_hall(), SolverOptions{}, make_cpu_executor(1)));
    solver->set_query_filter(1, same_polygons_other_filter());
    for (int k = 0; k < 3; ++k) {
      const float z = 2.0f + 6.0f * static_cast<float>(k);
      for (const auto& [from, to] :
           {std::pair{glm::vec3(4.0f, 0.0f, z), glm::vec3(26.0f, 0.0f, 20.0f - z)},
            std::pair{glm::vec3(26.0f, 0.0f, z + 1.0f), glm::vec3(4.0f, 0.0f, 19.0f - z)}}) {
        AgentSetup setup;
        setup.position = from;
        setup.goal = to;
        setup.params.query_filter_type = type;
        solver->add_agent(setup);
      }
    }
  }
  int corners_seen = 0;
  for (int step = 0; step < 250; ++step) {
    for (auto& solver : solvers)
      solver->step(0.1f);
    const CorridorNavigator& tables = solvers[0]->navigator();
    const CorridorNavigator& detour = solvers[1]->navigator();
    for (int id = 0; id < 6; ++id) {
      ASSERT_EQ(solvers[0]->positions()[static_cast<std::size_t>(id)],
                solvers[1]->positions()[static_cast<std::size_t>(id)])
          << "step " << step << ", agent " << id;
      ASSERT_EQ(tables.corridor(id), detour.corridor(id)) << "step " << step << ", agent " << id;
      const std::vector<PathCorner> a = tables.corners(id), b = detour.corners(id);
      ASSERT_EQ(a.size(), b.size()) << "step " << step << ", agent " << id;
      for (std::size_t c = 0; c < a.size(); ++c)
        ASSERT_EQ(a[c].position, b[c].position) << "step " << step << ", agent " << id;
      corners_seen += static_cast<int>(a.size());
    }
  }
  EXPECT_GT(corners_seen, 6 * 250); // they weaved between the pillars
  // They did cross: everyone ends more than 15 m from where it started.
  for (int id = 0; id < 6; ++id)
    EXPECT_GT(std::abs(solvers[0]->positions()[static_cast<std::size_t>(id)].x -
                       (id % 2 == 0 ? 4.0f : 26.0f)),
              15.0f)
        << "agent " << id;
}

TEST(CudaCrowdQueryFilters, AgentsOfTheirOwnFilterMoveOnTheDeviceAsOnTheCpu) {
  if (!cuda_device_available())
    GTEST_SKIP() << "no CUDA device: the CUDA executor cannot run here (bash .ci/gpu-sim runs "
                    "this test under GPGPU-Sim)";
  Crowd cpu(linked_room().detour(), crowd_on(BackendKind::Cpu));
  Crowd gpu(linked_room().detour(), crowd_on(BackendKind::Cuda));
  dtQueryFilter no_links;
  no_links.setExcludeFlags(kLinkFlag);
  for (Crowd* crowd : {&cpu, &gpu})
    crowd->set_query_filter(1, no_links);
  expect_same_paths(crossing(cpu, 1, 40), crossing(gpu, 1, 40));
}

TEST(CrowdQueryFilters, ACheckpointKeepsTheFiltersAndEachAgentsType) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("crowd_filters_" + std::to_string(::getpid()) + ".ckp");
  Crowd saved(linked_room().detour(), crowd_on(BackendKind::Cpu));
  dtQueryFilter no_links;
  no_links.setExcludeFlags(kLinkFlag);
  no_links.setAreaCost(kLinkArea, 3.5f);
  saved.set_query_filter(1, no_links);
  (void)crossing(saved, 1, 5);
  saved.save(file);
  Crowd restored(linked_room().detour(), crowd_on(BackendKind::Cpu));
  restored.restore(file);
  std::filesystem::remove(file);
  EXPECT_EQ(restored.query_filter(1).getExcludeFlags(), kLinkFlag);
  EXPECT_EQ(restored.query_filter(1).getAreaCost(kLinkArea), 3.5f);
  EXPECT_EQ(restored.agent_parameters(0).query_filter_type, 1);
  for (int step = 0; step < 30; ++step) {
    saved.update(0.1f);
    restored.update(0.1f);
  }
  for (int id = 0; id < saved.agent_count(); ++id)
    EXPECT_EQ(saved.position(id), restored.position(id)) << "agent " << id;
}

} // namespace
} // namespace crowd

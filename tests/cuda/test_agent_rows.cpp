// The kernel stages give an agent the same step whatever row of the arrays it is in
// (AgentArrays::reorder_rows, AgentView::agent_id): what they order by agent (the nearer
// neighbour first, the lower id at equal distance; which way two agents on one spot part) goes by
// its id, and the fields that name other agents name their rows, which follow them. This is what
// lets a rank hold its own agents and its ghosts in rows of its own and still compute the bytes
// of one process (docs/distributed-model.md, "Memory per rank", stage 1). Each run here steps a
// crowd in id order and the same crowd with its rows shuffled, shuffled again midway (once the
// collider lists and standoff partners name rows), and puts the rows back in id order to compare
// every array bit for bit. The corridor phases likewise, the corridor rows moving with their
// agents' rows.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "host/paths/corridor_navigator.h"
#include "host/paths/path_tree_pool.h"
#include "tests/support/agent_row_order.h"
#include "tests/support/executor_stages.h"
#include "tests/support/partly_asking_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/pillar_field_walkers.h"
#include "tests/support/random_crowd.h"
#include "tests/support/random_strides.h"

#if defined(CROWD_HAS_CUDA)
#include "tests/support/cuda_device.h"
#endif

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <numeric>
#include <oneapi/tbb/task_arena.h>
#include <random>
#include <span>
#include <vector>

namespace crowd {
namespace {

using test::in_id_order;
using test::RandomCrowd;
using test::shuffled_rows;

/// One agent of `params` at `at` (x, z), heading for `goal`.
void add_agent(RandomCrowd& crowd, glm::vec2 at, glm::vec2 goal, const AvoidanceParams& params) {
  const float radius = 0.4f;
  crowd.agents.append({at.x, 0.0f, at.y}, radius, 2.0f, 8.0f, radius * 12.0f, 1.0f,
                      crowd.agents.avoidance_set_of(params), kStandoffRight);
  crowd.goals.push_back(goal);
  crowd.max_query_range = std::max(crowd.max_query_range, radius * 12.0f);
}

/// A random crowd of every avoidance model and standoff side, and the ties the ids decide: an
/// agent with eight others around it at two distances exactly (its six nearest include two of
/// the four farther ones, the lower ids), and two pairs of agents on one spot each (DetourCrowd's
/// collision push and ORCA's fallback part them by id).
RandomCrowd crowd_with_ties(int random_agents) {
  std::mt19937 rng(20261202u);
  RandomCrowd crowd;
  test::add_random_agents(crowd, random_agents, rng, 7, 5, 4, 3);
  const glm::vec2 centre{10.0f, 30.0f};
  const glm::vec2 around[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  add_agent(crowd, centre, {30.0f, 30.0f}, avoidance_preset(AvoidancePreset::Good));
  for (const glm::vec2 offset : around)
    add_agent(crowd, centre + offset, centre - 8.0f * offset,
              avoidance_preset(AvoidancePreset::Good));
  for (const AvoidanceParams& params :
       {avoidance_preset(AvoidancePreset::Good), avoidance_defaults(kAvoidanceOrca)}) {
    const glm::vec2 spot =
        params.model == kAvoidanceOrca ? glm::vec2{30.0f, 10.0f} : glm::vec2{30.0f, 12.0f};
    add_agent(crowd, spot, {5.0f, 5.0f}, params);
    add_agent(crowd, spot, {35.0f, 35.0f}, params);
  }
  return crowd;
}

/// `steps` steps of the crowd with ties on `in_order` (rows in id order) and on `shuffled` (its
/// rows shuffled before the first step and again midway), every array compared after each.
void expect_rows_do_not_matter(Executor& in_order, Executor& shuffled, int random_agents,
                               int steps) {
  RandomCrowd reference = crowd_with_ties(random_agents);
  RandomCrowd moved = reference;
  const WallGridData walls = test::random_crowd_walls();
  in_order.set_walls(walls);
  shuffled.set_walls(walls);
  std::mt19937 rng(7u);
  int ties_kept = 0; // steps whose neighbour rows held two agents at one distance
  for (int step = 0; step < steps; ++step) {
    if (step == 0 || step == steps / 2)
      moved.agents.reorder_rows(shuffled_rows(moved.agents, rng));
    test::plan_random_crowd(reference);
    test::plan_random_crowd(moved);
    StageTimes times;
    in_order.step(reference.agents, reference.params(), times);
    shuffled.step(moved.agents, moved.params(), times);
    shuffled.read_back_everything();
    const AgentArrays back = in_id_order(moved.agents);
    ASSERT_TRUE(test::bit_identical(reference.agents, back)) << "step " << step;
    const AgentArrays& a = reference.agents;
    for (std::size_t i = 0; i < a.neighbor_count.size(); ++i) {
      const float* d = &a.neighbor_distance_sq[i * static_cast<std::size_t>(a.max_neighbors)];
      for (int k = 1; k < a.neighbor_count[i]; ++k)
        ties_kept += d[k] == d[k - 1] ? 1 : 0;
    }
  }
  // The comparison means something only if ties were there to break.
  EXPECT_GT(ties_kept, 0);
}

constexpr float kRangeFactor = 30.0f;

/// `count` agents heading across the pillar field, their paths planned by the corridor navigator
/// until every one has come, rows in id order: the corridor rows as a run has them. The corridor
/// phases read the navigator's path trees, so it stays.
struct PlannedCorridors {
  NavMesh navmesh = NavMesh::build(test::pillar_field_in_tiles(32));
  SolverOptions options;
  tbb::task_arena arena{2};
  AgentArrays arrays;
  CorridorNavigator navigator{navmesh, options, arena, arrays};

  explicit PlannedCorridors(int count) {
    test::add_pillar_field_walkers(navmesh, navigator, arrays, count, 3);
    const std::unique_ptr<Executor> executor = make_cpu_executor(2);
    executor->set_navmesh_tables(navigator.tables());
    StageTimes times;
    for (int step = 0; step < 50 && navigator.pending_path_requests() > 0; ++step) {
      executor->check_corridors(arrays);
      navigator.plan(0.1f, times);
    }
    EXPECT_EQ(navigator.pending_path_requests(), 0u);
  }
};

/// Makes every corridor row of `arrays` current on the host (the CUDA executor keeps them in
/// device memory), as a rank does before it moves rows.
void fetch_every_row(Executor& executor, AgentArrays& arrays) {
  std::vector<std::int32_t> every(static_cast<std::size_t>(arrays.count()));
  std::iota(every.begin(), every.end(), 0);
  executor.fetch_corridor_rows(arrays, every);
}

/// The agents (ids, ascending) whose rows the last corridor phase asked the host about.
std::vector<std::int32_t> asked_agents(const AgentArrays& arrays) {
  std::vector<std::int32_t> ids;
  for (const std::int32_t row : arrays.corridors.asked)
    ids.push_back(arrays.id_of(row));
  std::sort(ids.begin(), ids.end());
  return ids;
}

/// What one run of the corridor phases gave the host.
struct CorridorStep {
  std::vector<std::vector<std::int32_t>> asked; ///< after following and after moving, by id
  NavmeshCorrections corrections;
};

/// The corridor phases of one step on `arrays`, without the host's answers (the phases clear
/// their flags first): the look-ahead, the following, every agent wanting to stride up to 1.5 m
/// (by id: the same stride whatever its row), and the move.
CorridorStep corridor_step(Executor& executor, AgentArrays& arrays, int step) {
  CorridorStep run;
  executor.check_corridors(arrays);
  executor.follow_corridors(arrays, kRangeFactor);
  run.asked.push_back(asked_agents(arrays));
  std::vector<glm::vec3> strides(static_cast<std::size_t>(arrays.count()), glm::vec3(0.0f));
  test::random_strides(strides, static_cast<unsigned>(step), 1.5f);
  for (int row = 0; row < arrays.count(); ++row)
    arrays.position[static_cast<std::size_t>(row)] +=
        strides[static_cast<std::size_t>(arrays.id_of(row))];
  run.corrections = executor.move_corridors(arrays);
  run.asked.push_back(asked_agents(arrays));
  return run;
}

/// `steps` runs of the corridor phases over navmesh tables that leave every third polygon to
/// Detour (so agents are asked about every step) on `in_order` (rows in id order) and on
/// `shuffled` (the rows shuffled before the first step and again midway), every corridor array
/// and position compared after each.
void expect_corridor_rows_do_not_matter(Executor& in_order, Executor& shuffled, int agents,
                                        int steps) {
  PlannedCorridors planned(agents);
  const test::PartlyAskingTables tables(planned.navigator.tables());
  for (Executor* executor : {&in_order, &shuffled}) {
    executor->set_navmesh_tables(tables.view);
    executor->set_path_trees(planned.navigator.path_trees().view(),
                             planned.navigator.path_trees().version());
  }
  AgentArrays reference = planned.arrays;
  AgentArrays moved = planned.arrays;
  std::mt19937 rng(11u);
  std::size_t asked = 0;
  for (int step = 0; step < steps; ++step) {
    if (step == 0 || step == steps / 2) {
      fetch_every_row(shuffled, moved);
      moved.reorder_rows(shuffled_rows(moved, rng));
    }
    const CorridorStep want = corridor_step(in_order, reference, step);
    const CorridorStep got = corridor_step(shuffled, moved, step);
    EXPECT_EQ(got.asked, want.asked) << "step " << step;
    EXPECT_EQ(got.corrections.count, want.corrections.count) << "step " << step;
    EXPECT_EQ(got.corrections.max_distance, want.corrections.max_distance) << "step " << step;
    fetch_every_row(in_order, reference);
    fetch_every_row(shuffled, moved);
    const AgentArrays back = in_id_order(moved);
    ASSERT_TRUE(test::corridors_bit_identical(reference, back)) << "step " << step;
    ASSERT_TRUE(test::bit_identical(reference, back)) << "step " << step;
    asked += want.asked.front().size() + want.asked.back().size();
  }
  // The rows asked about are rows: they must follow their agents, which only shows if there are.
  EXPECT_GT(asked, static_cast<std::size_t>(steps) * 10);
}

TEST(AgentRows, TheCpuStagesGiveEachAgentTheSameStepWhateverRowItIsIn) {
  auto in_order = make_cpu_executor(1);
  auto shuffled = make_cpu_executor(2);
  expect_rows_do_not_matter(*in_order, *shuffled, 400, 16);
}

TEST(AgentRows, TheCpuCorridorPhasesGiveEachAgentTheSameRowWhateverRowItIsIn) {
  auto in_order = make_cpu_executor(1);
  auto shuffled = make_cpu_executor(2);
  expect_corridor_rows_do_not_matter(*in_order, *shuffled, 120, 12);
}

#if defined(CROWD_HAS_CUDA)
TEST(CudaAgentRows, TheDeviceStagesGiveEachAgentTheSameStepWhateverRowItIsIn) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  auto in_order = make_cpu_executor(1);
  auto shuffled = make_cuda_executor();
  expect_rows_do_not_matter(*in_order, *shuffled, test::size_for_device(400, 60),
                            test::size_for_device(16, 6));
}

TEST(CudaAgentRows, TheDeviceCorridorPhasesGiveEachAgentTheSameRowWhateverRowItIsIn) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  // Both on the device: the host's copies of the rows it was not asked about are the device's
  // once fetched, and the rows moved on the host go up whole (CorridorArrays::reorder_rows).
  auto in_order = make_cuda_executor();
  auto shuffled = make_cuda_executor();
  expect_corridor_rows_do_not_matter(*in_order, *shuffled, test::size_for_device(120, 60),
                                     test::size_for_device(12, 6));
}
#endif

} // namespace
} // namespace crowd

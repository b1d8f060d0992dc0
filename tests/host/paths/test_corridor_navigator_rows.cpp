// host/paths/corridor_navigator.cpp names agents by id and finds each one's row of the agent
// arrays and corridor rows through AgentArrays::row_of, so the rows may be put in any order
// between steps (AgentArrays::reorder_rows) and every agent still walks the same bytes: the
// next part of docs/distributed-model.md, "Memory per rank", stage 1. Two copies of one crowd
// walk the split room with an off-mesh link over its wall, the corridor phases on tables that
// leave every third polygon to Detour (so the navigator answers for rows every step), some agents
// of a query filter of their own (followed by Detour on the host), and a path budget that keeps a
// queue; midway, the crowd's API moves goals, agents and filters by id. The second copy's rows
// are shuffled before the first step and again midway, and after every step it is put back in id
// order and compared, array by array and agent by agent, with the first.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/corridor_navigator.h"
#include "host/paths/path_tree_pool.h"
#include "host/scenario/scenario.h"
#include "tests/support/agent_row_order.h"
#include "tests/support/executor_stages.h"
#include "tests/support/link_worlds.h"
#include "tests/support/partly_asking_tables.h"
#include "tests/support/random_strides.h"

#include <DetourNavMeshQuery.h>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <oneapi/tbb/task_arena.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr float kDt = 0.1f;
constexpr int kAgents = 60;
constexpr int kWheels = 1; // the query filter type of the agents that may not take the link

/// What one step told the caller.
struct WalkStep {
  std::size_t asked = 0; ///< rows the corridor phases asked the host about
  NavmeshCorrections corrections;
  int links = 0;
};

/// A crowd in the split room, walked by the navigator and the CPU executor's corridor phases, its
/// agents moved by their preferred velocities (the kernel stages give an agent the same step
/// whatever its row: tests/cuda/test_agent_rows.cpp).
class RoomWalkers {
public:
  RoomWalkers(const NavMesh& navmesh, const SolverOptions& options)
      : options_(options), navigator_(navmesh, options_, arena_, arrays),
        tables_(navigator_.tables()) {
    executor_->set_navmesh_tables(tables_.view);
    dtQueryFilter wheels = navmesh.filter();
    wheels.setExcludeFlags(2); // the link's flag
    navigator_.set_query_filter(kWheels, wheels);
    std::mt19937 rng(5u);
    std::uniform_real_distribution<float> along(1.0f, 12.5f), across(1.0f, 16.0f);
    const std::int32_t set = arrays.avoidance_set_of(AvoidanceParams{});
    while (arrays.count() < kAgents) {
      // Every fourth agent starts by the link's start, on the way to the far side by it.
      const int i = arrays.count();
      const bool by_link = i % 4 == 0;
      const glm::vec3 from{along(rng), 0.0f,
                           by_link ? 3.0f + 0.1f * static_cast<float>(i % 7) : across(rng)};
      const glm::vec3 to{30.0f - along(rng), 0.0f, by_link ? 3.0f : across(rng)};
      const auto start = navmesh.nearest_point(from);
      const auto goal = navmesh.nearest_point(to);
      if (!start || !goal)
        continue;
      const bool left = i % 2 == 0;
      arrays.append(left ? *start : glm::vec3(30.0f - start->x, start->y, start->z), 0.4f, 2.0f,
                    8.0f, 5.0f, 2.0f, set);
      EXPECT_TRUE(navigator_.add_agent(i, 1.4f + 0.02f * static_cast<float>(i % 10),
                                       i % 5 == 1 ? kWheels : 0));
      navigator_.set_target(i, left ? *goal : glm::vec3(30.0f - goal->x, goal->y, goal->z));
    }
  }

  AgentArrays arrays;
  CorridorNavigator& navigator() { return navigator_; }

  /// One step as CrowdSolver::step runs the corridor phases, the kernel stages replaced by each
  /// agent going at its preferred velocity, jostled by up to 0.3 m (the same stride for an agent
  /// whatever its row) so that some walk into the walls.
  WalkStep step(int index) {
    WalkStep result;
    StageTimes times;
    executor_->check_corridors(arrays);
    navigator_.plan(kDt, times);
    executor_->set_path_trees(navigator_.path_trees().view(), navigator_.path_trees().version());
    executor_->follow_corridors(arrays, options_.path_optimization_range_factor);
    result.asked += arrays.corridors.asked.size();
    navigator_.answer_following();
    std::vector<glm::vec3> jostle(arrays.position.size(), glm::vec3(0.0f));
    test::random_strides(jostle, static_cast<unsigned>(index), 0.3f);
    for (std::size_t row = 0; row < arrays.position.size(); ++row) {
      const glm::vec2 v = arrays.preferred_velocity[row];
      arrays.position[row] += glm::vec3(v.x, 0.0f, v.y) * kDt +
                              jostle[static_cast<std::size_t>(arrays.id_of(static_cast<int>(row)))];
    }
    result.corrections = executor_->move_corridors(arrays);
    result.asked += arrays.corridors.asked.size();
    navigator_.answer_moves(result.corrections);
    navigator_.advance_links(kDt);
    result.links = navigator_.links_taken();
    return result;
  }

private:
  SolverOptions options_;
  tbb::task_arena arena_{2};
  CorridorNavigator navigator_;
  test::PartlyAskingTables tables_;
  std::unique_ptr<Executor> executor_ = make_cpu_executor(2);
};

/// The crowd's API by agent id, midway: a new goal, a move, a velocity, a stop, a filter, a moved
/// goal, a speed. Returns what move_target said.
bool change_agents(CorridorNavigator& navigator) {
  navigator.set_target(2, {27.0f, 0.0f, 15.0f});
  EXPECT_TRUE(navigator.move_agent(5, {20.0f, 0.0f, 10.0f}));
  navigator.set_velocity(6, {0.8f, 0.0f, -0.4f});
  navigator.clear_target(9);
  navigator.set_filter_type(10, kWheels);
  navigator.set_max_speed(14, 0.9f);
  return navigator.move_target(13, {26.0f, 0.0f, 12.0f});
}

/// Every agent's navigator state the same in both.
void expect_same_agents(RoomWalkers& want, RoomWalkers& got, int step) {
  CorridorNavigator &a = want.navigator(), &b = got.navigator();
  EXPECT_EQ(a.pending_path_requests(), b.pending_path_requests()) << "step " << step;
  EXPECT_EQ(a.path_searches(), b.path_searches()) << "step " << step;
  EXPECT_EQ(a.path_requests_served(), b.path_requests_served()) << "step " << step;
  const auto on_a = a.on_links(), on_b = b.on_links();
  EXPECT_TRUE(std::equal(on_a.begin(), on_a.end(), on_b.begin(), on_b.end())) << "step " << step;
  for (int id = 0; id < kAgents; ++id) {
    EXPECT_EQ(a.target_state(id), b.target_state(id)) << "agent " << id << ", step " << step;
    EXPECT_EQ(a.corridor(id), b.corridor(id)) << "agent " << id << ", step " << step;
    const std::vector<PathCorner> ca = a.corners(id), cb = b.corners(id);
    ASSERT_EQ(ca.size(), cb.size()) << "agent " << id << ", step " << step;
    for (std::size_t c = 0; c < ca.size(); ++c) {
      EXPECT_EQ(std::memcmp(&ca[c].position, &cb[c].position, sizeof(glm::vec3)), 0)
          << "agent " << id << ", step " << step;
      EXPECT_EQ(ca[c].flags, cb[c].flags) << "agent " << id << ", step " << step;
    }
  }
}

TEST(NavigatorRows, EveryAgentWalksTheSameBytesWhateverRowsItsArraysAreIn) {
  const NavMesh navmesh = NavMesh::build(parse_scenario(
      test::split_room(R"([{"start": [12, 3], "end": [18, 3], "flags": 2}])"), "links.json"));
  SolverOptions options;
  options.path_requests_per_step = 6;  // a queue that takes several steps
  options.path_share_queue_length = 8; // long ones share trees
  options.topology_optimizations_per_step = 3;
  options.topology_optimization_interval = 0.3f;
  RoomWalkers reference(navmesh, options);
  RoomWalkers moved(navmesh, options);
  std::mt19937 rng(17u);
  constexpr int kSteps = 90, kChange = 30, kShuffleAgain = 45;
  WalkStep total;
  std::size_t longest_queue = 0;
  for (int step = 0; step < kSteps; ++step) {
    if (step == 0 || step == kShuffleAgain)
      moved.arrays.reorder_rows(test::shuffled_rows(moved.arrays, rng));
    if (step == kChange) {
      EXPECT_EQ(change_agents(moved.navigator()), change_agents(reference.navigator()));
    }
    longest_queue = std::max(longest_queue, reference.navigator().pending_path_requests());
    const WalkStep want = reference.step(step);
    const WalkStep got = moved.step(step);
    EXPECT_EQ(got.asked, want.asked) << "step " << step;
    EXPECT_EQ(got.links, want.links) << "step " << step;
    EXPECT_EQ(got.corrections.count, want.corrections.count) << "step " << step;
    EXPECT_EQ(got.corrections.max_distance, want.corrections.max_distance) << "step " << step;
    const AgentArrays back = test::in_id_order(moved.arrays);
    ASSERT_TRUE(test::bit_identical(reference.arrays, back)) << "step " << step;
    ASSERT_TRUE(test::corridors_bit_identical(reference.arrays, back)) << "step " << step;
    expect_same_agents(reference, moved, step);
    total.asked += want.asked;
    total.links += want.links;
    total.corrections.count += want.corrections.count;
  }
  // What the navigator reads by row must have happened for the comparison to mean anything.
  EXPECT_GT(total.asked, static_cast<std::size_t>(kSteps) * 5) << "the host answered for rows";
  EXPECT_GT(total.links, 1) << "agents crossed the link";
  EXPECT_GT(longest_queue, static_cast<std::size_t>(options.path_requests_per_step))
      << "agents waited in the path queue";
  EXPECT_GT(total.corrections.count, 0) << "agents walked into the walls";
}

} // namespace
} // namespace crowd

// host/sim/crowd_solver.cpp with SolverOptions::row_sort_interval: every few steps the solver
// sorts its agents' rows by neighbour-grid cell (CrowdSolver::sort_rows), so that agents near
// each other are near in memory, and nothing a user sees changes: the kernel stages, the
// corridor phases and the navigator give every agent the same bytes whatever its row
// (tests/cuda/test_agent_rows.cpp, tests/host/paths/test_corridor_navigator_rows.cpp), and the
// solver answers by id (positions, velocities, the API, the debug view). Sample runs with sorted
// rows are compared, step by step, with the same runs in id order.
#include "host/sim/agent_debug_view.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"
#include "tests/support/simulation_steps.h"

#if defined(CROWD_HAS_CUDA)
#include "tests/support/cuda_device.h"
#endif

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

SimulationOptions options_of(BackendKind backend, int row_sort_interval) {
  SimulationOptions options;
  options.backend = backend;
  options.solver.threads = 2;
  options.solver.row_sort_interval = row_sort_interval;
  return options;
}

/// What the debug view shows of agent `id` the same in both.
void expect_same_view(const Simulation& want, const Simulation& got, int id) {
  const std::optional<AgentDebugView> a = inspect_agent(want, id), b = inspect_agent(got, id);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->neighbours, b->neighbours) << "agent " << id;
  EXPECT_EQ(a->colliders, b->colliders) << "agent " << id;
  EXPECT_EQ(a->wall_segments, b->wall_segments) << "agent " << id;
  EXPECT_EQ(a->samples.size(), b->samples.size()) << "agent " << id;
  EXPECT_EQ(a->corridor, b->corridor) << "agent " << id;
  EXPECT_EQ(std::memcmp(&a->chosen_velocity, &b->chosen_velocity, sizeof(glm::vec2)), 0)
      << "agent " << id;
}

/// `steps` steps of `scenario` on `backend` with its rows in id order and sorted every 3 steps,
/// compared after each, and the debug view of every third agent at the end.
void expect_sorting_changes_nothing(BackendKind backend, const char* scenario, int steps) {
  const std::filesystem::path file = test::sample_scenario(scenario);
  Simulation in_id_order = Simulation::from_file(file, options_of(backend, 0));
  Simulation sorted = Simulation::from_file(file, options_of(backend, 3));
  int steps_out_of_order = 0;
  for (int step = 0; step < steps; ++step) {
    in_id_order.step();
    sorted.step();
    ASSERT_TRUE(test::state_of(in_id_order) == test::state_of(sorted)) << "step " << step;
    if (!sorted.crowd_solver()->arrays().agent_id.empty())
      ++steps_out_of_order;
  }
  EXPECT_EQ(test::metrics_without_times(in_id_order), test::metrics_without_times(sorted));
  EXPECT_EQ(in_id_order.faults().size(), sorted.faults().size());
  for (int id = 0; id < sorted.agent_count(); id += 3)
    expect_same_view(in_id_order, sorted, id);
  // The comparison means something only if the rows were out of id order.
  EXPECT_GT(steps_out_of_order, steps / 2);
  EXPECT_TRUE(sorted.crowd_solver()->rows_move());
  EXPECT_FALSE(in_id_order.crowd_solver()->rows_move());
}

// Emitters and waypoints (film_shot), off-mesh links and query filters (links,
// accessible_route), an obstacle dropped on the navmesh midway (dropped_crate), a goal that
// moves (escort), a jam at a door (bottleneck).
class SortedRows : public ::testing::TestWithParam<const char*> {};

TEST_P(SortedRows, ARunIsTheSameBytesWithItsRowsSortedEveryFewSteps) {
  expect_sorting_changes_nothing(BackendKind::Cpu, GetParam(), 150);
}

#if defined(CROWD_HAS_CUDA)
// On the device: the rows sorted on the host after a step go up whole before the next (as after
// a checkpoint's restore), the corridor rows fetched first.
TEST(CudaSortedRows, AFilmShotIsTheSameBytesWithItsRowsSortedEveryFewSteps) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  expect_sorting_changes_nothing(BackendKind::Cuda, "film_shot.json",
                                 test::size_for_device(150, 12));
}
#endif

INSTANTIATE_TEST_SUITE_P(Samples, SortedRows,
                         ::testing::Values("film_shot.json", "links.json", "accessible_route.json",
                                           "dropped_crate.json", "escort.json", "bottleneck.json"),
                         [](const ::testing::TestParamInfo<const char*>& sample) {
                           std::string name = sample.param;
                           name = name.substr(0, name.find('.'));
                           name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
                           return name;
                         });

} // namespace
} // namespace crowd

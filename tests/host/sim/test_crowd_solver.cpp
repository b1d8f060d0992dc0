// host/sim/crowd_solver.cpp: what the solver does when a stage goes wrong for one agent. An
// agent whose state turns non-finite is frozen at its last finite position and reported, and
// its neighbours carry on; an agent pushed off the navmesh is put back on it.
#include "cuda/core/executor.h"
#include "cuda/kernels/fault_guard.h"
#include "host/navmesh/navmesh.h"
#include "host/sim/crowd_solver.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <memory>

namespace crowd {
namespace {

// 20 x 20 m, one 2 x 2 m block at x in [2, 4], z in [-1, 1].
Scenario open_square_with_block() {
  Scenario s;
  s.world.bounds = WorldSpec::Bounds2D{{-10.0f, -10.0f}, {10.0f, 10.0f}};
  s.world.obstacles.push_back({{2.0f, -1.0f}, {4.0f, -1.0f}, {4.0f, 1.0f}, {2.0f, 1.0f}});
  return s;
}

AgentSetup agent(glm::vec3 position, glm::vec3 goal) {
  AgentSetup a;
  a.position = position;
  a.goal = goal;
  a.json_path = "test";
  return a;
}

bool on_navmesh(const NavMesh& navmesh, glm::vec3 p) {
  const auto nearest = navmesh.nearest_point(p);
  return nearest && std::hypot(nearest->x - p.x, nearest->z - p.z) < 1e-3f;
}

TEST(CrowdSolverFaults, ANonFiniteAgentIsFrozenAndReportedAndItsNeighboursWalkOn) {
  const Scenario scenario = open_square_with_block();
  const NavMesh navmesh = NavMesh::build(scenario);
  const SolverOptions options;
  CrowdSolver solver(navmesh, options, make_cpu_executor(0));
  // Agent 0's speed is NaN (a parameter no reader lets through, here straight into the solver):
  // its preferred velocity, and from there every velocity it computes, is NaN.
  AgentSetup bad = agent({-6.0f, 0.0f, 0.0f}, {-6.0f, 0.0f, 8.0f});
  bad.params.max_speed = std::numeric_limits<float>::quiet_NaN();
  solver.add_agent(bad);
  // Four agents walking through where it stands.
  for (int k = 0; k < 4; ++k) {
    const float z = -1.5f + static_cast<float>(k);
    solver.add_agent(agent({-9.0f, 0.0f, z}, {-3.0f, 0.0f, z}));
  }
  const glm::vec3 start = solver.positions()[0];
  int faults = 0;
  for (int step = 1; step <= 60; ++step) {
    solver.step(0.1f);
    const StepHealth& health = solver.last_step_health();
    for (const AgentFault& f : health.new_faults) {
      ++faults;
      EXPECT_EQ(f.agent, 0);
      EXPECT_EQ(f.stage, "steering");
      EXPECT_EQ(step, 1) << "frozen in the step that produced the NaN";
    }
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(is_finite(solver.positions()[static_cast<std::size_t>(i)]))
          << "agent " << i << " at step " << step;
      ASSERT_TRUE(is_finite(solver.velocities()[static_cast<std::size_t>(i)]))
          << "agent " << i << " at step " << step;
    }
  }
  EXPECT_EQ(faults, 1) << "reported once";
  EXPECT_LT(glm::distance(solver.positions()[0], start), 0.5f) << "it stands (it may be pushed)";
  EXPECT_EQ(solver.navigator().target_state(0), TargetState::None);
  for (int i = 1; i < 5; ++i) {
    EXPECT_GT(solver.positions()[static_cast<std::size_t>(i)].x, -4.5f)
        << "agent " << i << " walked on past the frozen one";
    EXPECT_EQ(solver.arrays().status[static_cast<std::size_t>(i)] & kFaultBits, 0);
  }
  // A frozen agent takes no new goal.
  solver.set_goal(0, {0.0f, 0.0f, -8.0f});
  EXPECT_EQ(solver.navigator().target_state(0), TargetState::None);
}

/// Runs the real CPU executor, then shoves one agent by `push` as a collision stage gone wrong
/// might: the solver's corridor move must put it back.
class ShovingExecutor final : public Executor {
public:
  ShovingExecutor(int agent, glm::vec2 push)
      : inner_(make_cpu_executor(1)), agent_(agent), push_(push) {}
  std::string name() const override { return "cpu"; }
  void set_walls(const WallGridData& walls) override { inner_->set_walls(walls); }
  void begin_step(AgentArrays& agents, const KernelStepParams& params, StepInputs inputs) override {
    agents_ = &agents;
    inner_->begin_step(agents, params, inputs);
  }
  void build_grid() override { inner_->build_grid(); }
  void find_proximity() override { inner_->find_proximity(); }
  void steer() override { inner_->steer(); }
  void choose_velocities() override { inner_->choose_velocities(); }
  void integrate() override { inner_->integrate(); }
  void resolve_collisions(int pass) override { inner_->resolve_collisions(pass); }
  void end_step(StageTimes& times) override {
    inner_->end_step(times);
    agents_->position[static_cast<std::size_t>(agent_)].x += push_.x;
    agents_->position[static_cast<std::size_t>(agent_)].z += push_.y;
  }
  AgentGridSnapshot agent_grid() const override { return inner_->agent_grid(); }
  std::size_t host_memory_bytes() const override { return inner_->host_memory_bytes(); }

private:
  std::unique_ptr<Executor> inner_;
  AgentArrays* agents_ = nullptr;
  int agent_;
  glm::vec2 push_;
};

TEST(CrowdSolverFaults, AnAgentPushedIntoAnObstacleIsPutBackOnTheNavmesh) {
  const Scenario scenario = open_square_with_block();
  const NavMesh navmesh = NavMesh::build(scenario);
  CrowdSolver solver(navmesh, SolverOptions{},
                     std::make_unique<ShovingExecutor>(0, glm::vec2(2.0f, 0.0f)));
  solver.add_agent(agent({0.5f, 0.0f, 0.0f}, {0.5f, 0.0f, 0.0f}));
  solver.step(0.1f); // pushed to x = 2.5, inside the block
  const glm::vec3 p = solver.positions()[0];
  EXPECT_TRUE(on_navmesh(navmesh, p)) << p.x << ", " << p.z;
  EXPECT_LT(p.x, 2.0f - 0.4f + 0.05f) << "stopped at the block's eroded edge";
  EXPECT_EQ(solver.last_step_health().navmesh_corrections, 1);
  EXPECT_GT(solver.last_step_health().max_navmesh_correction, 0.5f);
}

TEST(CrowdSolverFaults, AnAgentPushedOutOfTheWorldIsPutBackOnTheNavmesh) {
  const Scenario scenario = open_square_with_block();
  const NavMesh navmesh = NavMesh::build(scenario);
  CrowdSolver solver(navmesh, SolverOptions{},
                     std::make_unique<ShovingExecutor>(0, glm::vec2(0.0f, -30.0f)));
  solver.add_agent(agent({-5.0f, 0.0f, -8.0f}, {-5.0f, 0.0f, 8.0f}));
  for (int step = 0; step < 3; ++step) {
    solver.step(0.1f);
    const glm::vec3 p = solver.positions()[0];
    ASSERT_TRUE(on_navmesh(navmesh, p)) << "step " << step << ": " << p.x << ", " << p.z;
    EXPECT_GT(p.z, -10.0f);
  }
}

} // namespace
} // namespace crowd

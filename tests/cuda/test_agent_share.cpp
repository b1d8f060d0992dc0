// cuda/core/agent_share.h: a step whose split stages ran for part of the agents, the others'
// results copied in through stage_output_columns, is the step of one process computing every
// agent, every array bit for bit. The CPU executor runs it with a share that owns part of the
// agents and takes the rest from a reference executor's arrays, where the other ranks of an MPI
// run would send them (tests/cli/test_crowd_run_mpi.cpp runs the real split under mpirun).
#include "cuda/core/agent_share.h"
#include "cuda/core/executor.h"
#include "host/distributed/domain_assignment.h"
#include "tests/support/executor_stages.h"
#include "tests/support/random_crowd.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::RandomCrowd;

/// Which agents a rank owns this step, ascending.
using Ownership = std::function<std::vector<std::int32_t>(const AgentArrays&)>;

/// The agents `owns` picks.
Ownership owning(bool (*owns)(int id, const AgentArrays&)) {
  return [owns](const AgentArrays& agents) {
    std::vector<std::int32_t> owned;
    for (int i = 0; i < agents.count(); ++i)
      if (owns(i, agents))
        owned.push_back(i);
    return owned;
  };
}

/// One rank of a pretend split: computes the agents `ownership` gives it, and takes every other
/// agent's results of a stage from `others` (the reference's arrays, which ran the stage
/// already).
class CopyingShare final : public AgentShare {
public:
  CopyingShare(const AgentArrays& others, Ownership ownership)
      : others_(others), ownership_(std::move(ownership)) {}

  void assign(const AgentArrays& agents) override {
    owned_ = ownership_(agents);
    ++assigned_;
  }
  std::span<const std::int32_t> owned() const override { return owned_; }
  void share(AgentArrays& agents, KernelStage stage) override {
    ASSERT_TRUE(is_split_stage(stage)) << stage_name(stage);
    const std::vector<AgentColumn> mine = stage_output_columns(agents, stage);
    const std::vector<AgentColumn> theirs =
        stage_output_columns(const_cast<AgentArrays&>(others_), stage);
    ASSERT_EQ(mine.size(), theirs.size());
    for (int i = 0; i < agents.count(); ++i) {
      if (std::binary_search(owned_.begin(), owned_.end(), i))
        continue;
      for (std::size_t c = 0; c < mine.size(); ++c) {
        const std::size_t bytes = mine[c].bytes_per_agent;
        std::memcpy(mine[c].data + static_cast<std::size_t>(i) * bytes,
                    theirs[c].data + static_cast<std::size_t>(i) * bytes, bytes);
      }
    }
    shared_.push_back(stage);
  }

  // Jobs: all of them run here (the split of jobs is the MPI runs' tests').
  bool runs_job(std::size_t) const override { return true; }
  std::vector<std::vector<std::byte>>
  share_jobs(std::size_t, const std::vector<std::vector<std::byte>>& mine) override {
    return mine;
  }

  int assigned_ = 0;
  std::vector<KernelStage> shared_;

private:
  const AgentArrays& others_;
  Ownership ownership_;
  std::vector<std::int32_t> owned_;
};

/// Runs `steps` steps of a random crowd (every avoidance model in it) phase by phase on a
/// reference CPU executor and on one whose share owns the agents `owns` picks; after every
/// phase, every array of the two must be equal bit for bit.
void expect_split_step_equals_whole(const Ownership& owns, int steps) {
  std::mt19937 rng(20261128u);
  RandomCrowd whole;
  test::add_random_agents(whole, 240, rng, /*big_pattern_every=*/7, /*force_model_every=*/5,
                          /*orca_every=*/11, /*ttc_every=*/3);
  RandomCrowd split = whole;
  const WallGridData walls = test::random_crowd_walls();
  auto reference = make_cpu_executor(2);
  auto executor = make_cpu_executor(2);
  reference->set_walls(walls);
  executor->set_walls(walls);
  CopyingShare share(whole.agents, owns);
  executor->set_agent_share(&share);

  for (int step = 0; step < steps; ++step) {
    if (step == steps / 2)
      for (int id = 3; id < whole.agents.count(); id += 37) {
        test::remove_random_agent(whole, id);
        test::remove_random_agent(split, id);
      }
    test::plan_random_crowd(whole);
    test::plan_random_crowd(split);
    reference->begin_step(whole.agents, whole.params());
    executor->begin_step(split.agents, split.params());
    for (const test::StepPhase& phase : test::step_phases(whole.params())) {
      test::run_phase(*reference, phase);
      test::run_phase(*executor, phase);
      ASSERT_TRUE(test::bit_identical(whole.agents, split.agents))
          << "step " << step << ", " << test::phase_name(phase);
    }
    StageTimes times;
    reference->end_step(times);
    executor->end_step(times);
  }
  EXPECT_EQ(share.assigned_, steps);
  // Each split stage once a step, the collisions once a pass.
  const auto count = [&](KernelStage stage) {
    return std::count(share.shared_.begin(), share.shared_.end(), stage);
  };
  EXPECT_EQ(count(KernelStage::Proximity), steps);
  EXPECT_EQ(count(KernelStage::Steering), steps);
  EXPECT_EQ(count(KernelStage::Avoidance), steps);
  EXPECT_EQ(count(KernelStage::Collisions), steps * whole.params().collision_iterations);
}

TEST(AgentShare, OwningEveryOtherAgentGivesTheWholeStep) {
  expect_split_step_equals_whole(owning([](int id, const AgentArrays&) { return id % 2 == 1; }),
                                 12);
}

TEST(AgentShare, OwningTheWestHalfGivesTheWholeStep) {
  // A spatial domain, as the MPI split's: neighbours across the border belong to the other side.
  expect_split_step_equals_whole(owning([](int id, const AgentArrays& a) {
                                   return a.position[static_cast<std::size_t>(id)].x < 20.0f;
                                 }),
                                 12);
}

TEST(AgentShare, OwningNoAgentGivesTheWholeStep) {
  // A rank left with no agents computes nothing and receives everything.
  expect_split_step_equals_whole(owning([](int, const AgentArrays&) { return false; }), 4);
}

TEST(AgentShare, OwningEachOfFourDomainsGivesTheWholeStep) {
  // The MPI split's own placement (DomainAssignment, as MpiAgentShare uses it), as each of the
  // four ranks: agents cross between domains during the steps.
  for (int rank = 0; rank < 4; ++rank) {
    auto domains = std::make_shared<DomainAssignment>(4);
    auto present = std::make_shared<std::vector<std::uint8_t>>();
    expect_split_step_equals_whole(
        [=](const AgentArrays& a) {
          present->assign(a.mode.size(), 0);
          for (std::size_t i = 0; i < a.mode.size(); ++i)
            (*present)[i] = a.mode[i] != kAgentInactive ? 1 : 0;
          domains->place(a.position, *present);
          std::vector<std::int32_t> owned;
          for (int i = 0; i < a.count(); ++i)
            if (domains->domain_of_agents()[static_cast<std::size_t>(i)] == rank)
              owned.push_back(i);
          return owned;
        },
        8);
  }
}

TEST(AgentShare, OnlyTheExpensivePerAgentStagesAreSplit) {
  AgentArrays arrays;
  for (std::size_t s = 0; s < kKernelStageCount; ++s) {
    const auto stage = static_cast<KernelStage>(s);
    EXPECT_EQ(!stage_output_columns(arrays, stage).empty(), is_split_stage(stage))
        << stage_name(stage);
  }
  EXPECT_FALSE(is_split_stage(KernelStage::Grid));
  EXPECT_FALSE(is_split_stage(KernelStage::Integrate));
}

} // namespace
} // namespace crowd

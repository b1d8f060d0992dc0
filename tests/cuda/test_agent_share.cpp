// cuda/core/agent_share.h: a step whose split stages ran for part of the agents, the others'
// results copied in by their reach (stage_output_columns), gives every row this process reads as
// the step of one process computing every agent, bit for bit. The CPU executor runs it with a
// share that owns part of the agents and takes the rest from a reference executor's arrays,
// where the other ranks of an MPI run would send them (tests/cli/test_crowd_run_mpi.cpp runs the
// real split under mpirun).
#include "cuda/core/agent_share.h"
#include "cuda/core/executor.h"
#include "host/distributed/domain_assignment.h"
#include "tests/support/cuda_device.h"
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

/// The agents of domain `rank` of `ranks`, placed as the MPI split places them
/// (DomainAssignment, as MpiAgentShare uses it), step after step.
Ownership domain_of(int rank, int ranks) {
  auto domains = std::make_shared<DomainAssignment>(ranks);
  auto present = std::make_shared<std::vector<std::uint8_t>>();
  return [=](const AgentArrays& a) {
    present->assign(a.mode.size(), 0);
    for (std::size_t i = 0; i < a.mode.size(); ++i)
      (*present)[i] = a.mode[i] != kAgentInactive ? 1 : 0;
    domains->place(a.position, *present);
    std::vector<std::int32_t> owned;
    for (int i = 0; i < a.count(); ++i)
      if (domains->domain_of_agents()[static_cast<std::size_t>(i)] == rank)
        owned.push_back(i);
    return owned;
  };
}

/// Every other agent, the even ids one step and the odd ones the next: every agent changes
/// owner every step, and its kept state must follow it.
Ownership swapping_every_step() {
  auto steps = std::make_shared<int>(0);
  return [=](const AgentArrays& a) {
    const int parity = (*steps)++ % 2;
    std::vector<std::int32_t> owned;
    for (int i = parity; i < a.count(); i += 2)
      owned.push_back(i);
    return owned;
  };
}

bool contains(const std::vector<std::int32_t>& sorted, std::int32_t i) {
  return std::binary_search(sorted.begin(), sorted.end(), i);
}

/// Agent i's rows of `columns` copied from `from` into `to`.
void copy_rows(const std::vector<AgentColumn>& to, const std::vector<AgentColumn>& from,
               std::int32_t i) {
  for (std::size_t c = 0; c < to.size(); ++c) {
    const std::size_t bytes = to[c].bytes_per_agent;
    std::memcpy(to[c].data + static_cast<std::size_t>(i) * bytes,
                from[c].data + static_cast<std::size_t>(i) * bytes, bytes);
  }
}

/// The columns of `stage` (every split stage: kKernelStageCount) of the reach `keep` picks.
std::vector<AgentColumn> columns_of(AgentArrays& agents, bool (*keep)(ColumnReach)) {
  return split_columns(agents, keep);
}
bool kept_reach(ColumnReach r) {
  return r == ColumnReach::OwnerKept;
}
bool not_everyone(ColumnReach r) {
  return r != ColumnReach::Everyone;
}

/// One rank of a pretend split: computes the agents `ownership` gives it, and takes what the
/// other ranks would send it, by reach, from `others` (the reference's arrays, which ran every
/// stage for every agent already): every agent's Everyone columns, its ghosts' Neighbours
/// columns, and the OwnerKept columns of the agents that came to it.
class CopyingShare final : public AgentShare {
public:
  CopyingShare(AgentArrays& others, Ownership ownership)
      : others_(others), ownership_(std::move(ownership)) {}

  void assign(AgentArrays& agents) override {
    const std::vector<std::int32_t> before = owned_;
    owned_ = ownership_(agents);
    arrays_ = &agents;
    shared_this_step_.clear();
    if (assigned_++ == 0)
      return; // every process holds the same rows before the first step
    for (const std::int32_t i : owned_)
      if (!contains(before, i)) {
        copy_rows(columns_of(agents, kept_reach), columns_of(others_, kept_reach), i);
        ++migrated_;
      }
  }
  std::span<const std::int32_t> owned() const override { return owned_; }
  std::span<const std::int32_t> corridor_owned() const override { return owned_; }
  void share(AgentArrays& agents, KernelStage stage) override {
    ASSERT_TRUE(is_split_stage(stage)) << stage_name(stage);
    const std::vector<StageColumn> mine = stage_output_columns(agents, stage);
    const std::vector<StageColumn> theirs = stage_output_columns(others_, stage);
    ASSERT_EQ(mine.size(), theirs.size());
    if (stage == KernelStage::Proximity)
      find_ghosts(agents);
    for (std::size_t c = 0; c < mine.size(); ++c) {
      ASSERT_EQ(mine[c].reach, theirs[c].reach);
      const ColumnReach reach = mine[c].reach;
      if (reach != ColumnReach::Everyone && reach != ColumnReach::Neighbours)
        continue;
      for (int i = 0; i < agents.count(); ++i)
        if (!contains(owned_, i) && (reach == ColumnReach::Everyone || contains(ghosts_, i)))
          copy_rows({mine[c].column}, {theirs[c].column}, i);
    }
    shared_.push_back(stage);
    shared_this_step_.push_back(stage);
  }
  void gather_everything() override {
    for (int i = 0; i < arrays_->count(); ++i)
      if (!contains(owned_, i))
        copy_rows(columns_of(*arrays_, not_everyone), columns_of(others_, not_everyone), i);
  }

  // The corridor phases: none runs here (the kernel stages' split is this test's; the corridor
  // phases' split is the MPI runs' tests'), so none of these may be called but the first.
  std::size_t assigned_count() const override { return arrays_ ? arrays_->count() : 0; }
  void keep_corridor_rows() override {}
  void kept_rows_changed() override { ADD_FAILURE() << "a corridor phase ran"; }
  bool splits_corridor_rows() const override { return false; }
  bool computes_row(std::int32_t) const override { return true; }
  void fetch_kept_rows(std::span<const std::int32_t>) override {
    ADD_FAILURE() << "a corridor phase ran";
  }
  void fetch_rows(const std::vector<AgentColumn>&, std::span<const std::int32_t>) override {
    ADD_FAILURE() << "a corridor phase ran";
  }
  void share_changed_rows(const std::vector<AgentColumn>&, std::span<const std::byte>,
                          const char*) override {
    ADD_FAILURE() << "a corridor phase ran";
  }
  void share_rows(const std::vector<AgentColumn>&, const char*) override {
    ADD_FAILURE() << "a corridor phase ran";
  }
  std::vector<std::int32_t> gather_agents(std::span<const std::int32_t> mine) override {
    ADD_FAILURE() << "a corridor phase ran";
    return {mine.begin(), mine.end()};
  }
  void combine(std::span<long long>, std::span<double>) override {
    ADD_FAILURE() << "a corridor phase ran";
  }

  // Jobs: all of them run here (the split of jobs is the MPI runs' tests').
  bool runs_job(std::size_t) const override { return true; }
  std::vector<std::vector<std::byte>>
  share_jobs(std::size_t, const std::vector<std::vector<std::byte>>& mine) override {
    return mine;
  }

  /// `actual` as this rank reads it equals `expected`: every array bit for bit, but for the
  /// split columns this rank does not read now. It reads every agent's Everyone columns, the
  /// OwnerKept columns of its own agents, and, once the stage that writes them ran this step,
  /// the Owner columns of its own agents and the Neighbours columns of its own and its ghosts.
  ::testing::AssertionResult reads_as(AgentArrays& expected, const AgentArrays& actual) const {
    AgentArrays read = actual;
    for (std::size_t s = 0; s < kKernelStageCount; ++s) {
      const auto stage = static_cast<KernelStage>(s);
      const bool ran = std::find(shared_this_step_.begin(), shared_this_step_.end(), stage) !=
                       shared_this_step_.end();
      const std::vector<StageColumn> mine = stage_output_columns(read, stage);
      const std::vector<StageColumn> theirs = stage_output_columns(expected, stage);
      for (std::size_t c = 0; c < mine.size(); ++c)
        for (int i = 0; i < read.count(); ++i) {
          const bool own = contains(owned_, i);
          bool reads = true;
          switch (mine[c].reach) {
          case ColumnReach::Everyone:
            break;
          case ColumnReach::OwnerKept:
            reads = own;
            break;
          case ColumnReach::Owner:
            reads = own && ran;
            break;
          case ColumnReach::Neighbours:
            reads = (own || contains(ghosts_, i)) && ran;
            break;
          }
          if (!reads)
            copy_rows({mine[c].column}, {theirs[c].column}, i);
        }
    }
    return test::bit_identical(expected, read);
  }

  int assigned_ = 0;
  long long migrated_ = 0;
  std::size_t most_ghosts_ = 0;
  std::vector<KernelStage> shared_;
  std::vector<KernelStage> shared_this_step_;
  std::vector<std::int32_t> owned_;
  std::vector<std::int32_t> ghosts_; ///< The neighbours of owned agents that are not, ascending.

private:
  void find_ghosts(const AgentArrays& agents) {
    ghosts_.clear();
    const auto row = static_cast<std::size_t>(agents.max_neighbors);
    for (const std::int32_t i : owned_)
      for (std::int32_t t = 0; t < agents.neighbor_count[static_cast<std::size_t>(i)]; ++t) {
        const std::int32_t j =
            agents.neighbor_index[static_cast<std::size_t>(i) * row + static_cast<std::size_t>(t)];
        if (!contains(owned_, j))
          ghosts_.push_back(j);
      }
    std::sort(ghosts_.begin(), ghosts_.end());
    ghosts_.erase(std::unique(ghosts_.begin(), ghosts_.end()), ghosts_.end());
    most_ghosts_ = std::max(most_ghosts_, ghosts_.size());
  }

  AgentArrays& others_;
  Ownership ownership_;
  AgentArrays* arrays_ = nullptr;
};

/// A random crowd (every avoidance model in it) stepped on a reference CPU executor (`whole`)
/// and on `executor` (a CPU one by default), whose share owns the agents `owns` picks (`split`).
struct SplitPair {
  WallGridData walls = test::random_crowd_walls(); ///< The executors keep a view of it.
  RandomCrowd whole, split;
  std::unique_ptr<Executor> reference = make_cpu_executor(2), executor;
  std::unique_ptr<CopyingShare> share;

  explicit SplitPair(const Ownership& owns,
                     std::unique_ptr<Executor> split_executor = make_cpu_executor(2),
                     int agents = 240)
      : executor(std::move(split_executor)) {
    std::mt19937 rng(20261128u);
    test::add_random_agents(whole, agents, rng, /*big_pattern_every=*/7, /*force_model_every=*/5,
                            /*orca_every=*/11, /*ttc_every=*/3);
    split = whole;
    reference->set_walls(walls);
    executor->set_walls(walls);
    share = std::make_unique<CopyingShare>(whole.agents, owns);
    executor->set_agent_share(share.get());
  }
  void begin_step() {
    test::plan_random_crowd(whole);
    test::plan_random_crowd(split);
    reference->begin_step(whole.agents, whole.params());
    executor->begin_step(split.agents, split.params());
  }
  void run(const test::StepPhase& phase) {
    test::run_phase(*reference, phase);
    test::run_phase(*executor, phase);
  }
  void end_step() {
    StageTimes times;
    reference->end_step(times);
    executor->end_step(times);
  }
  /// A whole step on both, phase by phase (so that the share copies each phase's results of
  /// the reference), the split executor's arrays all read back.
  void step() {
    begin_step();
    for (const test::StepPhase& phase : test::step_phases(whole.params()))
      run(phase);
    end_step();
    executor->read_back_everything();
  }
};

/// Runs `steps` steps of a SplitPair; after every phase, every row the split one reads must
/// equal the reference's bit for bit, and after the steps and a gather, every row. Returns the
/// share, for its counts.
std::unique_ptr<CopyingShare> expect_split_step_equals_whole(const Ownership& owns, int steps) {
  SplitPair pair(owns);
  CopyingShare& share = *pair.share;
  for (int step = 0; step < steps; ++step) {
    if (step == steps / 2)
      for (int id = 3; id < pair.whole.agents.count(); id += 37) {
        test::remove_random_agent(pair.whole, id);
        test::remove_random_agent(pair.split, id);
      }
    pair.begin_step();
    for (const test::StepPhase& phase : test::step_phases(pair.whole.params())) {
      pair.run(phase);
      [&] {
        ASSERT_TRUE(share.reads_as(pair.whole.agents, pair.split.agents))
            << "step " << step << ", " << test::phase_name(phase);
      }();
      if (::testing::Test::HasFatalFailure())
        return std::move(pair.share);
    }
    pair.end_step();
  }
  // A checkpoint's gather: every row that of the whole step.
  share.gather_everything();
  EXPECT_TRUE(test::bit_identical(pair.whole.agents, pair.split.agents));
  EXPECT_EQ(share.assigned_, steps);
  // Each split stage once a step, the collisions once a pass.
  const auto count = [&](KernelStage stage) {
    return std::count(share.shared_.begin(), share.shared_.end(), stage);
  };
  EXPECT_EQ(count(KernelStage::Proximity), steps);
  EXPECT_EQ(count(KernelStage::Steering), steps);
  EXPECT_EQ(count(KernelStage::Avoidance), steps);
  EXPECT_EQ(count(KernelStage::Collisions), steps * pair.whole.params().collision_iterations);
  return std::move(pair.share);
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
  // four ranks: agents cross between domains during the steps, their kept state with them.
  long long migrated = 0;
  for (int rank = 0; rank < 4; ++rank) {
    migrated += expect_split_step_equals_whole(domain_of(rank, 4), 8)->migrated_;
  }
  EXPECT_GT(migrated, 0);
}

TEST(AgentShare, AgentsChangingOwnerEveryStepCarryTheirState) {
  EXPECT_GT(expect_split_step_equals_whole(swapping_every_step(), 12)->migrated_, 1000);
}

TEST(AgentShare, AnAgentWhoseNeighboursAreAllGhostsAvoidsThemAsAlone) {
  // One agent owned, in the thick of the crowd: every neighbour is another rank's, and its
  // avoidance reads their desired velocities from their ghost rows.
  const auto busiest = [](const AgentArrays& a) {
    std::int32_t best = 0;
    int most = -1;
    for (int i = 0; i < a.count(); ++i) {
      int near = 0;
      for (int j = 0; j < a.count(); ++j) {
        const glm::vec3 d =
            a.position[static_cast<std::size_t>(j)] - a.position[static_cast<std::size_t>(i)];
        near += (j != i && d.x * d.x + d.z * d.z < 4.0f) ? 1 : 0;
      }
      if (near > most) {
        most = near;
        best = i;
      }
    }
    return best;
  };
  auto chosen = std::make_shared<std::int32_t>(-1);
  const auto share = expect_split_step_equals_whole(
      [=](const AgentArrays& a) {
        if (*chosen < 0)
          *chosen = busiest(a);
        return std::vector<std::int32_t>{*chosen};
      },
      12);
  EXPECT_GE(share->most_ghosts_, 3u);
  EXPECT_EQ(share->migrated_, 0);
}

TEST(AgentShare, WithoutItsGhostsAnAgentWouldAvoidStaleNeighbours) {
  // The checks above can fail: the same split with the ghosts' desired velocities zeroed (what a
  // process that received no ghost rows might read) gives its own agents other velocities.
  SplitPair pair(owning([](int id, const AgentArrays&) { return id % 2 == 0; }));
  bool differed = false;
  for (int step = 0; step < 6 && !differed; ++step) {
    pair.begin_step();
    for (const test::StepPhase& phase : test::step_phases(pair.whole.params())) {
      if (phase.stage == KernelStage::Avoidance)
        for (int i = 1; i < pair.split.agents.count(); i += 2)
          pair.split.agents.desired_velocity[static_cast<std::size_t>(i)] = glm::vec2(0.0f);
      pair.run(phase);
    }
    for (const std::int32_t i : pair.share->owned_)
      differed = differed || pair.split.agents.new_velocity[static_cast<std::size_t>(i)] !=
                                 pair.whole.agents.new_velocity[static_cast<std::size_t>(i)];
    pair.end_step();
  }
  EXPECT_TRUE(differed);
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

/// `count` agents whose corridor rows hold k + 1 polygons and k % 5 corners (agent k), every
/// value distinct, in rows of 16 polygons and 4 corners.
AgentArrays agents_with_corridors(int count, std::int32_t seed) {
  AgentArrays a;
  a.corridors.capacity = 16;
  a.corridors.corner_capacity = 4;
  for (int k = 0; k < count; ++k) {
    const glm::vec3 at(static_cast<float>(k), 0.0f, static_cast<float>(seed));
    a.append(at, 0.3f, 2.0f, 8.0f, 3.6f, 2.0f, 0);
    a.corridors.append(at);
    const auto i = static_cast<std::size_t>(k);
    a.corridors.size[i] = k + 1;
    a.corridors.corner_count[i] = k % 5;
    for (int p = 0; p < a.corridors.capacity; ++p)
      a.corridors.row(k)[p] = seed + k * 100 + p;
    for (int c = 0; c < a.corridors.corner_capacity; ++c) {
      const std::size_t at_corner = i * 4 + static_cast<std::size_t>(c);
      a.corridors.corner_verts[at_corner] = glm::vec3(static_cast<float>(seed + c));
      a.corridors.corner_flags[at_corner] = static_cast<std::uint8_t>(seed + c);
      a.corridors.corner_polys[at_corner] = seed + c;
    }
    a.preferred_velocity[i] = glm::vec2(static_cast<float>(seed + k));
  }
  return a;
}

// A corridor row travels as far as it is in use: the polygons up to its size and the corners up
// to their count, after those counts; the receiver gets the owner's row in every part it reads.
TEST(AgentShare, CorridorRowsTravelOnlyAsFarAsTheyAreInUse) {
  AgentArrays owner = agents_with_corridors(5, 1000);
  AgentArrays receiver = agents_with_corridors(5, 5000);
  const std::vector<std::int32_t> sent{0, 3, 4};
  const std::vector<AgentColumn> from = corridor_phase_columns(owner).kept;
  const std::vector<AgentColumn> to = corridor_phase_columns(receiver).kept;
  const std::size_t bytes = used_bytes(from, sent);
  EXPECT_LT(bytes, sent.size() * row_bytes(from)); // less than whole rows
  std::vector<std::byte> packed(bytes);
  EXPECT_EQ(pack_used_rows(from, sent, packed.data()), packed.data() + bytes);
  EXPECT_EQ(unpack_used_rows(to, sent, packed.data()), packed.data() + bytes);

  const CorridorArrays& want = owner.corridors;
  const CorridorArrays& got = receiver.corridors;
  for (const std::int32_t k : sent) {
    const auto i = static_cast<std::size_t>(k);
    ASSERT_EQ(got.size[i], want.size[i]);
    for (int p = 0; p < want.size[i]; ++p)
      EXPECT_EQ(got.row(k)[p], want.row(k)[p]) << "agent " << k << " polygon " << p;
    EXPECT_EQ(got.row(k)[want.size[i]], 5000 + k * 100 + want.size[i]) << "not in use: kept";
    ASSERT_EQ(got.corner_count[i], want.corner_count[i]);
    for (std::size_t c = 0; c < static_cast<std::size_t>(want.corner_count[i]); ++c) {
      EXPECT_EQ(got.corner_verts[i * 4 + c], want.corner_verts[i * 4 + c]);
      EXPECT_EQ(got.corner_flags[i * 4 + c], want.corner_flags[i * 4 + c]);
      EXPECT_EQ(got.corner_polys[i * 4 + c], want.corner_polys[i * 4 + c]);
    }
    EXPECT_EQ(got.position[i], want.position[i]);
    EXPECT_EQ(receiver.preferred_velocity[i], owner.preferred_velocity[i]);
  }
  EXPECT_EQ(got.row(1)[0], 5000 + 100) << "an agent not sent keeps its row";
  // What the neighbours' owners read of it: the preferred velocity (collision.h, standoff.h).
  ASSERT_EQ(corridor_phase_columns(owner).to_neighbours.size(), 1u);
  EXPECT_EQ(corridor_phase_columns(owner).to_neighbours[0].data,
            reinterpret_cast<std::byte*>(owner.preferred_velocity.data()));
  // What the split stages read of the agent's own row, lent to its owner where another process
  // holds the row: its polygons in use (after their count), which the time-to-collision model's
  // corridor sides read, its preferred velocity and corridor direction.
  const std::vector<AgentColumn> lent = corridor_phase_columns(owner).read_by_owner;
  ASSERT_EQ(lent.size(), 4u);
  EXPECT_EQ(lent[0].data, reinterpret_cast<std::byte*>(owner.corridors.size.data()));
  EXPECT_EQ(lent[1].data, reinterpret_cast<std::byte*>(owner.corridors.polys.data()));
  EXPECT_EQ(lent[1].used, owner.corridors.size.data());
  EXPECT_EQ(lent[2].data, reinterpret_cast<std::byte*>(owner.preferred_velocity.data()));
  EXPECT_EQ(lent[3].data, reinterpret_cast<std::byte*>(owner.corridor_direction.data()));
}

#if defined(CROWD_HAS_CUDA)

TEST(CudaAgentShare, ADeviceComputingPartOfTheAgentsGivesTheWholeStep) {
  // One GPU per rank: the CUDA executor runs the split stages for its share of the agents and
  // exchanges their results through the host arrays. Whole steps against the CPU executor
  // computing every agent: every row this rank reads, then after a gather every row.
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const int agents = test::size_for_device(240, 60);
  const std::vector<std::pair<const char*, Ownership>> splits{
      {"every other agent", owning([](int id, const AgentArrays&) { return id % 2 == 1; })},
      {"domain 1 of 4", domain_of(1, 4)},
      {"owners swapping every step", swapping_every_step()},
      {"no agent", owning([](int, const AgentArrays&) { return false; })}};
  for (const auto& [name, owns] : splits) {
    SplitPair pair(owns, make_cuda_executor(), agents);
    for (int step = 0; step < 8; ++step) {
      pair.step();
      ASSERT_TRUE(pair.share->reads_as(pair.whole.agents, pair.split.agents))
          << name << ", step " << step;
    }
    pair.share->gather_everything();
    EXPECT_TRUE(test::bit_identical(pair.whole.agents, pair.split.agents)) << name;
  }
}

#endif // CROWD_HAS_CUDA

} // namespace
} // namespace crowd

// A simulation saved at step k and restored into a fresh one from the same scenario steps on
// exactly as the uninterrupted run: positions, velocities and phases bit-identical at every
// later step, and the same metrics (wall times aside).
#include "host/checkpoint/archive.h"
#include "host/sim/crowd_solver.h"
#include "host/sim/simulation.h"
#include "tests/support/simulation_steps.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace crowd {
namespace {

using test::metrics_without_times;
using test::state_of;
using test::StepState;

std::filesystem::path sample(const char* name) {
  return test::sample_scenario(name);
}

SimulationOptions cpu_options(int threads, double stuck_seconds = 10.0) {
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  options.solver.threads = threads;
  options.stuck_seconds = stuck_seconds;
  return options;
}

/// Runs `reference` to `total` steps, `first` to `k` then checkpoints it, restores into
/// `resumed` and runs that to `total`: every step after k must match.
void expect_resume_identical(Simulation& reference, Simulation& first, Simulation& resumed, int k,
                             int total) {
  std::map<int, StepState> expected; // by step index
  while (reference.step_index() < total) {
    reference.step();
    expected[reference.step_index()] = state_of(reference);
  }
  while (first.step_index() < k)
    first.step();
  ASSERT_TRUE(state_of(first) == expected.at(k))
      << "the run to checkpoint differs from the reference run before any checkpoint";
  ArchiveWriter out;
  first.save_checkpoint(out);
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "test");
  resumed.restore_checkpoint(in);
  EXPECT_TRUE(in.at_end());
  ASSERT_EQ(resumed.step_index(), k);
  ASSERT_TRUE(state_of(resumed) == expected.at(k));
  while (resumed.step_index() < total) {
    resumed.step();
    ASSERT_TRUE(state_of(resumed) == expected.at(resumed.step_index()))
        << "resumed run differs at step " << resumed.step_index();
  }
  EXPECT_EQ(metrics_without_times(resumed), metrics_without_times(reference));
  EXPECT_EQ(resumed.faults().size(), reference.faults().size());
}

TEST(SimulationCheckpoint, FilmShotWithWaypointsWaitsEmittersAndTypesResumesBitIdentical) {
  // Saved at 10 s: emitters still entering (until 17 s), agents at waypoints.
  Simulation reference = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
  Simulation first = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
  for (int s = 0; s < 100; ++s)
    first.step();
  const auto phases = first.phases();
  EXPECT_GT(std::count(phases.begin(), phases.end(), AgentPhase::Pending), 0);
  EXPECT_GT(std::count(phases.begin(), phases.end(), AgentPhase::Walking), 0);
  Simulation resumed = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
  expect_resume_identical(reference, first, resumed, 100, 300);
}

// A checkpoint holds the agents in id order whatever order the solver keeps their rows in
// (SolverOptions::row_sort_interval), and resumes with the rows in either.
TEST(SimulationCheckpoint, ARunWithSortedRowsResumesBitIdentical) {
  SimulationOptions sorted = cpu_options(2);
  sorted.solver.row_sort_interval = 4;
  for (const int resumed_sort : {0, 4}) {
    SimulationOptions resume = cpu_options(1);
    resume.solver.row_sort_interval = resumed_sort;
    Simulation reference = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
    Simulation first = Simulation::from_file(sample("film_shot.json"), sorted);
    Simulation resumed = Simulation::from_file(sample("film_shot.json"), resume);
    expect_resume_identical(reference, first, resumed, 42, 90);
    EXPECT_FALSE(first.crowd_solver()->arrays().agent_id.empty()) << "saved out of id order";
  }
}

TEST(SimulationCheckpoint, AgentsChangedThroughTheApiAreRestored) {
  Simulation reference = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
  Simulation first = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
  for (Simulation* sim : {&reference, &first}) {
    for (int s = 0; s < 20; ++s)
      sim->step();
    const int added = sim->add_agent({0, 0, -10}, {5, 0, 10});
    sim->set_goal(0, {-15, 0, 10});
    sim->remove_agent(1);
    ASSERT_GT(added, 0);
  }
  Simulation resumed = Simulation::from_file(sample("film_shot.json"), cpu_options(2));
  expect_resume_identical(reference, first, resumed, 60, 160);
  EXPECT_EQ(resumed.agent_count(), reference.agent_count());
}

TEST(SimulationCheckpoint, CrowdServedFromCachedPathTreesResumesBitIdentical) {
  // 2,000 agents ask for paths at once; sharing from 200 queued requests on, the queue is
  // still being served from shared path trees when the checkpoint is written. (The cached
  // trees are restored too, though in this scene no request after step 1 needs one again.)
  SimulationOptions options = cpu_options(2);
  options.solver.path_share_queue_length = 200;
  Simulation reference = Simulation::from_file(sample("pillars.json"), options);
  Simulation first = Simulation::from_file(sample("pillars.json"), options);
  const int k = 1;
  while (first.step_index() < k)
    first.step();
  ASSERT_NE(first.crowd_solver(), nullptr);
  EXPECT_GT(first.crowd_solver()->navigator().pending_path_requests(), 200u);
  options.solver.threads = 1;
  Simulation resumed = Simulation::from_file(sample("pillars.json"), options);
  expect_resume_identical(reference, first, resumed, k, k + 30);
}

TEST(SimulationCheckpoint, CrowdWithStuckReplansResumesBitIdentical) {
  // A 1 s stuck time makes replans happen in the pillars' jams before the checkpoint.
  const SimulationOptions options = cpu_options(2, 1.0);
  Simulation reference = Simulation::from_file(sample("pillars.json"), options);
  Simulation first = Simulation::from_file(sample("pillars.json"), options);
  const int k = 80;
  while (first.step_index() < k)
    first.step();
  EXPECT_GT(first.metrics().stuck.replans, 0);
  EXPECT_GT(first.metrics().stuck.stuck_now, 0);
  Simulation resumed = Simulation::from_file(sample("pillars.json"), cpu_options(1, 1.0));
  expect_resume_identical(reference, first, resumed, k, k + 60);
}

TEST(SimulationCheckpoint, AgentsInStandoffsAndMeetingsResumeBitIdentical) {
  // The two groups of six meet around 4 s: at 5 s agents keep to their side of walkers coming
  // at them, some have been blocked a while or are in a manoeuvre; the standoff clocks and
  // partners are saved with the rest of the kernel state, and arrivals by contact follow.
  Simulation reference = Simulation::from_file(sample("head_on_groups.json"), cpu_options(2));
  Simulation first = Simulation::from_file(sample("head_on_groups.json"), cpu_options(2));
  const int k = 50;
  while (first.step_index() < k)
    first.step();
  const AgentArrays& arrays = first.crowd_solver()->arrays();
  EXPECT_TRUE(std::any_of(arrays.standoff_partner.begin(), arrays.standoff_partner.end(),
                          [](std::int32_t p) { return p >= 0; }));
  Simulation resumed = Simulation::from_file(sample("head_on_groups.json"), cpu_options(1));
  expect_resume_identical(reference, first, resumed, k, 600);
  EXPECT_EQ(resumed.metrics().arrived, 12);
}

TEST(SimulationCheckpoint, AFilmShotOnEveryModelResumesBitIdentical) {
  // The film shot's emitters add agents after the checkpoint: they must come in on the model
  // the run was given, and the agents already in keep theirs (saved with their parameters).
  // Under time-to-collision sampling the collider lists and clocks carry over too.
  for (const AvoidanceModel model : {kAvoidanceMass, kAvoidanceOrca, kAvoidanceTtc}) {
    SCOPED_TRACE(model == kAvoidanceMass ? "mass" : (model == kAvoidanceOrca ? "orca" : "ttc"));
    SimulationOptions options = cpu_options(2);
    options.avoidance_model = model;
    Simulation reference = Simulation::from_file(sample("film_shot.json"), options);
    Simulation first = Simulation::from_file(sample("film_shot.json"), options);
    options.solver.threads = 1;
    Simulation resumed = Simulation::from_file(sample("film_shot.json"), options);
    expect_resume_identical(reference, first, resumed, 100, 250);
  }
}

TEST(SimulationCheckpoint, DetourBackendIsRefused) {
  SimulationOptions options;
  options.backend = BackendKind::Detour;
  Simulation sim = Simulation::from_file(sample("film_shot.json"), options);
  ArchiveWriter out;
  try {
    sim.save_checkpoint(out);
    FAIL() << "saved a detour backend";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoints need the cpu or cuda backend"),
              std::string::npos)
        << e.what();
  }
}

TEST(SimulationCheckpoint, CheckpointOfAnotherScenarioIsRefused) {
  Simulation film = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
  film.step();
  ArchiveWriter out;
  film.save_checkpoint(out);
  Simulation other = Simulation::from_file(sample("pillars.json"), cpu_options(1));
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "c.ckpt");
  EXPECT_THROW(other.restore_checkpoint(in), CheckpointError);
}

// An agent's parameters in a damaged checkpoint are refused on restore, naming the agent, as the
// crowd's own record is: the run holds them for agents yet to enter too (the film shot's
// emitter), which would otherwise be refused only when they enter, mid-run.
TEST(SimulationCheckpoint, AnAgentsParametersOutOfRangeAreRefused) {
  Simulation sim = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
  sim.step();
  ArchiveWriter out;
  sim.save_checkpoint(out);
  std::vector<std::uint8_t> bytes(out.bytes().begin(), out.bytes().end());
  // dt, the scenario's agent count, the step, the setups' count; then agent 0's position and
  // goal, and its radius.
  constexpr std::size_t kRadius = 4 + 8 + 4 + 8 + 12 + 12;
  float radius = 0.0f;
  std::memcpy(&radius, bytes.data() + kRadius, sizeof radius);
  ASSERT_EQ(radius, sim.agent_params(0).radius) << "the checkpoint's layout changed";
  const float negative = -1.0f;
  std::memcpy(bytes.data() + kRadius, &negative, sizeof negative);
  Simulation fresh = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
  ArchiveReader in(bytes.data(), bytes.size(), "c.ckpt");
  try {
    fresh.restore_checkpoint(in);
    FAIL() << "restored an agent of radius -1";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("agent 0: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("radius"), std::string::npos) << e.what();
  }
}

TEST(SimulationCheckpoint, TruncatedBodyIsRefusedWithTheOffset) {
  Simulation sim = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
  sim.step();
  ArchiveWriter out;
  sim.save_checkpoint(out);
  for (const std::size_t size : {std::size_t{3}, out.bytes().size() / 2, out.bytes().size() - 1}) {
    Simulation fresh = Simulation::from_file(sample("film_shot.json"), cpu_options(1));
    ArchiveReader in(out.bytes().data(), size, "c.ckpt", 40);
    try {
      fresh.restore_checkpoint(in);
      FAIL() << "restored from " << size << " of " << out.bytes().size() << " bytes";
    } catch (const CheckpointError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("c.ckpt: ", 0), 0u) << message;
      EXPECT_NE(message.find("at byte "), std::string::npos) << message;
    }
  }
}

} // namespace
} // namespace crowd

// `crowd` under mpirun. A build with MPI (CROWD_MPI) splits one run across the ranks
// (host/distributed): the outputs of 1 to 4 ranks are the bytes of a run without mpirun, a bad
// input is said once and stops every rank, and a rank killed outright does not leave the others
// hanging. A build without MPI (host/cli/launcher_ranks.h), started as one of several ranks,
// refuses with one message (rank 0's) and a non-zero exit on every rank, and writes nothing: the
// ranks would otherwise each run the whole scene and write the same files over each other. One
// rank under a launcher is a plain run in both.
#include "tests/cli/cli_runner.h"
#include "tests/support/cuda_device.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace crowd::testing {
namespace {

/// Sets an environment variable for the scope of a test (the CLI inherits it).
class ScopedVariable {
public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() { ::unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
  const char* name_;
};

bool have_mpirun() {
  return run_shell("command -v mpirun").exit_code == 0;
}
constexpr const char* kNoMpirun =
    "no mpirun on this machine (Debian's openmpi-bin, which .ci/setup installs)";

/// Open MPI's mpirun starting `ranks` ranks of what follows. As root in CI containers Open MPI
/// wants both ALLOW variables; --oversubscribe: more ranks than the machine's 2 cores; no
/// single-copy shared memory (ptrace-based CMA, which containers forbid).
std::string mpirun(int ranks) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --oversubscribe -n " +
         std::to_string(ranks) + " ";
}

/// `crowd ARGUMENTS` as `ranks` ranks of mpirun.
CliResult mpirun_cli(int ranks, const std::string& arguments) {
  return run_shell(mpirun(ranks) + CROWD_CLI_PATH + " " + arguments);
}

/// The end of a run's output, for a failure's message.
std::string tail_of(const std::string& text) {
  return text.substr(text.size() > 4000 ? text.size() - 4000 : 0);
}

/// Whether `output` says `what` exactly once: a message every rank would print is rank 0's.
::testing::AssertionResult said_once(const CliResult& r, const std::string& what) {
  const std::size_t said = r.output.find(what);
  if (said == std::string::npos)
    return ::testing::AssertionFailure() << "never said \"" << what << "\":\n" << tail_of(r.output);
  if (r.output.find(what, said + 1) != std::string::npos)
    return ::testing::AssertionFailure() << "said more than once \"" << what << "\":\n"
                                         << tail_of(r.output);
  return ::testing::AssertionSuccess();
}

#if !defined(CROWD_CLI_HAS_MPI)

constexpr const char* kRefusal = "this build has no MPI";

std::string run_circle_into(const std::filesystem::path& out) {
  return "run " + sample("circle.json") + " --backend cpu --steps 5 --quiet --out " + out.string();
}

TEST(CrowdRunUnderMpirun, RankZeroOfSeveralSaysWhyEveryRankStopsAndNothingIsWritten) {
  TempDir dir;
  for (const auto& [size_variable, rank_variable] :
       {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, // Open MPI
        std::pair{"PMI_SIZE", "PMI_RANK"}}) {                      // MPICH, Intel MPI
    const ScopedVariable size(size_variable, "4");
    {
      const ScopedVariable rank(rank_variable, "0");
      const CliResult r = run_cli(run_circle_into(dir / "rank0.csv"));
      EXPECT_EQ(r.exit_code, 2) << r.output;
      EXPECT_NE(r.output.find(kRefusal), std::string::npos) << r.output;
      EXPECT_NE(r.output.find("one of 4 ranks"), std::string::npos) << r.output;
      EXPECT_NE(r.output.find(size_variable), std::string::npos) << r.output;
    }
    const ScopedVariable rank(rank_variable, "3");
    const CliResult r = run_cli(run_circle_into(dir / "rank3.csv"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output, "") << "only rank 0 says why";
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "rank0.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir / "rank3.csv"));
}

TEST(CrowdRunUnderMpirun, OneRankIsAPlainRun) {
  TempDir dir;
  const ScopedVariable size("OMPI_COMM_WORLD_SIZE", "1");
  const ScopedVariable rank("OMPI_COMM_WORLD_RANK", "0");
  const CliResult r = run_cli(run_circle_into(dir / "one.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "one.csv"));
}

TEST(CrowdRunUnderMpirun, TheRealMpirunStopsEveryRank) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  const CliResult r = mpirun_cli(3, run_circle_into(dir / "shot.csv"));
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_TRUE(said_once(r, kRefusal));
  EXPECT_FALSE(std::filesystem::exists(dir / "shot.csv"));
}

#else // CROWD_CLI_HAS_MPI

/// `crowd ARGUMENTS --checkpoint CHECKPOINT --checkpoint-every EVERY` on `ranks` ranks, sent
/// SIGTERM (through mpirun, which passes it to every rank about a second later) once the first
/// checkpoint is written, when every rank is stepping: a farm's scheduler stopping the job (Ctrl-C
/// in a terminal, SIGINT, does the same). In parentheses: run_shell's 2>&1 then takes mpirun's
/// messages too.
CliResult mpirun_cli_stopped_once_checkpointed(int ranks, const std::string& arguments,
                                               const std::filesystem::path& checkpoint, int every) {
  return run_shell("(" + mpirun(ranks) + CROWD_CLI_PATH + " " + arguments + " --checkpoint " +
                   checkpoint.string() + " --checkpoint-every " + std::to_string(every) +
                   " & m=$!; for i in $(seq 600); do [ -e " + checkpoint.string() +
                   " ] && break; sleep 0.05; done; kill -TERM $m; wait $m)");
}

struct MpiRun {
  const char* scenario;
  const char* options; ///< Besides --out, --metrics and the rest the test adds.
  std::vector<const char*> outputs;
  const char* name;
  /// Where set, a JSON object merged into the scenario's `defaults`: the run is of that copy.
  const char* defaults = nullptr;
  /// Options of the runs under mpirun only (the one-process run, without them, is the
  /// reference).
  const char* split_options = "";
};

void PrintTo(const MpiRun& run, std::ostream* out) {
  *out << run.name;
}

class MpiSamples : public ::testing::TestWithParam<MpiRun> {};

/// The run's metrics without what depends on timing.
nlohmann::json metrics_without_timings(const std::filesystem::path& file) {
  nlohmann::json m = nlohmann::json::parse(read_file(file));
  for (const char* timing : {"step_ms_mean", "step_ms_p95", "stage_ms", "host_memory_bytes"})
    m.erase(timing);
  return m;
}

TEST_P(MpiSamples, OneToFourRanksWriteTheBytesOfOneProcess) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  const MpiRun& run = GetParam();
  TempDir dir;
  std::string scenario = sample(run.scenario);
  if (run.defaults != nullptr) {
    nlohmann::json edited = nlohmann::json::parse(read_file(scenario));
    edited["defaults"].merge_patch(nlohmann::json::parse(run.defaults));
    scenario = (dir / run.scenario).string();
    std::ofstream(scenario) << edited.dump();
  }
  const auto command = [&](const std::string& prefix, const std::string& options) {
    std::string line = "run " + scenario + " --backend cpu --threads 1 --quiet " + run.options +
                       " " + options + " --metrics " + (dir / (prefix + "metrics.json")).string();
    for (const char* out : run.outputs)
      line += " --out " + (dir / (prefix + out)).string();
    return line;
  };
  const CliResult alone = run_cli(command("alone-", ""));
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);
  const nlohmann::json alone_metrics = metrics_without_timings(dir / "alone-metrics.json");
  for (int ranks = 1; ranks <= 4; ++ranks) {
    const std::string prefix = std::to_string(ranks) + "-ranks-";
    const CliResult split = mpirun_cli(ranks, command(prefix, run.split_options));
    ASSERT_EQ(split.exit_code, 0) << ranks << " ranks:\n" << tail_of(split.output);
    for (const char* out : run.outputs) {
      const std::string expected = read_file(dir / (std::string("alone-") + out));
      ASSERT_GT(expected.size(), 1000u) << out;
      EXPECT_TRUE(read_file(dir / (prefix + out)) == expected)
          << out << " of " << ranks << " ranks differs from the one-process run's";
    }
    EXPECT_EQ(metrics_without_timings(dir / (prefix + "metrics.json")), alone_metrics)
        << ranks << " ranks";
  }
  // Only the requested files: no rank wrote anything of its own.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
    ++files;
  EXPECT_EQ(files, 5 * (run.outputs.size() + 1) + (run.defaults != nullptr ? 1 : 0));
}

// circle: 100 agents pressed through one point, neighbours across every domain border; film_shot:
// emitters, waypoints and waits, its film exported as USD and CSV at 24 fps; dropped_crate:
// obstacles put down and lifted; links: off-mesh links crossed; accessible_route: agents of
// their own query filter, whose corridors the host follows with Detour; plaza_mesh: a mesh world
// with a ramp, where the navmesh tables leave shortcuts and moves to the host, which answers
// them on every rank from the rows their owners send (without those rows the ranks part ways);
// two_door_room_ttc: the time-to-collision model steering by its corridor, whose avoidance reads
// the agent's corridor row, lent by the rank that holds it to the agent's owner where the
// corridor phases' domains differ from the split stages' (without it the ranks differ).
// The *_sorted runs sort the agents' rows by place every 3 steps (--sort-rows) under mpirun
// only: the split names agents by id and finds their rows, in whatever order, through
// AgentArrays::row_of (agents entering from emitters, rows the host answers for, corridor rows
// lent to an owner, neighbours across domain borders).
INSTANTIATE_TEST_SUITE_P(
    MpiRuns, MpiSamples,
    ::testing::Values(
        MpiRun{"circle.json", "--steps 150", {"trajectory.csv"}, "circle"},
        MpiRun{"film_shot.json", "--steps 240 --fps 24", {"shot.usda", "shot.csv"}, "film_shot"},
        MpiRun{"dropped_crate.json", "--steps 250", {"trajectory.csv"}, "dropped_crate"},
        MpiRun{"links.json", "--steps 200", {"trajectory.csv"}, "links"},
        MpiRun{"accessible_route.json", "--steps 200", {"trajectory.csv"}, "accessible_route"},
        MpiRun{"plaza_mesh.json", "--steps 300", {"trajectory.csv"}, "plaza_mesh"},
        MpiRun{"two_door_room.json",
               "--steps 200",
               {"trajectory.csv"},
               "two_door_room_ttc",
               R"({"avoidance": {"model": "ttc", "reference": "corridor"}})"},
        MpiRun{"film_shot.json",
               "--steps 240 --fps 24",
               {"shot.usda", "shot.csv"},
               "film_shot_sorted",
               nullptr,
               "--sort-rows 3"},
        MpiRun{"plaza_mesh.json",
               "--steps 300",
               {"trajectory.csv"},
               "plaza_mesh_sorted",
               nullptr,
               "--sort-rows 3"},
        MpiRun{"two_door_room.json",
               "--steps 200",
               {"trajectory.csv"},
               "two_door_room_ttc_sorted",
               R"({"avoidance": {"model": "ttc", "reference": "corridor"}})",
               "--sort-rows 3"}),
    [](const ::testing::TestParamInfo<MpiRun>& param) { return std::string(param.param.name); });

TEST(CrowdRunUnderMpirun, PathTreesBuiltAcrossRanksGiveTheBytesOfOneProcess) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  // 2,000 agents wait for their first path at once: past path_share_queue_length (1,024), so
  // their paths come from shared trees, which the ranks build a share of each and exchange.
  const CliResult scene =
      run_cli("bench --agents 2000 --steps 1 --backends cpu --write-scenes " + dir.path().string());
  ASSERT_EQ(scene.exit_code, 0) << tail_of(scene.output);
  const std::string run = "run " + (dir / "bench_2000.json").string() +
                          " --backend cpu --threads 1 --steps 12 --metrics ";
  const auto out = [&](const std::string& name) {
    return (dir / (name + ".json")).string() + " --out " + (dir / (name + ".csv")).string();
  };
  const CliResult alone = run_cli(run + out("alone") + " --quiet");
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);
  for (const int ranks : {2, 3}) {
    const std::string name = std::to_string(ranks) + "-ranks";
    const CliResult split = mpirun_cli(ranks, run + out(name));
    ASSERT_EQ(split.exit_code, 0) << tail_of(split.output);
    EXPECT_TRUE(read_file(dir / (name + ".csv")) == read_file(dir / "alone.csv")) << name;
    EXPECT_EQ(metrics_without_timings(dir / (name + ".json")),
              metrics_without_timings(dir / "alone.json"))
        << name;
    const std::size_t at = split.output.find(" path trees built on one rank for all");
    ASSERT_NE(at, std::string::npos) << tail_of(split.output);
    const std::size_t number = split.output.rfind(' ', at - 1);
    EXPECT_GT(std::stoll(split.output.substr(number + 1, at - number - 1)), 0)
        << "no tree was shared:\n"
        << tail_of(split.output);
  }
}

TEST(CrowdRunUnderMpirun, RanksLeftWithNoAgentsStillWriteTheBytesOfOneProcess) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  // Two agents swapping corners, on four ranks: two domains hold no agent.
  const std::filesystem::path scenario = dir / "two.json";
  std::ofstream(scenario) << R"({"dt": 0.1, "duration": 12, "world": {"bounds": [[0, 0], [10, 10]]},
    "agents": [{"position": [1, 0, 1], "goal": [9, 0, 9]}, {"position": [9, 0, 9], "goal": [1, 0, 1]}]})";
  const std::string run = "run " + scenario.string() + " --backend cpu --threads 1 --quiet --out ";
  const CliResult alone = run_cli(run + (dir / "alone.csv").string());
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);
  const CliResult split = mpirun_cli(4, run + (dir / "split.csv").string());
  ASSERT_EQ(split.exit_code, 0) << tail_of(split.output);
  EXPECT_TRUE(read_file(dir / "split.csv") == read_file(dir / "alone.csv"));
}

TEST(CrowdRunUnderMpirun, ABadScenarioIsSaidOnceAndStopsEveryRank) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  const std::filesystem::path scenario = dir / "bad.json";
  std::ofstream(scenario) << R"({"dt": 0.1, "duration": 1, "world": {"size": [10, 10]},
    "agents": [{"position": [1, 0, 1], "goal": [9, 0, 9], "radius": -1}]})";
  const CliResult r = mpirun_cli(3, "run " + scenario.string() + " --backend cpu --out " +
                                        (dir / "t.csv").string());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_TRUE(said_once(r, "bad.json"));
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));
}

TEST(CrowdRunUnderMpirun, RanksGivenDifferentInputsSaySoOnceAndWriteNothing) {
  // A farm's machines that do not hold the same copy of the shot: rank 1 reads a scenario whose
  // agents stand 1 cm further out. Each would simulate another crowd, and the ranks part ways
  // mid-run; the setup finds it, and says so once. The same for a resume from checkpoints
  // that are not the same.
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  nlohmann::json scenario = nlohmann::json::parse(read_file(sample("circle.json")));
  std::ofstream(dir / "a.json") << scenario.dump();
  scenario["groups"][0]["spawn"]["circle"]["radius"] = 20.01;
  std::ofstream(dir / "b.json") << scenario.dump();
  const auto rank_runs = [&](const char* file, const std::string& also) {
    return std::string(CROWD_CLI_PATH) + " run " + (dir / file).string() +
           " --backend cpu --threads 1 --steps 20 " + also;
  };
  const std::string refusal = "the ranks read different inputs";
  const std::string out = " --out " + (dir / "t.csv").string();
  const CliResult run =
      run_shell(mpirun(1) + rank_runs("a.json", out) + " : -n 1 " + rank_runs("b.json", out));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(said_once(run, refusal));
  EXPECT_NE(run.output.find("a.json"), std::string::npos) << "names the file:\n" << run.output;
  EXPECT_EQ(run.output.find("parted ways"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));

  for (const char* file : {"a.json", "b.json"}) {
    const std::string checkpoint = (dir / (std::string(file) + ".ckpt")).string();
    ASSERT_EQ(run_cli("run " + (dir / file).string() + " --backend cpu --quiet --steps 20 " +
                      "--checkpoint " + checkpoint + " --checkpoint-every 5 --out " +
                      (dir / (std::string(file) + ".csv")).string())
                  .exit_code,
              0);
  }
  // Each checkpoint is of a complete run: its resume checks and stops at once, alike.
  const CliResult resumed =
      run_shell(mpirun(1) + CROWD_CLI_PATH + " resume " + (dir / "a.json.ckpt").string() +
                " : -n 1 " + CROWD_CLI_PATH + " resume " + (dir / "b.json.ckpt").string());
  EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
  EXPECT_TRUE(said_once(resumed, refusal));
}

TEST(CrowdRunUnderMpirun, AKilledRankStopsTheOthersAndLeavesNoOutput) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  const std::string out = (dir / "t.csv").string();
  // This run's ranks, and no other test's (ctest runs tests side by side): their command line
  // names this test's own output.
  const std::string ranks = "'^" + std::string(CROWD_CLI_PATH) + " run .*" + out + "'";
  // A run far longer than the test; once its 3 ranks are stepping, the newest is killed
  // outright (SIGKILL: no handler runs). mpirun must then end the others, and the requested
  // output must not appear: its temporary stays hidden.
  const CliResult r = run_shell(
      mpirun(3) + CROWD_CLI_PATH + " run " + sample("circle.json") +
      " --backend cpu --threads 1 --quiet --steps 1000000 --out " + out + " > " +
      (dir / "log").string() + " 2>&1 & m=$!; for i in $(seq 300); do [ \"$(pgrep -c -f " + ranks +
      ")\" -ge 3 ] && break; sleep 0.1; done; sleep 2; pkill -KILL -n -f " + ranks +
      "; timeout 60 tail --pid=$m -f /dev/null; if kill -0 $m 2>/dev/null; then "
      "echo HUNG; kill -KILL $m; fi; wait $m; echo \"mpirun exit $?\"");
  EXPECT_EQ(r.output.find("HUNG"), std::string::npos) << r.output << read_file(dir / "log");
  EXPECT_EQ(r.output.find("mpirun exit 0"), std::string::npos) << r.output;
  EXPECT_EQ(run_shell("pgrep -f " + ranks).exit_code, 1) << "no rank left running";
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CrowdRunUnderMpirun, ASignalToMpirunStopsEveryRankAtOneStepAndAnotherRankCountResumes) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  const std::string run = "run " + sample("circle.json") +
                          " --backend cpu --threads 1 --quiet --steps 20000 --every 100 --out ";
  const CliResult alone = run_cli(run + (dir / "alone.csv").string());
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);

  // Stopped some thousands of steps after the first checkpoint (step 500): the run is long
  // enough to be stopped well before its end.
  const CliResult interrupted = mpirun_cli_stopped_once_checkpointed(
      3, run + (dir / "split.csv").string(), dir / "run.ckpt", 500);
  ASSERT_TRUE(said_once(interrupted, "interrupted by SIGTERM at step "));
  ASSERT_TRUE(std::filesystem::exists(dir / "run.ckpt")) << tail_of(interrupted.output);

  // Resumed on 2 ranks, the trajectory is the uninterrupted one-process run's.
  const CliResult resumed = mpirun_cli(2, "resume " + (dir / "run.ckpt").string() + " --quiet");
  ASSERT_EQ(resumed.exit_code, 0) << tail_of(resumed.output);
  EXPECT_TRUE(read_file(dir / "split.csv") == read_file(dir / "alone.csv"))
      << "interrupted on 3 ranks and resumed on 2, the trajectory differs from one process's";
}

TEST(CrowdRunUnderMpirun, ACheckpointOfThreeRanksHoldsEveryRanksStateAndResumesAlone) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  TempDir dir;
  // A ring corridor (world.periodic) where two flows walk through each other for ever on the
  // time-to-collision model: whenever the run is stopped, agents carry state from step to step
  // (the model's clocks and collider lists, standoff clocks) that each rank keeps of its own
  // agents only; the checkpoint must gather it from every rank.
  const std::filesystem::path scenario = dir / "ring.json";
  std::ofstream(scenario) << R"({"dt": 0.1, "duration": 2000, "seed": 3,
    "world": {"bounds": [[0, 0], [30, 4]], "periodic": "x"},
    "defaults": {"radius": 0.3, "max_speed": 1.3},
    "groups": [
      {"count": 24, "spawn": {"rect": [[1, 0.4], [29, 3.6]]}, "goal": {"point": [40, 2]}},
      {"count": 24, "spawn": {"rect": [[1, 0.4], [29, 3.6]]}, "goal": {"point": [-10, 2]}}]})";
  const std::string run = "run " + scenario.string() +
                          " --backend cpu --threads 1 --quiet --avoidance ttc --every 50 --out ";
  const CliResult alone = run_cli(run + (dir / "alone.csv").string());
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);
  const CliResult interrupted = mpirun_cli_stopped_once_checkpointed(
      3, run + (dir / "split.csv").string(), dir / "run.ckpt", 300);
  ASSERT_NE(interrupted.output.find("interrupted by SIGTERM at step "), std::string::npos)
      << tail_of(interrupted.output);

  // Resumed by one process, which reads every agent's state from the file alone.
  const CliResult resumed = run_cli("resume " + (dir / "run.ckpt").string() + " --quiet");
  ASSERT_EQ(resumed.exit_code, 0) << tail_of(resumed.output);
  EXPECT_TRUE(read_file(dir / "split.csv") == read_file(dir / "alone.csv"))
      << "a checkpoint of 3 ranks, resumed alone, gives another trajectory than one process's";
}

#if defined(CROWD_HAS_CUDA)

/// As mpirun_cli, but each rank starts in a directory of its own under `dir` (rank0, rank1,
/// ...) that links the GPGPU-Sim configuration of this one (none on a real GPU): the simulator
/// extracts each process's PTX under fixed names into its working directory, where two ranks
/// sharing one read each other's half-written files now and then.
CliResult mpirun_cli_each_in_own_directory(int ranks, const std::filesystem::path& dir,
                                           const std::string& arguments) {
  for (int r = 0; r < ranks; ++r) {
    const std::filesystem::path own = dir / ("rank" + std::to_string(r));
    std::filesystem::create_directories(own);
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::current_path()))
      if (entry.path().filename() == "gpgpusim.config" || entry.path().extension() == ".icnt")
        std::filesystem::create_symlink(entry.path(), own / entry.path().filename());
  }
  return run_shell(mpirun(ranks) + "sh -c 'cd \"$0/rank$OMPI_COMM_WORLD_RANK\" && exec \"$@\"' " +
                   dir.string() + " " + CROWD_CLI_PATH + " " + arguments);
}

TEST(CudaCrowdRunUnderMpirun, TwoRanksEachOnItsGpuWriteTheBytesOfOneCpuProcess) {
  // One GPU per rank (a rank's local rank picks its device among the node's): the cuda backend
  // split across 2 ranks, against the cpu backend alone. Under GPGPU-Sim in CI (bash
  // .ci/gpu-sim), where both ranks share the one simulated device and inherit its environment.
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  TempDir dir;
  const std::string run = "run " + sample("circle.json") + " --steps " +
                          std::to_string(test::size_for_device(300, 12)) + " --out ";
  const CliResult alone = run_cli(run + (dir / "cpu.csv").string() + " --backend cpu --quiet");
  ASSERT_EQ(alone.exit_code, 0) << tail_of(alone.output);
  const CliResult split = mpirun_cli_each_in_own_directory(
      2, dir.path(), run + (dir / "cuda.csv").string() + " --backend cuda");
  ASSERT_EQ(split.exit_code, 0) << tail_of(split.output);
  EXPECT_NE(split.output.find("backend cuda"), std::string::npos) << tail_of(split.output);
  EXPECT_NE(split.output.find("split across 2 ranks"), std::string::npos) << tail_of(split.output);
  EXPECT_TRUE(read_file(dir / "cuda.csv") == read_file(dir / "cpu.csv"))
      << "2 ranks on the cuda backend differ from one process on the cpu backend";
}

#endif // CROWD_HAS_CUDA

TEST(CrowdRunUnderMpirun, RanksOfOneMachineShareItsCoresUnlessToldHowManyThreads) {
  // `mpirun -n 4 crowd run` on one node, without --threads: each rank took every core, four
  // threads to a core. Each now takes its share; --threads still says exactly.
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  const auto threads_of_rank_0 = [](const CliResult& r) {
    const std::string said = "rank 0 ran on ";
    const std::size_t at = r.output.find(said);
    return at == std::string::npos ? -1 : std::stoi(r.output.substr(at + said.size()));
  };
  const std::string run = "run " + sample("circle.json") + " --backend cpu --steps 5";
  const CliResult shared = mpirun_cli(2, run);
  ASSERT_EQ(shared.exit_code, 0) << tail_of(shared.output);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int threads = threads_of_rank_0(shared);
  EXPECT_GE(threads, 1) << tail_of(shared.output);
  EXPECT_LE(threads, std::max(1, cores / 2)) << "2 ranks on " << cores << " cores";
  // The same line says what rank 0's memory came to, for sizing a farm's jobs.
  const std::size_t peak = shared.output.find(" and peaked at ");
  ASSERT_NE(peak, std::string::npos) << tail_of(shared.output);
  EXPECT_GT(std::stod(shared.output.substr(peak + 15)), 0.0) << tail_of(shared.output);
  const CliResult told = mpirun_cli(2, run + " --threads 3");
  ASSERT_EQ(told.exit_code, 0) << tail_of(told.output);
  EXPECT_EQ(threads_of_rank_0(told), 3) << tail_of(told.output);
}

TEST(CrowdRunUnderMpirun, CommandsThatDoNotSplitSaySoOnce) {
  if (!have_mpirun())
    GTEST_SKIP() << kNoMpirun;
  const CliResult r = mpirun_cli(2, "bench --agents 100 --steps 2 --backends cpu");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_TRUE(said_once(r, "crowd bench does not split across MPI ranks"));
}

#endif // CROWD_CLI_HAS_MPI

} // namespace
} // namespace crowd::testing

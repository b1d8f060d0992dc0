// `crowd run`'s command line: numbers out of range, output names with no known format, options
// that would be ignored, and --quiet. Each refusal is one line on stderr, exit 2, and no file.
#include "tests/cli/cli_runner.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <thread>

namespace crowd::testing {
namespace {

/// One line (the trailing newline aside).
bool one_line(const std::string& text) {
  const std::size_t newline = text.find('\n');
  return newline == std::string::npos || newline + 1 == text.size();
}

struct Refusal {
  const char* arguments; ///< After `run circle.json --steps 2`; {dir} is the temp directory.
  const char* expected;  ///< In the message.
};

void PrintTo(const Refusal& refusal, std::ostream* out) {
  *out << refusal.arguments;
}

class CrowdRunRefuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(CrowdRunRefuses, WithOneLineAndExitTwoAndWritesNothing) {
  TempDir dir;
  std::string arguments = GetParam().arguments;
  for (std::size_t at = arguments.find("{dir}"); at != std::string::npos;
       at = arguments.find("{dir}"))
    arguments.replace(at, 5, dir.path().string());
  const CliResult r = run_cli("run " + sample("circle.json") + " --steps 2 " + arguments);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(one_line(r.output)) << r.output;
  EXPECT_EQ(r.output.rfind("error: ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find(GetParam().expected), std::string::npos) << r.output;
  EXPECT_LT(r.output.size(), 400u) << "no 309-digit ranges: " << r.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a refused run writes nothing";
}

INSTANTIATE_TEST_SUITE_P(
    BadOptions, CrowdRunRefuses,
    ::testing::Values(
        Refusal{"--fps 0 --out {dir}/s.usda", "--fps: must be a number > 0, got '0'"},
        Refusal{"--fps -24 --out {dir}/s.usda", "--fps: must be a number > 0, got '-24'"},
        Refusal{"--fps abc --out {dir}/s.usda", "--fps: must be a number > 0, got 'abc'"},
        Refusal{"--fps inf --out {dir}/s.usda", "--fps: must be a number > 0, got 'inf'"},
        Refusal{"--steps -1", "--steps: must be a whole number in [0, 2147483647], got '-1'"},
        Refusal{"--steps 1.5", "--steps: must be a whole number"},
        Refusal{"--threads x", "--threads: must be a whole number"},
        Refusal{"--every 0 --out {dir}/t.csv", "--every: must be a whole number in [1, "},
        Refusal{"--max-neighbors 1000", "--max-neighbors: must be a whole number in [0, 256]"},
        Refusal{"--out {dir}/shot.abc", "unknown extension .abc"},
        Refusal{"--avoidance orca --backend detour",
                "--avoidance orca: the detour backend runs DetourCrowd"},
        Refusal{"--avoidance rvo", "--avoidance: rvo not in {detour,ttc,mass,orca}"},
        Refusal{"--sort-rows 5 --backend detour", "--sort-rows: the detour backend keeps"},
        Refusal{"--sort-rows -1", "--sort-rows: must be a whole number in [0, "},
        Refusal{"--out {dir}/shot", "no extension"},
        Refusal{"--out {dir}/shot.usdz", "name the file .usda"},
        Refusal{"--out {dir}/t.csv --out {dir}/t.csv", "is given twice"},
        Refusal{"--out {dir}/t.csv --out {dir}/./t.csv", "is given twice"},
        Refusal{"--every 5 --fps 24 --out {dir}/f.csv",
                "--every 5 applies to per-step .csv outputs, and there is none (with --fps"},
        Refusal{"--every 5 --out {dir}/s.usda", "applies to per-step .csv outputs"}),
    [](const ::testing::TestParamInfo<Refusal>& param) {
      return "case" + std::to_string(param.index);
    });

TEST(CrowdRunOptions, ExtensionsAreCaseInsensitive) {
  TempDir dir;
  const CliResult r =
      run_cli("run " + sample("circle.json") + " --steps 2 --quiet --out " +
              (dir / "T.CSV").string() + " --fps 24 --out " + (dir / "S.USDA").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "T.CSV"));
  EXPECT_TRUE(std::filesystem::exists(dir / "S.USDA"));
}

TEST(CrowdRunOptions, QuietPrintsNoProgressAndNoSummaryEvenOnALongRun) {
  // 2,000 agents on one thread for 60 steps: several seconds, past the progress line's first
  // two silent seconds. stderr is a pipe here, as in a farm's log.
  TempDir dir;
  const CliResult r =
      run_cli("run " + sample("pillars.json") +
              " --backend cpu --threads 1 --steps 60 --quiet --out " + (dir / "t.csv").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
}

/// The threads process `pid` has now (/proc/PID/status), 0 when it cannot be read.
int threads_of(pid_t pid) {
  std::istringstream status(read_file("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Threads:", 0) == 0)
      return std::stoi(line.substr(8));
  return 0;
}

TEST(CrowdRunOptions, ThreadsBoundsEveryThreadOfTheRunNotTheSolversAlone) {
  // A farm gives a job N cores, or under mpirun each rank its share of them, with --threads:
  // the observers, the schedule and the outputs must keep to it as the solver's stages do.
  // They once ran on every core: two threads for --threads 1 here.
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "one core: a run cannot take more than --threads 1 here";
  TempDir dir;
  const auto csv = dir / "t.csv";
  const pid_t pid = start_cli({"run", sample("pillars.json"), "--backend", "cpu", "--threads", "1",
                               "--steps", "1000000", "--quiet", "--out", csv.string()},
                              dir / "log");
  ASSERT_GT(pid, 0);
  // Stepping, its observers run (2,000 agents: ~90 kB a frame); then a second of samples.
  wait_for_temporary(csv, 300000, 120);
  int most = 0;
  for (int sample = 0; sample < 50; ++sample) {
    most = std::max(most, threads_of(pid));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  wait_for_child(pid, 60);
  ASSERT_GE(temporary_size(csv), 300000u) << read_file(dir / "log");
  EXPECT_EQ(most, 1) << "crowd run --threads 1 ran on " << most << " threads";
}

TEST(CrowdRunOptions, ResumingACompleteRunSaysSoAndChangesNothing) {
  TempDir dir;
  const std::string run = "run " + sample("circle.json") + " --steps 30 --quiet --out " +
                          (dir / "t.csv").string() + " --checkpoint " + (dir / "c.ckpt").string() +
                          " --checkpoint-every 10";
  ASSERT_EQ(run_cli(run).exit_code, 0);
  const std::string trajectory = read_file(dir / "t.csv");
  const CliResult r = run_cli("resume " + (dir / "c.ckpt").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the run is already complete: all 30 steps were run"), std::string::npos)
      << r.output;
  EXPECT_TRUE(one_line(r.output)) << r.output;
  EXPECT_EQ(read_file(dir / "t.csv"), trajectory);
}

} // namespace
} // namespace crowd::testing

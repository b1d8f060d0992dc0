// `crowd run --checkpoint` then `crowd resume`: a run killed (SIGKILL) or interrupted (SIGINT)
// and resumed writes the same bytes to every output as the uninterrupted run, and the same
// metrics apart from wall times; a checkpoint that cannot be used is refused with one line.
#include "tests/cli/cli_runner.h"

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace crowd::testing {
namespace {

/// The run's arguments writing into `dir`: 2,000 agents (pillars.json) on one thread, slow
/// enough that the run is still going when the test has seen its first checkpoint line.
std::vector<std::string> run_arguments(const TempDir& dir) {
  return {"run",
          sample("pillars.json"),
          "--backend",
          "cpu",
          "--threads",
          "1",
          "--steps",
          "60",
          "--fps",
          "12",
          "--out",
          (dir / "t.csv").string(),
          "--out",
          (dir / "s.usda").string(),
          "--out",
          (dir / "s.json").string(),
          "--metrics",
          (dir / "m.json").string(),
          "--checkpoint",
          (dir / "c.ckpt").string(),
          "--checkpoint-every",
          "20",
          "--quiet"};
}

std::string joined(const std::vector<std::string>& arguments) {
  std::string line;
  for (const std::string& a : arguments)
    line += (line.empty() ? "" : " ") + a;
  return line;
}

/// Metrics without the keys that measure wall time or memory, and without "interrupted".
nlohmann::json comparable_metrics(const std::filesystem::path& file) {
  nlohmann::json m = nlohmann::json::parse(read_file(file));
  for (const char* key :
       {"step_ms_mean", "step_ms_p95", "stage_ms", "host_memory_bytes", "interrupted"})
    m.erase(key);
  return m;
}

/// Starts the run and waits for its first checkpoint line (step 20); then, when
/// `past_checkpoint`, until the trajectory has grown beyond what the checkpoint recorded
/// (film frames at 12 fps), so that resume must cut it back. Sends `signal_number` and returns
/// the wait status.
int run_until_checkpoint_then(int signal_number, const TempDir& dir, bool past_checkpoint) {
  const auto log = dir / "log.txt";
  const pid_t pid = start_cli(run_arguments(dir), log);
  EXPECT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (read_file(log).find("checkpoint at step 20") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const std::uintmax_t at_checkpoint = temporary_size(dir / "t.csv");
  while (past_checkpoint && temporary_size(dir / "t.csv") == at_checkpoint &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(pid, signal_number);
  const std::optional<int> status = wait_for_child(pid, 120);
  EXPECT_TRUE(status.has_value()) << "the run did not end within two minutes of the signal";
  return status.value_or(0);
}

class CrowdResume : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    reference_ = new TempDir;
    const CliResult r = run_cli(joined(run_arguments(*reference_)));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    delete reference_;
    reference_ = nullptr;
  }

  static void expect_same_outputs(const TempDir& resumed) {
    for (const char* name : {"t.csv", "s.usda", "s.json"})
      EXPECT_TRUE(read_file(resumed / name) == read_file(*reference_ / name))
          << name << " differs from the uninterrupted run's";
    EXPECT_EQ(comparable_metrics(resumed / "m.json"), comparable_metrics(*reference_ / "m.json"));
    // Nothing is left behind: no temporaries, no kept streams.
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(resumed.path()))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"c.ckpt", "log.txt", "m.json", "s.json", "s.usda",
                                               "t.csv"}));
  }

  static TempDir* reference_;
};
TempDir* CrowdResume::reference_ = nullptr;

TEST_F(CrowdResume, AfterSigkillOutputsAreByteIdenticalToTheUninterruptedRun) {
  TempDir dir;
  const int status = run_until_checkpoint_then(SIGKILL, dir, true);
  ASSERT_TRUE(WIFSIGNALED(status))
      << "the run ended before the kill: " << read_file(dir / "log.txt");
  // Killed: nothing under the requested names, the temporaries hold more than the checkpoint.
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));
  const CliResult r = run_cli("resume " + (dir / "c.ckpt").string() + " --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("resuming "), std::string::npos) << r.output;
  expect_same_outputs(dir);
}

TEST_F(CrowdResume, AfterSigintOutputsAreByteIdenticalToTheUninterruptedRun) {
  TempDir dir;
  const int status = run_until_checkpoint_then(SIGINT, dir, false);
  ASSERT_TRUE(WIFEXITED(status)) << read_file(dir / "log.txt");
  ASSERT_EQ(WEXITSTATUS(status), 130) << read_file(dir / "log.txt");
  const std::string log = read_file(dir / "log.txt");
  EXPECT_NE(log.find("continue with: crowd resume"), std::string::npos) << log;
  EXPECT_NE(log.find("for crowd resume"), std::string::npos) << log; // the kept USD/JSON streams
  // Interrupted: every output was finished with the steps run.
  EXPECT_TRUE(std::filesystem::exists(dir / "t.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "s.usda"));
  const CliResult r = run_cli("resume " + (dir / "c.ckpt").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_same_outputs(dir);
}

TEST_F(CrowdResume, AKilledRunWhoseFilmStreamIsGoneIsRefused) {
  TempDir dir;
  const int status = run_until_checkpoint_then(SIGKILL, dir, false);
  ASSERT_TRUE(WIFSIGNALED(status))
      << "the run ended before the kill: " << read_file(dir / "log.txt");
  // The shot's per-attribute streams, deleted (as a clean-up script might).
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename().string().rfind(".s.usda.", 0) == 0)
      std::filesystem::remove(e.path());
  const CliResult r = run_cli("resume " + (dir / "c.ckpt").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("error: " + (dir / "c.ckpt").string() + ": ", 0), 0u) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_NE(r.output.find("cannot resume film export " + (dir / "s.usda").string()),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("is missing"), std::string::npos) << r.output;
}

/// A small run that completes, leaving its checkpoint of the last step.
class CrowdResumeRefusal : public ::testing::Test {
protected:
  void SetUp() override {
    std::filesystem::copy_file(sample("film_shot.json"), scenario_);
    const CliResult r = run_cli("run " + scenario_.string() + " --backend cpu --steps 30 --out " +
                                (dir_ / "t.csv").string() + " --checkpoint " + ckpt_.string() +
                                " --checkpoint-every 10 --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  /// Resumes; expects exit 2 and exactly one line, "error: <checkpoint>: ...".
  std::string refusal() const {
    const CliResult r = run_cli("resume " + ckpt_.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output.rfind("error: " + ckpt_.string() + ": ", 0), 0u) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    return r.output;
  }
  void overwrite(const std::string& bytes) const {
    std::ofstream(ckpt_, std::ios::binary | std::ios::trunc) << bytes;
  }

  TempDir dir_;
  std::filesystem::path scenario_ = dir_ / "shot.json";
  std::filesystem::path ckpt_ = dir_ / "c.ckpt";
};

TEST_F(CrowdResumeRefusal, ACompleteRunIsNotResumedAgain) {
  const std::string whole = read_file(dir_ / "t.csv");
  const CliResult r = run_cli("resume " + ckpt_.string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the run is already complete"), std::string::npos) << r.output;
  EXPECT_TRUE(read_file(dir_ / "t.csv") == whole);
}

TEST_F(CrowdResumeRefusal, TruncatedFile) {
  const std::string whole = read_file(ckpt_);
  overwrite(whole.substr(0, whole.size() / 2));
  EXPECT_NE(refusal().find("damaged: truncated at byte " + std::to_string(whole.size() / 2)),
            std::string::npos);
}

TEST_F(CrowdResumeRefusal, FlippedByte) {
  std::string bytes = read_file(ckpt_);
  bytes[bytes.size() * 2 / 3] ^= 0x01;
  overwrite(bytes);
  EXPECT_NE(refusal().find("damaged: the checksum"), std::string::npos);
}

TEST_F(CrowdResumeRefusal, WrongMagic) {
  std::string bytes = read_file(ckpt_);
  bytes[0] = 'X';
  overwrite(bytes);
  EXPECT_NE(refusal().find("not a crowd checkpoint"), std::string::npos);
}

TEST_F(CrowdResumeRefusal, AnotherVersion) {
  std::string bytes = read_file(ckpt_);
  const auto at = bytes.find("crowd ");
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 6, "crawd "); // the build version in the header (not under the checksum)
  overwrite(bytes);
  EXPECT_NE(refusal().find("written by crawd "), std::string::npos);
}

TEST_F(CrowdResumeRefusal, ScenarioEditedAfterTheCheckpoint) {
  std::ofstream(scenario_, std::ios::app) << "\n";
  EXPECT_NE(refusal().find(scenario_.string() + " changed since the checkpoint was written"),
            std::string::npos);
}

TEST_F(CrowdResumeRefusal, ACompleteFilmShotIsNotResumedAgain) {
  // Once the run completed, its shot was assembled and its streams are gone: resume says the
  // run is complete instead of looking for them.
  const CliResult run = run_cli("run " + scenario_.string() + " --backend cpu --steps 30 --out " +
                                (dir_ / "s.usda").string() + " --checkpoint " + ckpt_.string() +
                                " --checkpoint-every 10 --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string shot = read_file(dir_ / "s.usda");
  const CliResult r = run_cli("resume " + ckpt_.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, ckpt_.string() +
                          ": the run is already complete: all 30 steps were run "
                          "and its outputs written (" +
                          (dir_ / "s.usda").string() + ")\n");
  EXPECT_TRUE(read_file(dir_ / "s.usda") == shot);
}

TEST(CrowdRunCheckpoint, DetourBackendIsRefusedAtTheStart) {
  TempDir dir;
  const CliResult r =
      run_cli("run " + sample("film_shot.json") + " --backend detour --steps 5 --checkpoint " +
              (dir / "c.ckpt").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("checkpoints need the cpu or cuda backend"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "c.ckpt"));
}

TEST(CrowdRunCheckpoint, CheckpointEveryNeedsACheckpointFile) {
  const CliResult r =
      run_cli("run " + sample("film_shot.json") + " --steps 5 --checkpoint-every 2");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--checkpoint-every needs --checkpoint FILE"), std::string::npos)
      << r.output;
}

} // namespace
} // namespace crowd::testing

// host/cli/launcher_ranks.h: this build has no MPI, so started by mpirun as one of several
// ranks, `crowd` refuses with one message (rank 0's) and a non-zero exit on every rank, and
// writes nothing: the ranks would otherwise each run the whole scene and write the same files
// over each other. One rank under a launcher is a plain run.
#include "tests/cli/cli_runner.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace crowd::testing {
namespace {

constexpr const char* kRefusal = "this build has no MPI";

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
  if (run_shell("command -v mpirun").exit_code != 0)
    GTEST_SKIP() << "no mpirun on this machine (Debian's openmpi-bin, which .ci/setup installs)";
  TempDir dir;
  // As root in CI containers Open MPI wants both of these; --oversubscribe: 3 ranks on 2 cores.
  const CliResult r = run_shell(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -n 3 " +
      std::string(CROWD_CLI_PATH) + " " + run_circle_into(dir / "shot.csv"));
  EXPECT_NE(r.exit_code, 0) << r.output;
  const std::size_t said = r.output.find(kRefusal);
  EXPECT_NE(said, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(kRefusal, said + 1), std::string::npos) << "said once:\n" << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "shot.csv"));
}

} // namespace
} // namespace crowd::testing

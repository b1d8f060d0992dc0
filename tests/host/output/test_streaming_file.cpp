// Files written piece by piece under a temporary name and renamed into place when complete.
#include "host/output/streaming_file.h"
#include "tests/cli/cli_runner.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

using testing::read_file;
using testing::TempDir;

TEST(StreamingFile, EveryAppendIsInTheTemporaryFileAtOnceAndNothingUnderTheName) {
  // What a process killed outright (SIGKILL) leaves: the temporary file with every append.
  TempDir dir;
  StreamingFile file(dir / "out.csv", "test output");
  file.append("header\n");
  file.append("row 1\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.csv"));
  EXPECT_EQ(file.temporary_path().parent_path(), dir.path());
  EXPECT_EQ(file.temporary_path().filename().string().rfind(".out.csv.tmp", 0), 0u);
  EXPECT_EQ(read_file(file.temporary_path()), "header\nrow 1\n");
  file.commit();
  EXPECT_EQ(read_file(dir / "out.csv"), "header\nrow 1\n");
  EXPECT_FALSE(std::filesystem::exists(file.temporary_path()));
  EXPECT_THROW(file.append("late"), std::runtime_error);
}

TEST(StreamingFile, AbandonedFileLeavesNothing) {
  TempDir dir;
  {
    StreamingFile file(dir / "out.csv", "test output");
    file.append("partial");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(StreamingFile, MissingDirectoryIsAnErrorNamingTheFile) {
  TempDir dir;
  try {
    StreamingFile file(dir / "missing" / "out.csv", "test output");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("test output: cannot create"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("out.csv"), std::string::npos);
  }
}

} // namespace
} // namespace crowd

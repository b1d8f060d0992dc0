// Files written piece by piece under a temporary name and renamed into place when complete.
#include "host/checkpoint/archive.h"
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

/// A stream with "head\n" saved at a checkpoint and "tail\n" written after it.
struct SavedStream {
  ArchiveWriter checkpoint;
  std::filesystem::path temporary;
};
SavedStream save_then_write_more(StreamingFile& file) {
  SavedStream saved;
  file.append("head\n");
  file.save(saved.checkpoint);
  file.append("tail\n");
  saved.temporary = file.temporary_path();
  return saved;
}

TEST(StreamingFileCheckpoint, KilledRunsTemporaryIsContinuedFromTheCheckpoint) {
  TempDir dir;
  StreamingFile killed(dir / "out.csv", "test output");
  const SavedStream saved = save_then_write_more(killed);
  killed.release(); // what a kill leaves: the temporary, longer than the checkpoint
  StreamingFile resumed(dir / "out.csv", "test output");
  ArchiveReader in(saved.checkpoint.bytes().data(), saved.checkpoint.bytes().size(), "c.ckpt");
  resumed.restore(in, /*committed_is_stream=*/false);
  EXPECT_EQ(resumed.temporary_path(), saved.temporary);
  resumed.append("again\n");
  resumed.commit();
  EXPECT_EQ(read_file(dir / "out.csv"), "head\nagain\n");
  // The resumed file's own temporary was dropped, the continued one renamed into place.
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"out.csv"});
}

TEST(StreamingFileCheckpoint, InterruptedRunsCommittedFileIsReadBackToTheCheckpoint) {
  TempDir dir;
  StreamingFile interrupted(dir / "out.csv", "test output");
  const SavedStream saved = save_then_write_more(interrupted);
  interrupted.commit(); // Ctrl-C finishes the outputs: the temporary is gone
  StreamingFile resumed(dir / "out.csv", "test output");
  resumed.append("header written by the constructor\n");
  ArchiveReader in(saved.checkpoint.bytes().data(), saved.checkpoint.bytes().size(), "c.ckpt");
  resumed.restore(in, /*committed_is_stream=*/true);
  resumed.append("again\n");
  EXPECT_EQ(read_file(dir / "out.csv"), "head\ntail\n"); // untouched until the commit
  resumed.commit();
  EXPECT_EQ(read_file(dir / "out.csv"), "head\nagain\n");
}

TEST(StreamingFileCheckpoint, MissingStreamIsRefusedNamingTheOutputAndTheFile) {
  TempDir dir;
  std::filesystem::path temporary;
  ArchiveWriter checkpoint;
  {
    StreamingFile part(dir / "shot.usda.positions", "film export");
    part.append("samples\n");
    part.save(checkpoint);
    temporary = part.temporary_path();
  } // removed: what a completed run leaves of a stream its committed file is not
  StreamingFile resumed(dir / "shot.usda.positions", "film export");
  ArchiveReader in(checkpoint.bytes().data(), checkpoint.bytes().size(), "c.ckpt");
  try {
    resumed.restore(in, /*committed_is_stream=*/false);
    FAIL() << "restored a stream whose file is gone";
  } catch (const CheckpointError& e) {
    EXPECT_EQ(std::string(e.what()), "c.ckpt: cannot resume film export " +
                                         (dir / "shot.usda.positions").string() + ": " +
                                         temporary.string() +
                                         " is missing or shorter than the 8 bytes the "
                                         "checkpoint recorded");
  }
}

} // namespace
} // namespace crowd

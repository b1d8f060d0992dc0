// A checkpoint file is used only when it is one, from this version, whole and undamaged;
// otherwise it is refused with one message naming the file and what is wrong.
#include "host/checkpoint/checkpoint_file.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <unistd.h>

namespace crowd {
namespace {

class CheckpointFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("crowd-ckpt-test-" + std::to_string(::getpid()) + ".ckpt");
    body_.put(std::string("scenario.json"));
    body_.put(std::vector<float>{1.0f, 2.5f, -3.0f});
    body_.put(std::int32_t{42});
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string bytes() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void overwrite(const std::string& content) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << content;
  }
  std::string refusal() const {
    try {
      CheckpointBody body(path_);
      return "";
    } catch (const CheckpointError& e) {
      return e.what();
    }
  }

  std::filesystem::path path_;
  ArchiveWriter body_;
};

TEST_F(CheckpointFileTest, RoundTripsTheBody) {
  write_checkpoint_file(path_, body_);
  const CheckpointBody body(path_);
  ArchiveReader in = body.reader();
  EXPECT_EQ(in.get<std::string>(), "scenario.json");
  EXPECT_EQ(in.get<std::vector<float>>(), (std::vector<float>{1.0f, 2.5f, -3.0f}));
  EXPECT_EQ(in.get<std::int32_t>(), 42);
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(bytes().substr(0, 8), "CROWDCKP");
}

TEST_F(CheckpointFileTest, AnotherFileIsNotACheckpoint) {
  overwrite("{\"name\": \"not a checkpoint\"}");
  EXPECT_EQ(refusal(),
            path_.string() + ": not a crowd checkpoint (it does not start with CROWDCKP)");
}

TEST_F(CheckpointFileTest, AnotherVersionIsRefusedNamingBoth) {
  write_checkpoint_file(path_, body_, "crowd 0.0.9");
  const std::string message = refusal();
  EXPECT_NE(message.find("written by crowd 0.0.9"), std::string::npos) << message;
  EXPECT_NE(message.find("this is " + crowd_build_version()), std::string::npos) << message;
  write_checkpoint_file(path_, body_, crowd_build_version(), kCheckpointFormat + 1);
  EXPECT_NE(refusal().find("checkpoint format " + std::to_string(kCheckpointFormat + 1)),
            std::string::npos);
}

TEST_F(CheckpointFileTest, TruncatedFileIsRefusedWithTheOffset) {
  write_checkpoint_file(path_, body_);
  const std::string whole = bytes();
  overwrite(whole.substr(0, whole.size() - 5));
  const std::string message = refusal();
  EXPECT_NE(message.find(": damaged: truncated at byte " + std::to_string(whole.size() - 5)),
            std::string::npos)
      << message;
  overwrite(whole.substr(0, 12)); // inside the header
  EXPECT_NE(refusal().find(": damaged: "), std::string::npos) << refusal();
}

TEST_F(CheckpointFileTest, FlippedByteIsRefused) {
  write_checkpoint_file(path_, body_);
  std::string damaged = bytes();
  damaged[damaged.size() - 3] ^= 0x10;
  overwrite(damaged);
  const std::string message = refusal();
  EXPECT_NE(message.find(": damaged: the checksum of bytes"), std::string::npos) << message;
}

TEST(ArchiveReader, CountBeyondTheBytesLeftIsDamageNotAnAllocation) {
  ArchiveWriter out;
  out.put(std::uint64_t{1} << 60); // a vector "length" from a corrupt file
  ArchiveReader in(out.bytes().data(), out.bytes().size(), "c.ckpt", 100);
  try {
    in.get<std::vector<double>>();
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_EQ(std::string(e.what()),
              "c.ckpt: damaged: a count of 1152921504606846976 runs past the end at byte 108");
  }
}

} // namespace
} // namespace crowd

// Frame file names (host/render/frame_pattern.cpp): ffmpeg-style %d / %0Nd patterns.
#include "host/render/frame_pattern.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(FramePattern, FillsTheNumber) {
  EXPECT_EQ(frame_file_name("out/%05d.png", 42), "out/00042.png");
  EXPECT_EQ(frame_file_name("f%d.png", 7), "f7.png");
  EXPECT_EQ(frame_file_name("100%%_%03d.png", 1), "100%_001.png");
}

TEST(FramePattern, RefusesPatternsWithoutExactlyOneNumber) {
  EXPECT_FALSE(frame_pattern_problem("out/%05d.png"));
  EXPECT_TRUE(frame_pattern_problem("out.png"));
  EXPECT_TRUE(frame_pattern_problem("%d_%d.png"));
  EXPECT_TRUE(frame_pattern_problem("%s.png"));
  EXPECT_TRUE(frame_pattern_problem("%5d.png"));
}

} // namespace
} // namespace crowd

// `crowd render` end to end: PNG frames and a video from a live run and from a replay, and the
// messages for bad input (exit code 2 for a bad scenario or trajectory, 1 for bad options).
#include "host/render/video_encoder.h"
#include "tests/cli/cli_runner.h"
#include "tests/render/gl_test_context.h"

#include <fstream>
#include <gtest/gtest.h>

namespace crowd {
namespace {

using testing::read_file;
using testing::run_cli;
using testing::TempDir;

constexpr char kScene[] = R"({
  "name": "render-cli", "dt": 0.1, "steps": 10,
  "world": {"bounds": [[0, 0], [10, 6]]},
  "agents": [{"position": [2, 3], "goal": [8, 3]}, {"position": [8, 3], "goal": [2, 3]}]})";

class CrowdRender : public ::testing::Test {
protected:
  TempDir dir;
  std::string scenario = (dir.path() / "scene.json").string();
  void SetUp() override { std::ofstream(scenario) << kScene; }
};

TEST_F(CrowdRender, WritesFramesAndVideoOfALiveRun) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  const auto frames = dir.path() / "frames";
  std::string args = "render " + scenario + " --backend cpu --every 5 --width 160 --height 96 " +
                     "--select 0 --frames " + (frames / "f%03d.png").string();
  const bool with_video = !find_ffmpeg().empty();
  if (with_video)
    args += " --video " + (dir.path() / "out.mp4").string();
  const auto result = run_cli(args);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* name : {"f000.png", "f001.png", "f002.png"}) {
    const std::string png = read_file(frames / name);
    ASSERT_GT(png.size(), 8u) << name;
    EXPECT_EQ(png.substr(1, 3), "PNG") << name;
  }
  EXPECT_FALSE(std::filesystem::exists(frames / "f003.png")) << "steps 0, 5, 10 only";
  if (with_video) {
    const std::string mp4 = read_file(dir.path() / "out.mp4");
    ASSERT_GT(mp4.size(), 12u);
    EXPECT_EQ(mp4.substr(4, 4), "ftyp") << "an MP4 container";
  }
  EXPECT_NE(result.output.find("3 frames"), std::string::npos) << result.output;
}

TEST_F(CrowdRender, ReplaysATrajectory) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  const std::string traj = (dir.path() / "traj.csv").string();
  ASSERT_EQ(run_cli("run " + scenario + " --backend cpu --quiet --out " + traj).exit_code, 0);
  const auto result =
      run_cli("render " + scenario + " --trajectory " + traj +
              " --width 96 --height 64 --every 10 --frames " + (dir.path() / "r%d.png").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "r1.png"));
  EXPECT_NE(result.output.find("replay of traj.csv"), std::string::npos) << result.output;
}

TEST_F(CrowdRender, BadTrajectoryNamesFileLineAndProblem) {
  const std::string traj = (dir.path() / "bad.csv").string();
  std::ofstream(traj) << "step,time,agent,x,y,z\n0,0,0,2,0,3\n";
  const auto result = run_cli("render " + scenario + " --trajectory " + traj + " --frames " +
                              (dir.path() / "%d.png").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("bad.csv:1: the header must be 'step,time,agent,x,y,z,vx,vz', "
                               "got 'step,time,agent,x,y,z'"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "0.png"));
}

TEST_F(CrowdRender, BadOptionsAreRefusedBeforeRendering) {
  auto result = run_cli("render " + scenario);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("nothing to write: give --frames PATTERN and/or --video FILE"),
            std::string::npos)
      << result.output;
  result = run_cli("render " + scenario + " --frames out.png");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("--frames: 'out.png' needs exactly one frame number"),
            std::string::npos)
      << result.output;
  result = run_cli("render " + scenario + " --frames %d.png --overlays trails,bogus");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("--overlays: unknown layer 'bogus'"), std::string::npos)
      << result.output;
}

} // namespace
} // namespace crowd

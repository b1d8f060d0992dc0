// `crowd render` at film rate: --fps draws the run resampled as `crowd run --fps` resamples it,
// frame files numbered by film frame from --start-frame; the film CSV of that run replays to
// the same pictures; a video of film frames plays at the film rate; a malformed film CSV is
// refused with file, line and problem.
#include "host/render/video_encoder.h"
#include "tests/cli/cli_runner.h"
#include "tests/render/gl_test_context.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace crowd {
namespace {

using testing::read_file;
using testing::run_cli;
using testing::TempDir;

// 1 s of simulation (10 steps of 0.1 s): two types, and a waypoint where agent 1 waits.
constexpr char kScene[] = R"({
  "name": "render-film", "dt": 0.1, "steps": 10,
  "world": {"bounds": [[0, 0], [10, 6]]},
  "types": {"walker": {"max_speed": 1.3}, "runner": {"max_speed": 2.5}},
  "agents": [
    {"position": [2, 3], "goal": [8, 3], "type": "walker"},
    {"position": [8, 2], "goal": [2, 4], "type": "runner",
     "waypoints": [{"point": [7, 2], "wait": 0.5}]}]})";

class CrowdRenderFilm : public ::testing::Test {
protected:
  TempDir dir;
  std::string scenario = (dir.path() / "scene.json").string();
  void SetUp() override { std::ofstream(scenario) << kScene; }
  std::string frame(const std::string& folder, int number) const {
    return (dir.path() / folder / (std::to_string(number) + ".png")).string();
  }
};

TEST_F(CrowdRenderFilm, FilmFramesAreNumberedFromTheStartFrame) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  // 24 fps over 1 s: frames at 0, 1/24, ..., 24/24 s, numbered 1001..1025.
  auto result = run_cli("render " + scenario + " --backend cpu --fps 24 --width 64 --height 40 " +
                        "--frames " + (dir.path() / "a" / "%d.png").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (int n = 1001; n <= 1025; ++n)
    EXPECT_TRUE(std::filesystem::exists(frame("a", n))) << n;
  EXPECT_FALSE(std::filesystem::exists(frame("a", 1000)));
  EXPECT_FALSE(std::filesystem::exists(frame("a", 1026)));
  EXPECT_NE(result.output.find("25 frames (film frames 1001..1025"), std::string::npos)
      << result.output;

  // --start-frame and --steps: 10 fps over 0.5 s is frames 1..6; every 2nd and the last.
  result = run_cli("render " + scenario + " --backend cpu --steps 5 --fps 10 --start-frame 1 " +
                   "--every 2 --width 64 --height 40 --frames " +
                   (dir.path() / "b" / "%d.png").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (int n = 0; n <= 7; ++n)
    EXPECT_EQ(std::filesystem::exists(frame("b", n)), n == 1 || n == 3 || n == 5 || n == 6) << n;
}

TEST_F(CrowdRenderFilm, FilmCsvReplayDrawsTheLiveFilmFrames) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  const std::string film = (dir.path() / "film.csv").string();
  ASSERT_EQ(run_cli("run " + scenario + " --backend cpu --threads 1 --quiet --fps 24 --out " + film)
                .exit_code,
            0);
  // The text panel is left out: its first line names the source ("live film ..." against
  // "replay of film.csv") and live frames show ms per step. Everything else must match: the
  // film CSV holds positions and velocities in shortest round-trip form and the heading in the
  // degrees the renderer reads (heading_in_degrees), so both draw from the same floats.
  const std::string drawing =
      " --overlays navmesh,trails --colour type --width 160 --height 96 --frames ";
  auto live = run_cli("render " + scenario + " --backend cpu --threads 1 --fps 24" + drawing +
                      (dir.path() / "live" / "%d.png").string());
  ASSERT_EQ(live.exit_code, 0) << live.output;
  auto replay = run_cli("render " + scenario + " --trajectory " + film + drawing +
                        (dir.path() / "replay" / "%d.png").string());
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("25 frames (film frames 1001..1025, replay of film.csv"),
            std::string::npos)
      << replay.output;
  for (int n = 1001; n <= 1025; ++n) {
    const std::string a = read_file(frame("live", n)), b = read_file(frame("replay", n));
    ASSERT_FALSE(a.empty()) << n;
    EXPECT_TRUE(a == b) << "frame " << n << " differs between the live render and the replay";
  }
  // The agents moved: the first and last frames differ.
  EXPECT_NE(read_file(frame("live", 1001)), read_file(frame("live", 1025)));
}

TEST_F(CrowdRenderFilm, PrerollAndHandlesFrameTheShotAsCrowdRunDoes) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  // 1 s shot at 10 fps, 0.5 s of preroll, 2 handles: the run is ceil((0.5 + 0.2) / 0.1) = 7
  // steps longer; frames 999..1013 (0.3 s .. 1.7 s).
  const std::string framing = " --steps 10 --fps 10 --preroll 0.5 --handles 2";
  const std::string film = (dir.path() / "film.csv").string();
  ASSERT_EQ(
      run_cli("run " + scenario + " --backend cpu --threads 1 --quiet" + framing + " --out " + film)
          .exit_code,
      0);
  std::set<int> film_frames;
  std::istringstream rows(read_file(film));
  std::string row;
  std::getline(rows, row); // header
  while (std::getline(rows, row))
    film_frames.insert(std::stoi(row.substr(0, row.find(','))));
  ASSERT_EQ(film_frames.size(), 15u);
  EXPECT_EQ(*film_frames.begin(), 999);
  EXPECT_EQ(*film_frames.rbegin(), 1013);

  const std::string drawing = " --overlays navmesh,trails --width 64 --height 40 --frames ";
  const auto live = run_cli("render " + scenario + " --backend cpu --threads 1" + framing +
                            drawing + (dir.path() / "live" / "%d.png").string());
  ASSERT_EQ(live.exit_code, 0) << live.output;
  const auto replay = run_cli("render " + scenario + " --trajectory " + film + drawing +
                              (dir.path() / "replay" / "%d.png").string());
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  std::set<int> drawn;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "live"))
    drawn.insert(std::stoi(entry.path().stem().string()));
  EXPECT_EQ(drawn, film_frames) << "the live render draws the film's frames, by number";
  for (const int n : film_frames)
    EXPECT_TRUE(read_file(frame("live", n)) == read_file(frame("replay", n))) << n;
}

TEST_F(CrowdRenderFilm, VideoOfFilmFramesPlaysAtTheFilmRate) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  if (find_ffmpeg().empty() || std::system("command -v ffprobe >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "needs ffmpeg and ffprobe";
  const auto rate_of = [&](const std::string& options) {
    const std::string video = (dir.path() / "v.mp4").string();
    const auto result = run_cli("render " + scenario + " --backend cpu --width 64 --height 40 " +
                                options + " --video " + video);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    std::FILE* probe = ::popen(("ffprobe -v error -select_streams v:0 -show_entries "
                                "stream=r_frame_rate -of csv=p=0 " +
                                video)
                                   .c_str(),
                               "r");
    char text[64] = {};
    const std::size_t n = probe ? std::fread(text, 1, sizeof text - 1, probe) : 0;
    if (probe)
      ::pclose(probe);
    return std::string(text, n);
  };
  EXPECT_EQ(rate_of("--fps 24"), "24/1\n");
  EXPECT_EQ(rate_of(""), "25/1\n") << "per-step frames keep the 25 fps video";
}

TEST_F(CrowdRenderFilm, MalformedFilmCsvNamesFileLineAndProblem) {
  const std::string film = (dir.path() / "film.csv").string();
  std::ofstream(film) << "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,"
                         "playback_rate\n"
                         "1001,0,0,walker,2,0,3,0,0,90,idle,0,1\n"
                         "1001,0,1,runner,8,0,2,0,0,-90,jog,0,1\n";
  const auto result = run_cli("render " + scenario + " --trajectory " + film + " --frames " +
                              (dir.path() / "%d.png").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("film.csv:3: gait must be idle, walk, run, turn or wait, got 'jog'"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "1001.png"));
}

TEST_F(CrowdRenderFilm, FilmOptionsThatCannotApplyAreRefused) {
  const std::string traj = (dir.path() / "traj.csv").string();
  ASSERT_EQ(run_cli("run " + scenario + " --backend cpu --quiet --out " + traj).exit_code, 0);
  const std::string frames = " --frames " + (dir.path() / "%d.png").string();
  auto result = run_cli("render " + scenario + " --trajectory " + traj + " --fps 24" + frames);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("is a per-step trajectory; replay the film CSV"), std::string::npos)
      << result.output;
  result = run_cli("render " + scenario + " --start-frame 1" + frames);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("--start-frame needs --fps"), std::string::npos) << result.output;
  result = run_cli("render " + scenario + " --fps 24 --handles 3" + frames);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("--handles: 3 frames before the start frame need a --preroll"),
            std::string::npos)
      << result.output;
  const std::string film = (dir.path() / "film.csv").string();
  ASSERT_EQ(run_cli("run " + scenario + " --backend cpu --quiet --fps 24 --out " + film).exit_code,
            0);
  result = run_cli("render " + scenario + " --trajectory " + film + " --fps 30" + frames);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("film.csv holds film frames at 24"), std::string::npos)
      << result.output;
}

} // namespace
} // namespace crowd

// Reading film CSVs back (host/output/film_csv_reader.cpp) for `crowd render`: what
// FilmCsvWriter writes reads back bit for bit, type labels quoted or not; every malformed file
// is refused with file, line and problem.
#include "host/output/film_csv_reader.h"
#include "host/output/film_csv_writer.h"
#include "tests/cli/cli_runner.h"

#include <gtest/gtest.h>
#include <sstream>
#include <vector>

namespace crowd {
namespace {

constexpr char kHeader[] =
    "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate\n";

TEST(FilmCsvReader, ReadsBackWhatTheWriterWrites) {
  testing::TempDir dir;
  const std::vector<glm::vec3> positions = {
      {1.1f, 0.0f, -2.3f}, {3.0000002f, 0.25f, 4.7f}, {0.0f, 0.0f, 0.0f}};
  const std::vector<glm::vec2> velocities = {{0.51f, -0.5f}, {0.0f, 1.3f}, {0.0f, 0.0f}};
  const std::vector<AgentPhase> phases = {AgentPhase::Walking, AgentPhase::Arrived,
                                          AgentPhase::Removed};
  const std::vector<std::string> types = {"walker", "with, comma \"q\"", "gone"};
  const std::vector<float> headings = {1.2345678f, -2.75f, 0.0f};
  const std::vector<float> zeros = {0.0f, 0.0f, 0.0f};
  const std::vector<Gait> gaits = {Gait::Walk, Gait::Wait, Gait::Idle};
  {
    FilmCsvWriter writer(dir / "film.csv");
    for (int k = 0; k < 3; ++k)
      writer.write_frame(FrameView{1001 + k,
                                   k / 24.0,
                                   positions,
                                   velocities,
                                   phases,
                                   types,
                                   headings,
                                   zeros,
                                   gaits,
                                   zeros,
                                   zeros,
                                   {}});
    writer.finish();
  }
  const FilmCsv film = read_film_csv(dir / "film.csv", 4);
  ASSERT_EQ(film.frames.size(), 3u);
  EXPECT_EQ(film.frames[0].frame, 1001);
  EXPECT_EQ(film.frames[2].frame, 1003);
  EXPECT_NEAR(film.fps(), 24.0, 1e-5);
  EXPECT_EQ(film.types, (std::vector<std::string>{"walker", "with, comma \"q\"", "", ""}));
  for (const FilmCsvFrame& frame : film.frames) {
    EXPECT_EQ(frame.present, (std::vector<std::uint8_t>{1, 1, 0, 0})) << "removed: no row";
    for (std::size_t a = 0; a < 2; ++a) {
      EXPECT_EQ(frame.positions[a], positions[a]) << "floats written shortest round-trip";
      EXPECT_EQ(frame.velocities[a], velocities[a]);
      EXPECT_EQ(frame.headings_degrees[a], heading_in_degrees(headings[a]));
    }
  }
}

struct BadFilm {
  std::string text;
  std::string message; ///< After "film.csv:".
};

class FilmCsvReaderErrors : public ::testing::TestWithParam<BadFilm> {};

TEST_P(FilmCsvReaderErrors, NameTheLineAndTheProblem) {
  std::istringstream in(GetParam().text);
  try {
    (void)read_film_csv(in, "film.csv", 3);
    FAIL() << "accepted: " << GetParam().text;
  } catch (const TrajectoryError& e) {
    EXPECT_EQ(std::string(e.what()), "film.csv:" + GetParam().message);
  }
}

const std::string kRow = "1001,0,0,agent,1,0,2,0,0,90,idle,0,1\n";

INSTANTIATE_TEST_SUITE_P(
    Malformed, FilmCsvReaderErrors,
    ::testing::Values(
        BadFilm{"",
                "1: the file is empty (expected the header '" + std::string(kFilmCsvHeader) + "')"},
        BadFilm{"frame,time,agent,x,y,z\n", "1: the header must be '" +
                                                std::string(kFilmCsvHeader) +
                                                "', got 'frame,time,agent,x,y,z'"},
        BadFilm{kHeader, "1: no frames after the header"},
        BadFilm{std::string(kHeader) + kRow + "1001,0,1,agent,1,0,2\n",
                "3: expected 13 fields (" + std::string(kFilmCsvHeader) + "), got 7"},
        BadFilm{std::string(kHeader) + "x,0,0,agent,1,0,2,0,0,90,idle,0,1\n",
                "2: frame must be an integer, got 'x'"},
        BadFilm{std::string(kHeader) + "1001,0,0,agent,1,nan,2,0,0,90,idle,0,1\n",
                "2: y must be a finite number, got 'nan'"},
        BadFilm{std::string(kHeader) + "1001,0,0,agent,1,0,2,0,0,90,jog,0,1\n",
                "2: gait must be idle, walk, run, turn or wait, got 'jog'"},
        BadFilm{std::string(kHeader) + "1001,0,0,\"open,1,0,2,0,0,90,idle,0,1\n",
                "2: a quoted field is not closed, or text follows its closing quote"},
        BadFilm{std::string(kHeader) + "1001,0,5,agent,1,0,2,0,0,90,idle,0,1\n",
                "2: agent 5 is not in the scenario (it has 3 agents, ids 0..2)"},
        BadFilm{std::string(kHeader) + kRow + "1000,0.1,0,agent,1,0,2,0,0,90,idle,0,1\n",
                "3: frame 1000 comes after frame 1001 (frames must increase)"},
        BadFilm{std::string(kHeader) + kRow + "1001,0.5,1,agent,1,0,2,0,0,90,idle,0,1\n",
                "3: time 0.5 differs from the time of frame 1001 on line 2"},
        BadFilm{std::string(kHeader) + kRow + kRow, "3: agent 0 appears twice in frame 1001"},
        BadFilm{std::string(kHeader) + kRow + "1002,0.04,0,walker,1,0,2,0,0,90,idle,0,1\n",
                "3: agent 0 is type 'walker' here but 'agent' on line 2"}),
    [](const ::testing::TestParamInfo<BadFilm>& param_info) {
      return "Case" + std::to_string(param_info.index);
    });

} // namespace
} // namespace crowd

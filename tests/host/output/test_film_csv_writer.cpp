// Film frames as CSV, with the type label per agent.
#include "host/output/film_csv_writer.h"
#include "tests/cli/cli_runner.h"

#include <gtest/gtest.h>
#include <vector>

namespace crowd {
namespace {

TEST(FilmCsvWriter, ExactBytesOfTinyFrames) {
  testing::TempDir dir;
  {
    FilmCsvWriter writer(dir / "shot.csv");
    const std::vector<glm::vec3> positions = {
        {1.5f, 0.0f, -2.0f}, {3.0f, 0.25f, 4.0f}, {0.0f, 0.0f, 0.0f}};
    const std::vector<glm::vec2> velocities = {{0.5f, -0.5f}, {0.0f, 1.0f}, {0.0f, 0.0f}};
    const std::vector<AgentPhase> phases = {AgentPhase::Walking, AgentPhase::Arrived,
                                            AgentPhase::Removed};
    const std::vector<std::string> types = {"agent", "with, comma \"q\"", "gone"};
    writer.write_frame(FrameView{0, 0.0, positions, velocities, phases, types, {}, {}});
    writer.write_frame(FrameView{1, 1.0 / 24.0, positions, velocities, phases, types, {}, {}});
    writer.finish();
  }
  EXPECT_EQ(testing::read_file(dir / "shot.csv"),
            "frame,time,agent,type,x,y,z,vx,vz\n"
            "0,0,0,agent,1.5,0,-2,0.5,-0.5\n"
            "0,0,1,\"with, comma \"\"q\"\"\",3,0.25,4,0,1\n"
            "1,0.04166667,0,agent,1.5,0,-2,0.5,-0.5\n"
            "1,0.04166667,1,\"with, comma \"\"q\"\"\",3,0.25,4,0,1\n");
}

} // namespace
} // namespace crowd

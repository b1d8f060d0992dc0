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
    // Facing +x and -z; walking at 0.7 m/s a quarter into its cycle; standing still.
    const std::vector<float> headings = {1.5707964f, 3.1415927f, 0.0f};
    const std::vector<float> turn_rates = {0.0f, 0.0f, 0.0f};
    const std::vector<Gait> gaits = {Gait::Walk, Gait::Idle, Gait::Idle};
    const std::vector<float> cycle = {0.25f, 0.0f, 0.0f};
    const std::vector<float> rates = {0.5f, 1.0f, 1.0f};
    writer.write_frame(FrameView{0,
                                 0.0,
                                 positions,
                                 velocities,
                                 phases,
                                 types,
                                 headings,
                                 turn_rates,
                                 gaits,
                                 cycle,
                                 rates,
                                 {}});
    writer.write_frame(FrameView{1,
                                 1.0 / 24.0,
                                 positions,
                                 velocities,
                                 phases,
                                 types,
                                 headings,
                                 turn_rates,
                                 gaits,
                                 cycle,
                                 rates,
                                 {}});
    writer.finish();
  }
  EXPECT_EQ(testing::read_file(dir / "shot.csv"),
            "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate\n"
            "0,0,0,agent,1.5,0,-2,0.5,-0.5,90,walk,0.25,0.5\n"
            "0,0,1,\"with, comma \"\"q\"\"\",3,0.25,4,0,1,180,idle,0,1\n"
            "1,0.04166667,0,agent,1.5,0,-2,0.5,-0.5,90,walk,0.25,0.5\n"
            "1,0.04166667,1,\"with, comma \"\"q\"\"\",3,0.25,4,0,1,180,idle,0,1\n");
}

} // namespace
} // namespace crowd

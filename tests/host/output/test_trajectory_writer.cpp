#include "host/output/trajectory_writer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace crowd {
namespace {

namespace fs = std::filesystem;

class TrajectoryWriterTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("crowd_traj_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }

  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  fs::path dir_;
};

TEST_F(TrajectoryWriterTest, ExactBytesOfTinyFrames) {
  const fs::path path = dir_ / "out.csv";
  const std::vector<glm::vec3> positions = {
      {1.0f, 0.0f, 2.5f}, {-0.25f, 0.125f, 3.0f}, {0.1f, -0.0f, 1e-5f}};
  const std::vector<glm::vec2> velocities = {{0.5f, 0.0f}, {1.0f, 1.0f}, {0.0f, -1.5f}};
  {
    TrajectoryWriter writer(path);
    writer.write_frame(
        0, 0.0, positions, velocities,
        std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Walking, AgentPhase::Walking});
    // Agent 1 removed: no row. An arrived agent still has one.
    writer.write_frame(
        3, 3 * static_cast<double>(0.1f), positions, velocities,
        std::vector<AgentPhase>{AgentPhase::Walking, AgentPhase::Removed, AgentPhase::Arrived});
    writer.write_frame(
        120, 120 * static_cast<double>(0.1f), positions, velocities,
        std::vector<AgentPhase>{AgentPhase::Removed, AgentPhase::Removed, AgentPhase::Removed});
    writer.finish();
  }
  EXPECT_EQ(read(path), "step,time,agent,x,y,z,vx,vz\n"
                        "0,0,0,1,0,2.5,0.5,0\n"
                        "0,0,1,-0.25,0.125,3,1,1\n"
                        "0,0,2,0.1,0,1e-05,0,-1.5\n"
                        "3,0.3,0,1,0,2.5,0.5,0\n"
                        "3,0.3,2,0.1,0,1e-05,0,-1.5\n");
  EXPECT_EQ(files(), std::vector<std::string>{"out.csv"}); // no temporary left behind
}

TEST_F(TrajectoryWriterTest, NothingUnderTheRequestedNameUntilFinish) {
  const fs::path path = dir_ / "run.csv";
  TrajectoryWriter writer(path);
  const std::vector<glm::vec3> positions(1000, glm::vec3(1.0f, 2.0f, 3.0f));
  const std::vector<glm::vec2> velocities(1000, glm::vec2(0.5f, 0.25f));
  const std::vector<AgentPhase> phases(1000, AgentPhase::Walking);
  for (int step = 0; step < 20; ++step) {
    writer.write_frame(step, step * 0.5, positions, velocities, phases);
  }
  EXPECT_FALSE(fs::exists(path));
  ASSERT_EQ(files().size(), 1u); // the temporary, beside the target
  EXPECT_NE(files()[0], "run.csv");
  writer.finish();
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(files(), std::vector<std::string>{"run.csv"});
  const std::string text = read(path);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 20 * 1000);
  EXPECT_NE(text.find("\n19,9.5,999,1,2,3,0.5,0.25\n"), std::string::npos);
}

TEST_F(TrajectoryWriterTest, DestroyedWithoutFinishLeavesNothing) {
  const fs::path path = dir_ / "failed.csv";
  {
    TrajectoryWriter writer(path);
    writer.write_frame(0, 0.0, std::vector<glm::vec3>{{1, 2, 3}}, std::vector<glm::vec2>{{0, 0}},
                       std::vector<AgentPhase>{AgentPhase::Walking});
    EXPECT_EQ(files().size(), 1u);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(files().empty());
}

TEST_F(TrajectoryWriterTest, FinishReplacesAnExistingFile) {
  const fs::path path = dir_ / "out.csv";
  { std::ofstream(path) << "old contents\n"; }
  {
    TrajectoryWriter writer(path);
    EXPECT_EQ(read(path), "old contents\n"); // untouched until finish
    writer.finish();
  }
  EXPECT_EQ(read(path), "step,time,agent,x,y,z,vx,vz\n");
}

TEST_F(TrajectoryWriterTest, UnwritableDirectoryThrows) {
  EXPECT_THROW(TrajectoryWriter(dir_ / "missing" / "out.csv"), std::runtime_error);
}

TEST_F(TrajectoryWriterTest, IdenticalFramesGiveIdenticalBytes) {
  const std::vector<glm::vec3> positions = {{0.1f, 0.2f, 0.3f}, {1.0f / 3.0f, 2e7f, -7.25f}};
  const std::vector<glm::vec2> velocities = {{1e-30f, 3.4028235e38f}, {-1.4f, 0.7f}};
  const std::vector<AgentPhase> phases(2, AgentPhase::Walking);
  for (const char* name : {"a.csv", "b.csv"}) {
    TrajectoryWriter writer(dir_ / name);
    writer.write_frame(7, 7 * static_cast<double>(0.05f), positions, velocities, phases);
    writer.finish();
  }
  const std::string a = read(dir_ / "a.csv");
  EXPECT_EQ(a, read(dir_ / "b.csv"));
  // Every number reads back to the same float.
  std::istringstream rows(a.substr(a.find('\n') + 1));
  std::string line;
  std::size_t agent = 0;
  while (std::getline(rows, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) {
      cells.push_back(cell);
    }
    ASSERT_EQ(cells.size(), 8u);
    EXPECT_EQ(cells[1], "0.35");
    EXPECT_EQ(std::stof(cells[3]), positions[agent].x);
    EXPECT_EQ(std::stof(cells[4]), positions[agent].y);
    EXPECT_EQ(std::stof(cells[5]), positions[agent].z);
    EXPECT_EQ(std::stof(cells[6]), velocities[agent].x);
    EXPECT_EQ(std::stof(cells[7]), velocities[agent].y);
    ++agent;
  }
  EXPECT_EQ(agent, 2u);
}

TEST_F(TrajectoryWriterTest, TimeIsTheDecimalStepTimesDt) {
  // The simulation's time is step x double(dt) with a float dt: 0.1f x 9 = 0.9000000134...
  const fs::path path = dir_ / "t.csv";
  {
    TrajectoryWriter writer(path);
    const std::vector<glm::vec3> p = {{0, 0, 0}};
    const std::vector<glm::vec2> v = {{0, 0}};
    const std::vector<AgentPhase> phases = {AgentPhase::Walking};
    for (const int step : {9, 700, 123457, 1000000}) {
      writer.write_frame(step, step * static_cast<double>(0.1f), p, v, phases);
    }
    writer.write_frame(5, 5 * static_cast<double>(0.02f), p, v, phases);
    writer.write_frame(1, static_cast<double>(1.0f / 60.0f), p, v, phases);
    writer.finish();
  }
  EXPECT_EQ(read(path), "step,time,agent,x,y,z,vx,vz\n"
                        "9,0.9,0,0,0,0,0,0\n"
                        "700,70,0,0,0,0,0,0\n"
                        "123457,12345.7,0,0,0,0,0,0\n"
                        "1000000,100000,0,0,0,0,0,0\n"
                        "5,0.1,0,0,0,0,0,0\n"
                        "1,0.016666668,0,0,0,0,0,0\n");
}

} // namespace
} // namespace crowd

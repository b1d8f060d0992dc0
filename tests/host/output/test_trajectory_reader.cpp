// Reading trajectories back (host/output/trajectory_reader.cpp): what `crowd run --out` writes
// reads back exactly; every malformed or foreign file is refused with file, line and problem.
#include "host/navmesh/navmesh.h"
#include "host/output/trajectory_reader.h"
#include "host/output/trajectory_writer.h"
#include "host/sim/simulation.h"
#include "tests/cli/cli_runner.h"

#include <fstream>
#include <gtest/gtest.h>

namespace crowd {
namespace {

constexpr char kScene[] = R"({
  "name": "two", "dt": 0.1, "steps": 5,
  "world": {"bounds": [[0, 0], [10, 10]]},
  "agents": [
    {"position": [2, 2], "goal": [8, 8]},
    {"position": [8, 2], "goal": [2, 8], "on_arrival": "remove"}
  ]})";

class TrajectoryReader : public ::testing::Test {
protected:
  testing::TempDir dir;
  Scenario scenario = parse_scenario(kScene, "two.json");
  NavMesh navmesh = NavMesh::build(scenario);
  std::vector<AgentSetup> setups = populate(scenario, navmesh);

  std::filesystem::path write(const std::string& text) {
    const auto file = dir.path() / "traj.csv";
    std::ofstream(file) << text;
    return file;
  }
  std::string row(int step, double time, int agent, glm::vec3 p) {
    char text[200];
    std::snprintf(text, sizeof(text), "%d,%g,%d,%.9g,%.9g,%.9g,0,0\n", step, time, agent,
                  static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z));
    return text;
  }
  std::string frame(int step, std::initializer_list<int> agents) {
    std::string text;
    for (const int a : agents)
      text += row(step, step * 0.1, a, setups[static_cast<std::size_t>(a)].position);
    return text;
  }
  /// The error message of reading and checking `text`, or "" when it is accepted.
  std::string error_of(const std::string& text) {
    const auto file = write(text);
    try {
      const Trajectory t = read_trajectory(file, static_cast<int>(setups.size()));
      check_trajectory_matches(t, file, scenario, setups);
    } catch (const TrajectoryError& e) {
      return e.what();
    }
    return "";
  }
  const std::string header = "step,time,agent,x,y,z,vx,vz\n";
};

TEST_F(TrajectoryReader, ReadsBackWhatARunWrote) {
  const auto file = dir.path() / "run.csv";
  SimulationOptions options;
  options.backend = BackendKind::Cpu;
  Simulation sim(scenario, options);
  std::vector<std::vector<glm::vec3>> written;
  {
    TrajectoryWriter writer(file);
    writer.write_frame(0, 0.0, sim.positions(), sim.velocities(), sim.phases());
    written.emplace_back(sim.positions().begin(), sim.positions().end());
    for (int s = 1; s <= 5; ++s) {
      sim.step();
      writer.write_frame(s, sim.time(), sim.positions(), sim.velocities(), sim.phases());
      written.emplace_back(sim.positions().begin(), sim.positions().end());
    }
    writer.finish();
  }
  const Trajectory t = read_trajectory(file, 2);
  EXPECT_NO_THROW(check_trajectory_matches(t, file, scenario, setups));
  ASSERT_EQ(t.frames.size(), 6u);
  for (std::size_t f = 0; f < t.frames.size(); ++f) {
    EXPECT_EQ(t.frames[f].step, static_cast<int>(f));
    for (std::size_t a = 0; a < 2; ++a)
      EXPECT_EQ(t.frames[f].positions[a], written[f][a]) << "frame " << f << " agent " << a;
  }
}

TEST_F(TrajectoryReader, WrongHeader) {
  const std::string e = error_of("step,time,id,x,y,z,vx,vz\n" + frame(0, {0, 1}));
  EXPECT_NE(e.find("traj.csv:1: the header must be 'step,time,agent,x,y,z,vx,vz'"),
            std::string::npos)
      << e;
  EXPECT_NE(error_of("").find("traj.csv:1: the file is empty"), std::string::npos);
}

TEST_F(TrajectoryReader, MalformedRows) {
  EXPECT_NE(error_of(header + frame(0, {0}) + "0,0,1,8,0\n").find("traj.csv:3: expected 8 fields"),
            std::string::npos);
  EXPECT_NE(error_of(header + "0,0,0,abc,0,2,0,0\n")
                .find("traj.csv:2: x must be a finite number, "
                      "got 'abc'"),
            std::string::npos);
  EXPECT_NE(error_of(header + "0,0,0,nan,0,2,0,0\n").find("traj.csv:2: x must be a finite"),
            std::string::npos);
  EXPECT_NE(error_of(header + frame(0, {1, 0})).find("traj.csv:3: agent 0 comes after agent 1"),
            std::string::npos);
  EXPECT_NE(error_of(header + frame(0, {0, 0})).find("traj.csv:3: agent 0 appears twice"),
            std::string::npos);
  EXPECT_NE(error_of(header + frame(1, {0, 1}) + frame(0, {0, 1}))
                .find("traj.csv:4: step 0 comes after step 1"),
            std::string::npos);
}

TEST_F(TrajectoryReader, MissingAgents) {
  // Agent 1 is not in the first frame.
  EXPECT_NE(error_of(header + frame(0, {0})).find("traj.csv:2: step 0 has no row for agent 1"),
            std::string::npos);
  // Agent 0 stops on arrival, so it cannot vanish; agent 1 is removed on arrival, so it can.
  const std::string e = error_of(header + frame(0, {0, 1}) + frame(1, {1}));
  EXPECT_NE(e.find("traj.csv:4: step 1 has no row for agent 0 (agents[0] stops on arrival"),
            std::string::npos)
      << e;
  EXPECT_EQ(error_of(header + frame(0, {0, 1}) + frame(1, {0})), "");
  // Removed agents do not come back.
  EXPECT_NE(error_of(header + frame(0, {0, 1}) + frame(1, {0}) + frame(2, {0, 1}))
                .find("traj.csv:5: agent 1 is back at step 2"),
            std::string::npos);
}

TEST_F(TrajectoryReader, NotFromThisScenario) {
  EXPECT_NE(error_of(header + frame(0, {0, 1}) + row(1, 0.1, 2, {1, 0, 1}))
                .find("traj.csv:4: agent 2 is not in the scenario (it has 2 agents"),
            std::string::npos);
  const std::string moved = header + row(0, 0, 0, {5, 0, 5}) + frame(0, {1}).substr(0);
  EXPECT_NE(error_of(moved).find("traj.csv:2: agent 0 starts at (5, 5) but two.json places it "
                                 "at (2, 2)"),
            std::string::npos)
      << error_of(moved);
  // Times of another dt.
  std::string other_dt = header + frame(0, {0, 1});
  other_dt += row(1, 0.25, 0, setups[0].position) + row(1, 0.25, 1, setups[1].position);
  EXPECT_NE(error_of(other_dt).find("traj.csv:4: time 0.25 at step 1 does not match two.json's "
                                    "dt of 0.1 s"),
            std::string::npos)
      << error_of(other_dt);
  EXPECT_NE(error_of(header + frame(3, {0, 1})).find("traj.csv:2: the first frame is step 3"),
            std::string::npos);
}

} // namespace
} // namespace crowd

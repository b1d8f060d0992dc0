// Film exports read back and checked sample by sample against the per-step trajectory of the
// same run: `--fps 24` at dt 0.1 s puts 2.4 frames in a step, so most frames fall between two
// steps and are interpolated; agents leaving through the bottleneck's door become invisible.
#include "tests/cli/cli_runner.h"
#include "tests/support/csv_table.h"
#include "tests/support/usda_test_reader.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace crowd::testing {
namespace {

constexpr double kDt = 0.1;
constexpr double kFps = 24.0;
constexpr int kSteps = 200;
constexpr double kRadius = 0.3; // bottleneck.json's agents

struct Sample {
  float x, y, z, vx, vz;
};
using StepTable = std::map<int, std::map<int, Sample>>; ///< step -> agent -> state

StepTable read_step_csv(const std::filesystem::path& path) {
  StepTable table;
  for (const std::vector<std::string>& f : split_csv(read_file(path)).rows) {
    table[std::stoi(f[0])][std::stoi(f[2])] = {std::stof(f[3]), std::stof(f[4]), std::stof(f[5]),
                                               std::stof(f[6]), std::stof(f[7])};
  }
  return table;
}

/// What a film frame must hold for one agent: nullopt when it is not shown.
std::optional<Sample> expected_sample(const StepTable& steps, int frame, int agent) {
  const double t = frame / kFps;
  const int before = static_cast<int>(std::floor(t / kDt + 1e-6));
  const auto at = [&](int step) -> const Sample* {
    const auto s = steps.find(step);
    if (s == steps.end())
      return nullptr;
    const auto a = s->second.find(agent);
    return a == s->second.end() ? nullptr : &a->second;
  };
  if (std::abs(t - before * kDt) <= 1e-9) { // on a step
    const Sample* s = at(before);
    return s ? std::optional<Sample>(*s) : std::nullopt;
  }
  const Sample* s0 = at(before);
  const Sample* s1 = at(before + 1);
  if (!s0 || !s1)
    return std::nullopt;
  const float a = static_cast<float>((t - before * kDt) / kDt);
  const auto mix = [a](float u, float v) { return u * (1.0f - a) + v * a; };
  return Sample{mix(s0->x, s1->x), mix(s0->y, s1->y), mix(s0->z, s1->z), mix(s0->vx, s1->vx),
                mix(s0->vz, s1->vz)};
}

class CrowdRunFilm : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const std::string common = "run " + sample("bottleneck.json") +
                               " --backend cpu --threads 1 --quiet --steps " +
                               std::to_string(kSteps);
    const CliResult per_step = run_cli(common + " --out " + (*dir_ / "traj.csv").string());
    ASSERT_EQ(per_step.exit_code, 0) << per_step.output;
    const CliResult film = run_cli(
        common + " --fps 24 --start-frame 0 --out " + (*dir_ / "shot.usda").string() + " --out " +
        (*dir_ / "tracks.json").string() + " --out " + (*dir_ / "film.csv").string());
    ASSERT_EQ(film.exit_code, 0) << film.output;
    steps_ = new StepTable(read_step_csv(*dir_ / "traj.csv"));
  }
  static void TearDownTestSuite() {
    delete steps_;
    delete dir_;
  }
  static constexpr int kLastFrame = 480; // 20 s at 24 fps
  static constexpr int kAgents = 60;
  static TempDir* dir_;
  static StepTable* steps_;
};
TempDir* CrowdRunFilm::dir_ = nullptr;
StepTable* CrowdRunFilm::steps_ = nullptr;

TEST_F(CrowdRunFilm, TheRunRemovesAgentsSoInvisibilityIsExercised) {
  ASSERT_EQ(steps_->size(), static_cast<std::size_t>(kSteps) + 1);
  EXPECT_EQ(steps_->at(0).size(), static_cast<std::size_t>(kAgents));
  EXPECT_LT(steps_->at(kSteps).size(), static_cast<std::size_t>(kAgents) - 3);
}

TEST_F(CrowdRunFilm, UsdShotMatchesTheResampledTrajectory) {
  const UsdaLayer layer = read_usda((*dir_ / "shot.usda").string());
  ASSERT_EQ(layer.error, "");
  EXPECT_EQ(layer.first_line, "#usda 1.0");
  EXPECT_EQ(layer.metadata.at("startTimeCode"), "0");
  EXPECT_EQ(layer.metadata.at("endTimeCode"), std::to_string(kLastFrame));
  EXPECT_EQ(layer.metadata.at("timeCodesPerSecond"), "24");
  EXPECT_EQ(layer.metadata.at("framesPerSecond"), "24");
  EXPECT_EQ(layer.metadata.at("upAxis"), "\"Y\"");
  EXPECT_EQ(layer.metadata.at("metersPerUnit"), "1");
  EXPECT_EQ(layer.metadata.at("defaultPrim"), "\"Crowd\"");
  EXPECT_EQ(layer.relationships.at("/Crowd/Agents.prototypes"),
            std::vector<std::string>{"/Crowd/Agents/Prototypes/agent"});
  const auto& positions = layer.attributes.at("/Crowd/Agents.positions").by_code;
  const auto& orientations = layer.attributes.at("/Crowd/Agents.orientations").by_code;
  const auto& velocities = layer.attributes.at("/Crowd/Agents.velocities").by_code;
  // ids, protoIndices and invisibleIds hold their value between the samples written where
  // they change (a plain value when they never do), as USD resolves them.
  const UsdaSamples& ids = layer.attributes.at("/Crowd/Agents.ids");
  const UsdaSamples& proto = layer.attributes.at("/Crowd/Agents.protoIndices");
  const UsdaSamples& invisible = layer.attributes.at("/Crowd/Agents.invisibleIds");
  // Each character is scaled by its agent's radius over the model radius, 0.4 m by default.
  const UsdaSamples& scales = layer.attributes.at("/Crowd/Agents.scales");
  EXPECT_TRUE(scales.by_code.empty() && scales.has_value) << "sizes do not change";
  EXPECT_TRUE(ids.by_code.empty() && ids.has_value) << "every agent is there all shot long";
  EXPECT_TRUE(proto.by_code.empty() && proto.has_value) << "one type all shot long";
  EXPECT_LT(invisible.by_code.size(), static_cast<std::size_t>(kLastFrame / 2))
      << "a sample only where the set changes";
  const auto& extent = layer.attributes.at("/Crowd/Agents.extent").by_code;
  ASSERT_EQ(positions.size(), static_cast<std::size_t>(kLastFrame) + 1);
  int invisible_samples = 0, heading_checks = 0;
  for (int k = 0; k <= kLastFrame; ++k) {
    ASSERT_EQ(positions.at(k).size(), 3u * kAgents);
    ASSERT_EQ(orientations.at(k).size(), 4u * kAgents);
    ASSERT_EQ(velocities.at(k).size(), 3u * kAgents);
    ASSERT_EQ(ids.held_at(k).size(), static_cast<std::size_t>(kAgents));
    ASSERT_EQ(proto.held_at(k), std::vector<double>(kAgents, 0.0));
    // The extent: (min, max) of every shown agent's capsule, 0.25 m round and 1.7 m tall at
    // scale 1.
    ASSERT_EQ(extent.at(k).size(), 6u);
    double lo_x = 1e30, hi_x = -1e30, lo_y = 1e30, hi_y = -1e30;
    std::vector<double> expected_invisible;
    for (int i = 0; i < kAgents; ++i) {
      const auto u = static_cast<std::size_t>(i);
      EXPECT_EQ(ids.held_at(k)[u], i);
      const std::optional<Sample> e = expected_sample(*steps_, k, i);
      if (!e) {
        expected_invisible.push_back(i);
        continue;
      }
      EXPECT_NEAR(positions.at(k)[3 * u], e->x, 1e-4) << "frame " << k << " agent " << i;
      // Standing on the 2D world's floor at 0 (the trajectory's y is the navmesh's, above it).
      EXPECT_EQ(positions.at(k)[3 * u + 1], 0.0);
      const double scale = scales.held_at(k)[3 * u];
      EXPECT_NEAR(scale, kRadius / 0.4, 1e-6);
      lo_x = std::min(lo_x, positions.at(k)[3 * u] - 0.25 * scale);
      hi_x = std::max(hi_x, positions.at(k)[3 * u] + 0.25 * scale);
      lo_y = std::min(lo_y, positions.at(k)[3 * u + 1]);
      hi_y = std::max(hi_y, positions.at(k)[3 * u + 1] + 1.7 * scale);
      EXPECT_NEAR(positions.at(k)[3 * u + 2], e->z, 1e-4);
      EXPECT_NEAR(velocities.at(k)[3 * u], e->vx, 1e-4);
      EXPECT_EQ(velocities.at(k)[3 * u + 1], 0.0);
      EXPECT_NEAR(velocities.at(k)[3 * u + 2], e->vz, 1e-4);
      // A rotation about +y only, unit length; walking steadily, it faces the velocity.
      const double w = orientations.at(k)[4 * u], qy = orientations.at(k)[4 * u + 2];
      EXPECT_EQ(orientations.at(k)[4 * u + 1], 0.0);
      EXPECT_EQ(orientations.at(k)[4 * u + 3], 0.0);
      EXPECT_NEAR(w * w + qy * qy, 1.0, 1e-5);
      // Steady: the velocity kept its direction (within 0.05 rad) for the last second, more
      // than three time constants of the heading smoothing.
      const double direction = std::atan2(e->vx, e->vz);
      bool steady = k >= 24 && std::hypot(e->vx, e->vz) > 0.8;
      for (int j = k - 24; steady && j < k; ++j) {
        const std::optional<Sample> earlier = expected_sample(*steps_, j, i);
        steady = earlier && std::hypot(earlier->vx, earlier->vz) > 0.5 &&
                 std::abs(std::remainder(std::atan2(earlier->vx, earlier->vz) - direction,
                                         2.0 * M_PI)) < 0.05;
      }
      if (steady) {
        const double heading = 2.0 * std::atan2(qy, w);
        EXPECT_LT(std::abs(std::remainder(heading - direction, 2.0 * M_PI)), 0.1)
            << "frame " << k << " agent " << i;
        ++heading_checks;
      }
    }
    EXPECT_EQ(invisible.held_at(k), expected_invisible) << "frame " << k;
    if (expected_invisible.size() < static_cast<std::size_t>(kAgents)) {
      EXPECT_NEAR(extent.at(k)[0], lo_x, 1e-4) << "frame " << k;
      EXPECT_NEAR(extent.at(k)[3], hi_x, 1e-4) << "frame " << k;
      EXPECT_NEAR(extent.at(k)[1], lo_y, 1e-4) << "frame " << k;
      EXPECT_NEAR(extent.at(k)[4], hi_y, 1e-4) << "frame " << k;
    }
    invisible_samples += static_cast<int>(expected_invisible.size());
  }
  EXPECT_GT(invisible_samples, 100);
  EXPECT_GT(heading_checks, 1000);
}

TEST_F(CrowdRunFilm, FilmCsvMatchesTheResampledTrajectory) {
  const CsvTable film = split_csv(read_file(*dir_ / "film.csv"));
  EXPECT_EQ(film.header,
            "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate");
  std::map<int, std::map<int, Sample>> frames;
  for (const std::vector<std::string>& f : film.rows) {
    ASSERT_EQ(f.size(), 13u) << f[0];
    EXPECT_EQ(f[3], "agent");
    const int k = std::stoi(f[0]);
    // Times are written within float precision (number_format.h).
    EXPECT_NEAR(std::stod(f[1]), k / kFps, 0x1p-23 * k / kFps + 1e-12);
    frames[k][std::stoi(f[2])] = {std::stof(f[4]), std::stof(f[5]), std::stof(f[6]),
                                  std::stof(f[7]), std::stof(f[8])};
  }
  ASSERT_EQ(frames.size(), static_cast<std::size_t>(kLastFrame) + 1);
  for (int k = 0; k <= kLastFrame; ++k)
    for (int i = 0; i < kAgents; ++i) {
      const std::optional<Sample> e = expected_sample(*steps_, k, i);
      const auto got = frames[k].find(i);
      ASSERT_EQ(got != frames[k].end(), e.has_value()) << "frame " << k << " agent " << i;
      if (e) {
        EXPECT_NEAR(got->second.x, e->x, 1e-4);
        EXPECT_EQ(got->second.y, 0.0f); // the floor, not the navmesh
        EXPECT_NEAR(got->second.z, e->z, 1e-4);
        EXPECT_NEAR(got->second.vx, e->vx, 1e-4);
      }
    }
}

TEST_F(CrowdRunFilm, JsonTracksMatchTheResampledTrajectory) {
  const nlohmann::json doc = nlohmann::json::parse(read_file(*dir_ / "tracks.json"));
  EXPECT_EQ(doc["fps"], 24.0);
  EXPECT_EQ(doc["frames"], kLastFrame + 1);
  EXPECT_EQ(doc["start_frame"], 0);
  ASSERT_EQ(doc["agents"].size(), static_cast<std::size_t>(kAgents));
  for (int i = 0; i < kAgents; ++i) {
    const auto& track = doc["agents"][static_cast<std::size_t>(i)];
    EXPECT_EQ(track["id"], i);
    EXPECT_EQ(track["type"], "agent");
    const int first = track["first_frame"];
    EXPECT_EQ(first, 0);
    const std::size_t length = track["x"].size();
    for (int k = 0; k <= kLastFrame; ++k) {
      const std::optional<Sample> e = expected_sample(*steps_, k, i);
      const bool in_track = k >= first && static_cast<std::size_t>(k - first) < length;
      ASSERT_EQ(in_track, e.has_value()) << "frame " << k << " agent " << i;
      if (e) {
        const auto j = static_cast<std::size_t>(k - first);
        EXPECT_NEAR(track["x"][j].get<double>(), e->x, 1e-4);
        EXPECT_EQ(track["y"][j].get<double>(), 0.0); // the floor, not the navmesh
        EXPECT_NEAR(track["z"][j].get<double>(), e->z, 1e-4);
        EXPECT_NEAR(track["vx"][j].get<double>(), e->vx, 1e-4);
        EXPECT_NEAR(track["vz"][j].get<double>(), e->vz, 1e-4);
      }
    }
  }
}

TEST(CrowdRunFilmOptions, CsvWithoutFpsStaysThePerStepTrajectory) {
  TempDir dir;
  const CliResult r = run_cli("run " + sample("circle.json") + " --backend cpu --steps 3 --out " +
                              (dir / "t.csv").string() + " --out " + (dir / "s.usda").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_file(dir / "t.csv").rfind("step,time,agent,x,y,z,vx,vz\n", 0), 0u);
  // The shot uses the default 24 fps, and starts at the film default frame, 1001.
  const UsdaLayer layer = read_usda((dir / "s.usda").string());
  ASSERT_EQ(layer.error, "");
  EXPECT_EQ(layer.metadata.at("framesPerSecond"), "24");
  EXPECT_EQ(layer.metadata.at("startTimeCode"), "1001");
  EXPECT_EQ(layer.metadata.at("endTimeCode"), "1008"); // 0.3 s x 24 = 7.2
}

TEST(CrowdRunFilmOptions, ScenarioCharactersSetTheLocomotionButNotTheMotion) {
  TempDir dir;
  nlohmann::json scene = nlohmann::json::parse(read_file(sample("circle.json")));
  const auto film_rows = [&](const std::string& name) {
    std::ofstream(dir / (name + ".json")) << scene.dump();
    const CliResult r = run_cli("run " + (dir / (name + ".json")).string() +
                                " --backend cpu --threads 1 --quiet --steps 40 --fps 24 --out " +
                                (dir / (name + ".csv")).string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return split_csv(read_file(dir / (name + ".csv"))).rows;
  };
  const auto plain = film_rows("plain");
  // A slow, short-stepping walk clip: half the authored speed, half the cycle.
  scene["characters"] = {{"agent", {{"walk_speed", 0.7}, {"walk_cycle", 0.75}}}};
  const auto slow = film_rows("slow");
  ASSERT_EQ(plain.size(), slow.size());
  int walking = 0;
  for (std::size_t r = 0; r < plain.size(); ++r) {
    for (int column : {0, 2, 4, 5, 6, 7, 8, 9}) // frame, agent, position, velocity, heading
      ASSERT_EQ(plain[r][column], slow[r][column]) << "row " << r;
    if (plain[r][10] != "walk" || slow[r][10] != "walk")
      continue;
    ++walking;
    EXPECT_NEAR(std::stod(slow[r][12]), 2.0 * std::stod(plain[r][12]), 1e-5) << "row " << r;
  }
  EXPECT_GT(walking, 100);
}

TEST(CrowdRunFilmFraming, PrerollAndHandlesFrameTheShotAroundTheStartFrame) {
  TempDir dir;
  const std::string common = "run " + sample("bottleneck.json") +
                             " --backend cpu --threads 1 --quiet --steps 100 --preroll 2 "
                             "--handles 8 ";
  const CliResult film =
      run_cli(common + "--fps 24 --out " + (dir / "film.csv").string() + " --out " +
              (dir / "tracks.json").string() + " --out " + (dir / "shot.usda").string());
  ASSERT_EQ(film.exit_code, 0) << film.output;
  const CliResult steps = run_cli(common + "--out " + (dir / "traj.csv").string());
  ASSERT_EQ(steps.exit_code, 0) << steps.output;
  // The run is longer by the preroll and the handles after the shot: 2 s + 8 / 24 s, 24 steps.
  const StepTable trajectory = read_step_csv(dir / "traj.csv");
  EXPECT_EQ(trajectory.rbegin()->first, 124);

  std::map<int, double> frame_time;
  std::map<int, std::vector<std::vector<std::string>>> rows;
  for (const std::vector<std::string>& f : split_csv(read_file(dir / "film.csv")).rows) {
    frame_time[std::stoi(f[0])] = std::stod(f[1]);
    rows[std::stoi(f[0])].push_back(f);
  }
  // Frame 1001 is at the end of the preroll, 2 s into the run; 8 handle frames before it.
  ASSERT_EQ(frame_time.begin()->first, 993);
  EXPECT_NEAR(frame_time.at(1001), 2.0, 1e-6);
  EXPECT_NEAR(frame_time.at(993), 2.0 - 8.0 / 24.0, 1e-6);
  // The shot keeps the scenario's 10 s (240 frames) after the start frame, then 8 handles.
  EXPECT_GE(frame_time.rbegin()->first, 1001 + 240 + 8);
  for (const auto& [frame, time] : frame_time)
    EXPECT_NEAR(time, 2.0 + (frame - 1001) / 24.0, 1e-5) << "frame " << frame;
  // The first frame written shows a crowd already in step: walking, mid-cycle.
  int walking = 0, mid_cycle = 0;
  for (const auto& f : rows.at(993)) {
    walking += f[10] == "walk";
    mid_cycle += std::stod(f[11]) > 0.0;
  }
  EXPECT_GT(walking, 40) << "of " << rows.at(993).size();
  EXPECT_GT(mid_cycle, 40);

  const UsdaLayer layer = read_usda((dir / "shot.usda").string());
  ASSERT_EQ(layer.error, "");
  EXPECT_EQ(layer.metadata.at("startTimeCode"), "993");
  EXPECT_EQ(layer.metadata.at("endTimeCode"), std::to_string(frame_time.rbegin()->first));
  const nlohmann::json tracks = nlohmann::json::parse(read_file(dir / "tracks.json"));
  EXPECT_EQ(tracks["start_frame"], 993);
  EXPECT_EQ(tracks["frames"], frame_time.size());
  EXPECT_EQ(tracks["agents"][0]["first_frame"], 993);

  // Handles before the start frame come out of the preroll: without one they are refused.
  const CliResult short_preroll =
      run_cli("run " + sample("bottleneck.json") + " --steps 10 --handles 8 --preroll 0.1 --out " +
              (dir / "refused.usda").string());
  EXPECT_EQ(short_preroll.exit_code, 2);
  EXPECT_NE(short_preroll.output.find("--handles 8 at 24 fps need a --preroll of at least"),
            std::string::npos)
      << short_preroll.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "refused.usda"));
}

TEST(CrowdRunFilmOptions, BinaryUsdAndABadFrameRateAreRefused) {
  TempDir dir;
  const CliResult usdc =
      run_cli("run " + sample("circle.json") + " --steps 3 --out " + (dir / "s.usdc").string());
  EXPECT_NE(usdc.exit_code, 0);
  EXPECT_NE(usdc.output.find(".usda"), std::string::npos) << usdc.output;
  const CliResult fps = run_cli("run " + sample("circle.json") + " --steps 3 --fps 0 --out " +
                                (dir / "s.usda").string());
  EXPECT_NE(fps.exit_code, 0);
  EXPECT_NE(fps.output.find("--fps"), std::string::npos) << fps.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

} // namespace
} // namespace crowd::testing

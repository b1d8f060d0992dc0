// `crowd run` on the film-shot sample (docs/scenario-extensions.md): agents that enter late
// (start delays, emitters) are in the trajectories only from the frame they enter, under
// their scenario ids, and the bytes do not depend on the thread count.
#include "tests/cli/cli_runner.h"
#include "tests/support/csv_table.h"
#include "tests/support/usda_test_reader.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace crowd::testing {
namespace {

struct Row {
  int step = 0;
  double vx = 0.0, vz = 0.0;
};

/// The rows of each agent id, in file order.
std::map<int, std::vector<Row>> rows_by_agent(const std::string& csv) {
  std::map<int, std::vector<Row>> rows;
  for (const std::vector<std::string>& cells : split_csv(csv).rows) {
    if (cells.size() != 8) {
      ADD_FAILURE() << "bad row of " << cells.size() << " cells";
      continue;
    }
    rows[std::stoi(cells[2])].push_back(
        {std::stoi(cells[0]), std::stod(cells[6]), std::stod(cells[7])});
  }
  return rows;
}

TEST(FilmShotRun, AgentsAppearFromTheFrameTheyEnterUnderTheirScenarioIds) {
  TempDir dir;
  const auto csv = dir / "shot.csv";
  const auto metrics = dir / "shot.json";
  const CliResult r = run_cli("run " + sample("film_shot.json") + " --backend cpu --out " +
                              csv.string() + " --metrics " + metrics.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = rows_by_agent(read_file(csv));

  // 1 hero, 12 commuters, 2 elderly, 7 joggers (0.5/s over 14 s), 12 office workers
  // (0.8/s over 15 s): every one enters within the 60 s shot.
  ASSERT_EQ(rows.size(), 34u);
  EXPECT_EQ(rows.begin()->first, 0);
  EXPECT_EQ(rows.rbegin()->first, 33);
  for (const auto& [agent, own] : rows) {
    // Present from its entry to its removal (or the end): one row per step, no gaps.
    for (std::size_t k = 1; k < own.size(); ++k) {
      ASSERT_EQ(own[k].step, own[k - 1].step + 1) << "agent " << agent;
    }
    // It enters standing.
    EXPECT_EQ(own.front().vx, 0.0) << "agent " << agent;
    EXPECT_EQ(own.front().vz, 0.0) << "agent " << agent;
  }
  EXPECT_EQ(rows.at(0).front().step, 10) << "the hero's start delay is 1 s";
  EXPECT_EQ(rows.at(13).front().step, 0) << "the elderly start at once";
  EXPECT_EQ(rows.at(15).front().step, 0) << "the first jogger is due at 0";
  EXPECT_GE(rows.at(16).front().step, 20) << "the second jogger is due at 2 s";
  EXPECT_GE(rows.at(22).front().step, 20) << "the south gate opens at 2 s";
  EXPECT_GE(rows.at(33).front().step, 158) << "the last office worker is due at 15.75 s";
  // Joggers and office workers leave the frame at their goals (on_arrival remove).
  EXPECT_LT(rows.at(15).back().step, 600);

  const nlohmann::json m = nlohmann::json::parse(read_file(metrics));
  EXPECT_EQ(m["agents"], 34);
  EXPECT_GE(m["arrived"].get<int>(), 30) << r.output;
  EXPECT_EQ(m["unreachable"], 0);
  EXPECT_EQ(m["wall_events"], 0);
  // Each type's agents are counted under its name.
  EXPECT_EQ(m["types"]["walker"]["agents"], 25);
  EXPECT_EQ(m["types"]["jogger"]["agents"], 7);
  EXPECT_EQ(m["types"]["elderly"]["agents"], 2);
}

TEST(FilmShotRun, TrajectoryBytesAreIdenticalWithOneAndTwoThreads) {
  TempDir dir;
  const auto one = dir / "one.csv";
  const auto two = dir / "two.csv";
  ASSERT_EQ(run_cli("run " + sample("film_shot.json") + " --backend cpu --threads 1 --out " +
                    one.string())
                .exit_code,
            0);
  ASSERT_EQ(run_cli("run " + sample("film_shot.json") + " --backend cpu --threads 2 --out " +
                    two.string())
                .exit_code,
            0);
  const std::string a = read_file(one);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == read_file(two)) << "trajectories differ between --threads 1 and --threads 2";
}

/// The shot's characters: walkers drawn from two prototypes by weight with four coloured
/// variations, joggers and the elderly in their type's colour; the USD instancer and the JSON
/// tracks agree agent by agent, and the cast does not depend on the thread count.
TEST(FilmShotRun, CharactersAreCastFromTheScenarioAndAgreeAcrossExports) {
  TempDir dir;
  const auto run = [&](int threads) {
    const std::string tag = std::to_string(threads);
    const CliResult r = run_cli("run " + sample("film_shot.json") + " --backend cpu --quiet " +
                                "--steps 300 --threads " + tag + " --out " +
                                (dir / ("shot" + tag + ".usda")).string() + " --out " +
                                (dir / ("tracks" + tag + ".json")).string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
  };
  run(1);
  run(2);
  EXPECT_TRUE(read_file(dir / "shot1.usda") == read_file(dir / "shot2.usda"));
  EXPECT_TRUE(read_file(dir / "tracks1.json") == read_file(dir / "tracks2.json"));

  const UsdaLayer layer = read_usda((dir / "shot1.usda").string());
  ASSERT_EQ(layer.error, "");
  const nlohmann::json tracks = nlohmann::json::parse(read_file(dir / "tracks1.json"));
  std::vector<std::string> prototypes;
  for (const std::string& target : layer.relationships.at("/Crowd/Agents.prototypes"))
    prototypes.push_back(target.substr(target.rfind('/') + 1));
  const UsdaSamples& proto = layer.attributes.at("/Crowd/Agents.protoIndices");
  const UsdaSamples& color = layer.attributes.at("/Crowd/Agents.primvars:displayColor");
  const UsdaSamples& variation = layer.attributes.at("/Crowd/Agents.primvars:crowd:variation");
  const UsdaSamples& seed = layer.attributes.at("/Crowd/Agents.primvars:crowd:variationSeed");
  const UsdaSamples& scale = layer.attributes.at("/Crowd/Agents.scales");
  EXPECT_EQ(color.metadata.at("interpolation"), "\"vertex\"");
  const long long last = std::stoll(layer.metadata.at("endTimeCode"));
  std::map<std::string, std::map<std::string, int>> prototypes_of_type;
  std::map<int, int> walker_variations;
  for (const auto& track : tracks["agents"]) {
    const auto id = track["id"].get<std::size_t>();
    const std::string type = track["type"];
    const std::string prototype = track["prototype"];
    ++prototypes_of_type[type][prototype];
    ASSERT_LT(id, proto.held_at(last).size());
    EXPECT_EQ(prototypes.at(static_cast<std::size_t>(proto.held_at(last)[id])), prototype);
    for (std::size_t c = 0; c < 3; ++c)
      EXPECT_NEAR(color.held_at(last)[3 * id + c], track["color"][c].get<double>(), 1e-6);
    EXPECT_EQ(variation.held_at(last)[id], track["variation"].get<double>());
    EXPECT_EQ(seed.held_at(last)[id], track["variation_seed"].get<double>());
    EXPECT_NEAR(scale.held_at(last)[3 * id], track["scale"].get<double>(), 1e-6);
    if (type == "walker") {
      ++walker_variations[track["variation"].get<int>()];
      // Variation k wears the k-th of the walkers' variation colours.
      const std::vector<double> reds{0.8, 0.2, 0.3, 0.6};
      EXPECT_NEAR(track["color"][0].get<double>(), reds.at(track["variation"].get<std::size_t>()),
                  1e-6);
    }
    if (type == "jogger") {
      EXPECT_EQ(prototype, "jogger");
      EXPECT_NEAR(track["color"][0].get<double>(), 0.9, 1e-6);
    }
  }
  // Walkers are women and men only, both drawn; the other types are drawn as themselves.
  ASSERT_TRUE(prototypes_of_type.contains("walker"));
  EXPECT_EQ(prototypes_of_type["walker"].size(), 2u);
  EXPECT_GT(prototypes_of_type["walker"]["woman_a"], 0);
  EXPECT_GT(prototypes_of_type["walker"]["man_b"], 0);
  EXPECT_GT(walker_variations.size(), 1u);
  EXPECT_EQ(prototypes_of_type["elderly"].size(), 1u);
}

/// Heading (radians about +y, 0 facing +z) of each agent at each time code of a shot: the
/// orientations (real, 0, sin h/2, 0) read back.
std::map<long long, std::vector<double>> headings_of(const UsdaLayer& layer) {
  std::map<long long, std::vector<double>> headings;
  for (const auto& [code, q] : layer.attributes.at("/Crowd/Agents.orientations").by_code)
    for (std::size_t i = 0; i + 3 < q.size(); i += 4)
      headings[code].push_back(2.0 * std::atan2(q[i + 2], q[i]));
  return headings;
}

/// The film shot's characters turn at most the turn-rate limit per frame (the shot used to
/// pop: 19 one-frame turns over 45 degrees, agent 0 turning 172.5 degrees in one frame as it
/// leaves the kiosk), and every agent starts facing the way it goes rather than +z.
TEST(FilmShotRun, CharactersTurnNoFasterThanTheLimitAndStartFacingTheirWay) {
  for (const double limit_degrees : {180.0, 90.0}) {
    TempDir dir;
    const auto shot = dir / "shot.usda";
    const CliResult r = run_cli("run " + sample("film_shot.json") +
                                " --backend cpu --fps 24 --quiet --max-turn-rate " +
                                std::to_string(limit_degrees) + " --out " + shot.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const UsdaLayer layer = read_usda(shot.string());
    ASSERT_EQ(layer.error, "");
    const auto headings = headings_of(layer);
    const auto& positions = layer.attributes.at("/Crowd/Agents.positions").by_code;
    const UsdaSamples& invisible = layer.attributes.at("/Crowd/Agents.invisibleIds");
    const auto& spin = layer.attributes.at("/Crowd/Agents.angularVelocities").by_code;
    const auto shown = [&](long long code, std::size_t i) {
      const std::vector<double> hidden = invisible.held_at(code);
      return std::find(hidden.begin(), hidden.end(), static_cast<double>(i)) == hidden.end();
    };
    // quath is half precision in USD's own reader: allow its rounding on top of the limit.
    const double limit = limit_degrees * std::numbers::pi / 180.0 / 24.0 + 2e-3;
    double largest = 0.0;
    std::set<std::size_t> started;
    int facing_checks = 0;
    for (auto it = headings.begin(); it != headings.end(); ++it) {
      const auto& [code, now] = *it;
      for (std::size_t i = 0; i < now.size(); ++i) {
        if (!shown(code, i))
          continue;
        const auto before = headings.find(code - 1);
        if (before != headings.end() && i < before->second.size() && shown(code - 1, i)) {
          const double turn = std::remainder(now[i] - before->second[i], 2.0 * std::numbers::pi);
          largest = std::max(largest, std::abs(turn));
          // angularVelocities: the same turn, in degrees per second about +y.
          EXPECT_NEAR(spin.at(code)[3 * i + 1], turn * 24.0 * 180.0 / std::numbers::pi, 0.05)
              << "agent " << i << " frame " << code;
        }
        if (!started.insert(i).second)
          continue;
        // Its first frame: where it is 1.5 s later, if it has gone a metre by then.
        const auto later = positions.find(code + 36);
        if (later == positions.end() || 3 * i + 2 >= later->second.size())
          continue;
        const double dx = later->second[3 * i] - positions.at(code)[3 * i];
        const double dz = later->second[3 * i + 2] - positions.at(code)[3 * i + 2];
        if (dx * dx + dz * dz < 1.0)
          continue;
        const double way = std::atan2(dx, dz);
        EXPECT_LT(std::abs(std::remainder(now[i] - way, 2.0 * std::numbers::pi)), 1.0)
            << "agent " << i << " starts at frame " << code << " facing away from its way";
        ++facing_checks;
      }
    }
    EXPECT_LE(largest, limit) << limit_degrees << " degrees per second";
    EXPECT_GT(largest, 0.5 * limit) << "some character turns at the limit";
    EXPECT_GE(facing_checks, 20);
  }
}

/// Film exports stand characters on the scenario's ground, not on the navmesh above it: on
/// plaza_mesh.json the floor is at 0 and the platform at 1.5 m, where the navmesh's heights are
/// 0.2 and 1.6 (the trajectory keeps those).
TEST(FilmExports, CharactersStandOnTheGroundNotOnTheNavmesh) {
  TempDir dir;
  const CliResult r =
      run_cli("run " + sample("plaza_mesh.json") +
              " --backend cpu --steps 100 --quiet --fps 24 --out " + (dir / "film.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const CsvTable film = split_csv(read_file(dir / "film.csv"));
  ASSERT_EQ(film.header,
            "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate");
  int on_floor = 0, on_platform = 0, floating = 0, rows = 0;
  for (const std::vector<std::string>& cells : film.rows) {
    ASSERT_EQ(cells.size(), 13u);
    const double y = std::stod(cells[5]);
    ++rows;
    on_floor += y == 0.0 ? 1 : 0;
    on_platform += std::abs(y - 1.5) < 1e-6 ? 1 : 0;
    floating += (std::abs(y - 0.2) < 0.05 || std::abs(y - 1.6) < 0.05) ? 1 : 0;
  }
  EXPECT_GT(rows, 10000);
  EXPECT_GT(on_floor, rows / 4);
  EXPECT_GT(on_platform, rows / 10);
  EXPECT_EQ(floating, 0) << "rows at the navmesh's heights, not the ground's";
}

} // namespace
} // namespace crowd::testing

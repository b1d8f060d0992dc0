// The USD shot, read back with the tests' usda reader: metadata, every attribute at every
// time code, prototypes per type, invisible agents.
#include "host/output/character_motion.h"
#include "host/output/usd_shot_writer.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/usda_test_reader.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <vector>

namespace crowd {
namespace {

using testing::read_usda;
using testing::TempDir;

constexpr char kInstancer[] = "/Crowd/Agents";

std::string attr(const char* name) {
  return std::string(kInstancer) + "." + name;
}

TEST(UsdShotWriter, WritesAPointInstancerTimeSampledPerFrame) {
  TempDir dir;
  const auto path = dir / "shot.usda";
  const int frames = 30;
  {
    UsdShotWriter writer(path, 24.0);
    CharacterMotion motion(1.0 / 24.0); // the headings the film resampler hands its sinks
    std::vector<std::string> types = {"adult", "child", "adult"};
    for (int f = 0; f < frames; ++f) {
      const float t = static_cast<float>(f) / 24.0f;
      // Agent 0 walks +x at 1.5 m/s, agent 1 walks -z, agent 2 is removed from frame 20 on;
      // agent 3 ("adult") is spawned at frame 10.
      std::vector<glm::vec3> positions = {
          {1.5f * t, 0.2f, 0.0f}, {5.0f, 0.2f, -t}, {-3.0f, 0.2f, 2.0f}};
      std::vector<glm::vec2> velocities = {{1.5f, 0.0f}, {0.0f, -1.0f}, {0.0f, 0.0f}};
      std::vector<AgentPhase> phases = {AgentPhase::Walking, AgentPhase::Walking,
                                        f >= 20 ? AgentPhase::Removed : AgentPhase::Arrived};
      std::vector<std::string> frame_types = types;
      if (f >= 10) {
        positions.push_back({0.0f, 0.2f, 7.0f});
        velocities.push_back({0.0f, 0.0f});
        phases.push_back(AgentPhase::Walking);
        frame_types.push_back("adult");
      }
      motion.update(velocities, phases);
      writer.write_frame(FrameView{f,
                                   f / 24.0,
                                   positions,
                                   velocities,
                                   phases,
                                   frame_types,
                                   motion.headings(),
                                   motion.turn_rates(),
                                   {},
                                   {},
                                   {},
                                   {}});
    }
    EXPECT_FALSE(std::filesystem::exists(path)) << "nothing under the name before finish";
    writer.finish();
  }
  // Only the shot remains: the per-attribute temporaries are gone.
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"shot.usda"});

  const testing::UsdaLayer layer = read_usda(path.string());
  ASSERT_EQ(layer.error, "");
  EXPECT_EQ(layer.first_line, "#usda 1.0");
  EXPECT_EQ(layer.metadata.at("defaultPrim"), "\"Crowd\"");
  EXPECT_EQ(layer.metadata.at("startTimeCode"), "0");
  EXPECT_EQ(layer.metadata.at("endTimeCode"), "29");
  EXPECT_EQ(layer.metadata.at("timeCodesPerSecond"), "24");
  EXPECT_EQ(layer.metadata.at("framesPerSecond"), "24");
  EXPECT_EQ(layer.metadata.at("upAxis"), "\"Y\"");
  EXPECT_EQ(layer.metadata.at("metersPerUnit"), "1");
  ASSERT_GE(layer.prims.size(), 2u);
  EXPECT_EQ(layer.prims[0], "/Crowd");
  EXPECT_EQ(layer.prims[1], kInstancer);
  EXPECT_EQ(layer.prim_types[1], "PointInstancer");

  const auto& targets = layer.relationships.at(attr("prototypes"));
  ASSERT_EQ(targets, (std::vector<std::string>{"/Crowd/Agents/Prototypes/adult",
                                               "/Crowd/Agents/Prototypes/child"}));
  for (const std::string& target : targets)
    EXPECT_NE(std::find(layer.prims.begin(), layer.prims.end(), target), layer.prims.end());

  const auto& positions = layer.attributes.at(attr("positions"));
  const auto& orientations = layer.attributes.at(attr("orientations"));
  const auto& velocities = layer.attributes.at(attr("velocities"));
  const auto& ids = layer.attributes.at(attr("ids"));
  const auto& proto = layer.attributes.at(attr("protoIndices"));
  const auto& invisible = layer.attributes.at(attr("invisibleIds"));
  const auto& spin = layer.attributes.at(attr("angularVelocities"));
  EXPECT_EQ(spin.type, "vector3f[]");
  EXPECT_EQ(positions.type, "point3f[]");
  EXPECT_EQ(orientations.type, "quath[]");
  EXPECT_EQ(velocities.type, "vector3f[]");
  EXPECT_EQ(ids.type, "int64[]");
  EXPECT_EQ(proto.type, "int[]");
  EXPECT_EQ(invisible.type, "int64[]");
  const auto& extent = layer.attributes.at(attr("extent"));
  EXPECT_EQ(extent.type, "float3[]");
  for (const auto* samples : {&positions, &orientations, &velocities, &spin, &extent})
    EXPECT_EQ(samples->by_code.size(), static_cast<std::size_t>(frames));
  // Held attributes get a sample where they change only: ids and protoIndices at frames 0
  // and 10 (an agent spawns), invisibleIds at 0 and 20 (one is removed).
  const auto codes = [](const testing::UsdaSamples& samples) {
    std::vector<long long> keys;
    for (const auto& [code, value] : samples.by_code)
      keys.push_back(code);
    return keys;
  };
  EXPECT_EQ(codes(ids), (std::vector<long long>{0, 10}));
  EXPECT_EQ(codes(proto), (std::vector<long long>{0, 10}));
  EXPECT_EQ(codes(invisible), (std::vector<long long>{0, 20}));
  // Prototypes sit under an `over`: seen through the instancer only. Their capsule has its
  // extent.
  const auto scope = std::find(layer.prims.begin(), layer.prims.end(), "/Crowd/Agents/Prototypes");
  ASSERT_NE(scope, layer.prims.end());
  EXPECT_EQ(layer.prim_specifiers[static_cast<std::size_t>(scope - layer.prims.begin())], "over");
  EXPECT_EQ(layer.attributes.at("/Crowd/Agents/Prototypes/adult/body.extent").value,
            (std::vector<double>{-0.25, -0.85, -0.25, 0.25, 0.85, 0.25}));

  const double s = std::sqrt(0.5);
  for (int f = 0; f < frames; ++f) {
    const std::size_t n = f >= 10 ? 4u : 3u;
    const float t = static_cast<float>(f) / 24.0f;
    const auto& p = positions.by_code.at(f);
    ASSERT_EQ(p.size(), 3 * n);
    // Floats are written in their shortest round-trip form: read back, they are the same.
    EXPECT_EQ(static_cast<float>(p[0]), 1.5f * t);
    EXPECT_EQ(static_cast<float>(p[5]), -t);
    EXPECT_EQ(velocities.by_code.at(f)[0], 1.5);
    EXPECT_EQ(velocities.by_code.at(f)[5], -1.0);
    // Heading +x: a quarter turn about +y, (cos 45, 0, sin 45, 0); heading -z: a half turn.
    const auto& q = orientations.by_code.at(f);
    ASSERT_EQ(q.size(), 4 * n);
    EXPECT_NEAR(q[0], s, 1e-6);
    EXPECT_NEAR(q[2], s, 1e-6);
    EXPECT_NEAR(std::abs(q[4]), 0.0, 1e-6);
    EXPECT_NEAR(std::abs(q[6]), 1.0, 1e-6);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(q[4 * i + 1], 0.0);
      EXPECT_EQ(q[4 * i + 3], 0.0);
      EXPECT_NEAR(q[4 * i] * q[4 * i] + q[4 * i + 2] * q[4 * i + 2], 1.0, 1e-6);
    }
    std::vector<double> expected_ids, expected_proto = {0, 1, 0};
    for (std::size_t i = 0; i < n; ++i)
      expected_ids.push_back(static_cast<double>(i));
    if (n == 4)
      expected_proto.push_back(0);
    EXPECT_EQ(ids.held_at(f), expected_ids);
    EXPECT_EQ(proto.held_at(f), expected_proto);
    EXPECT_EQ(invisible.held_at(f), f >= 20 ? std::vector<double>{2} : std::vector<double>{})
        << "frame " << f;
    // The instances' bounds: the shown agents' positions, widened by the capsule (0.25 m
    // round, 1.7 m tall), computed in floats as the writer does.
    std::vector<glm::vec3> shown = {{1.5f * t, 0.2f, 0.0f}, {5.0f, 0.2f, -t}};
    if (f < 20)
      shown.push_back({-3.0f, 0.2f, 2.0f});
    if (f >= 10)
      shown.push_back({0.0f, 0.2f, 7.0f});
    glm::vec3 lo = shown[0] + glm::vec3(-0.25f, 0.0f, -0.25f);
    glm::vec3 hi = shown[0] + glm::vec3(0.25f, 1.7f, 0.25f);
    for (const glm::vec3& agent : shown) {
      lo = glm::min(lo, agent + glm::vec3(-0.25f, 0.0f, -0.25f));
      hi = glm::max(hi, agent + glm::vec3(0.25f, 1.7f, 0.25f));
    }
    std::vector<double> got(extent.by_code.at(f).begin(), extent.by_code.at(f).end());
    for (double& v : got)
      v = static_cast<float>(v);
    EXPECT_EQ(got, (std::vector<double>{lo.x, lo.y, lo.z, hi.x, hi.y, hi.z})) << "frame " << f;
    // Nobody turns: every angular velocity is zero.
    EXPECT_EQ(spin.by_code.at(f), std::vector<double>(3 * n, 0.0)) << "frame " << f;
  }
}

TEST(UsdShotWriter, TypeLabelsBecomeValidUniquePrimNames) {
  TempDir dir;
  const auto path = dir / "shot.usda";
  {
    UsdShotWriter writer(path, 25.0);
    const std::vector<glm::vec3> positions(3, glm::vec3(0.0f));
    const std::vector<glm::vec2> velocities(3, glm::vec2(0.0f));
    const std::vector<AgentPhase> phases(3, AgentPhase::Walking);
    const std::vector<std::string> types = {"old man", "old_man", "2\"wheels"};
    writer.write_frame(
        FrameView{0, 0.0, positions, velocities, phases, types, {}, {}, {}, {}, {}, {}});
    writer.finish();
  }
  const testing::UsdaLayer layer = read_usda(path.string());
  ASSERT_EQ(layer.error, "");
  EXPECT_EQ(layer.relationships.at(attr("prototypes")),
            (std::vector<std::string>{"/Crowd/Agents/Prototypes/old_man",
                                      "/Crowd/Agents/Prototypes/old_man_2",
                                      "/Crowd/Agents/Prototypes/_2_wheels"}));
  EXPECT_EQ(layer.metadata.at("endTimeCode"), "0");
  EXPECT_EQ(layer.metadata.at("framesPerSecond"), "25");
}

TEST(UsdShotWriter, AbandonedShotLeavesNothing) {
  TempDir dir;
  {
    UsdShotWriter writer(dir / "shot.usda", 24.0);
    const std::vector<glm::vec3> positions(1, glm::vec3(0.0f));
    const std::vector<glm::vec2> velocities(1, glm::vec2(0.0f));
    const std::vector<AgentPhase> phases(1, AgentPhase::Walking);
    const std::vector<std::string> types(1, "agent");
    writer.write_frame(
        FrameView{0, 0.0, positions, velocities, phases, types, {}, {}, {}, {}, {}, {}});
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

} // namespace
} // namespace crowd

// Per-agent tracks: the transpose of the frames, whatever block size the transpose uses.
#include "host/output/track_json_writer.h"
#include "tests/cli/cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <vector>

namespace crowd {
namespace {

using testing::read_file;
using testing::TempDir;

/// 5 agents over 12 frames: agent 3 spawns at frame 4, agent 1 is removed from frame 7 on,
/// agent 4 is never shown.
void write_frames(FrameSink& sink) {
  for (int f = 0; f < 12; ++f) {
    const std::size_t n = f >= 4 ? 5u : 3u;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec2> velocities;
    std::vector<AgentPhase> phases;
    std::vector<std::string> types = {"a", "b", "a", "c", "d"};
    types.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      positions.push_back(
          {static_cast<float>(i) + 0.25f * static_cast<float>(f), 0.1f, -static_cast<float>(f)});
      velocities.push_back({static_cast<float>(i), 0.5f * static_cast<float>(f)});
      phases.push_back((i == 1 && f >= 7) || i == 4 ? AgentPhase::Removed : AgentPhase::Walking);
    }
    sink.write_frame(
        FrameView{f, f / 10.0, positions, velocities, phases, types, {}, {}, {}, {}, {}, {}});
  }
  sink.finish();
}

TEST(TrackJsonWriter, EachAgentsTrackHoldsItsShownFrames) {
  TempDir dir;
  TrackJsonWriter writer(dir / "tracks.json", 10.0);
  write_frames(writer);
  const nlohmann::json doc = nlohmann::json::parse(read_file(dir / "tracks.json"));
  EXPECT_EQ(doc["fps"], 10.0);
  EXPECT_EQ(doc["frames"], 12);
  ASSERT_EQ(doc["agents"].size(), 5u);
  const std::vector<std::string> types = {"a", "b", "a", "c", "d"};
  for (int i = 0; i < 5; ++i) {
    const auto& agent = doc["agents"][static_cast<std::size_t>(i)];
    EXPECT_EQ(agent["id"], i);
    EXPECT_EQ(agent["type"], types[static_cast<std::size_t>(i)]);
    const int first = i == 3 ? 4 : 0;
    const int last = i == 1 ? 6 : 11;
    if (i == 4) {
      EXPECT_TRUE(agent["first_frame"].is_null());
      EXPECT_TRUE(agent["x"].empty());
      continue;
    }
    EXPECT_EQ(agent["first_frame"], first);
    ASSERT_EQ(agent["x"].size(), static_cast<std::size_t>(last - first + 1));
    for (int f = first; f <= last; ++f) {
      const auto j = static_cast<std::size_t>(f - first);
      EXPECT_EQ(agent["x"][j].get<float>(), static_cast<float>(i) + 0.25f * static_cast<float>(f));
      EXPECT_EQ(agent["y"][j].get<float>(), 0.1f);
      EXPECT_EQ(agent["z"][j].get<float>(), -static_cast<float>(f));
      EXPECT_EQ(agent["vx"][j].get<float>(), static_cast<float>(i));
      EXPECT_EQ(agent["vz"][j].get<float>(), 0.5f * static_cast<float>(f));
    }
  }
}

TEST(TrackJsonWriter, SameFileWhateverTheTransposeBlock) {
  TempDir dir;
  TrackJsonWriter one_agent_blocks(dir / "small.json", 10.0, 1);
  write_frames(one_agent_blocks);
  TrackJsonWriter one_block(dir / "large.json", 10.0);
  write_frames(one_block);
  EXPECT_EQ(read_file(dir / "small.json"), read_file(dir / "large.json"));
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names.size(), 2u) << "the binary temporaries are gone";
}

} // namespace
} // namespace crowd

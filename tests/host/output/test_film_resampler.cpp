// Film frames from simulation steps: frame k at k / fps, linear between the bracketing steps.
#include "host/output/film_resampler.h"

#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace crowd {
namespace {

struct RecordedFrame {
  int number = 0;
  double time = 0.0;
  std::vector<glm::vec3> positions;
  std::vector<glm::vec2> velocities;
  std::vector<AgentPhase> phases;
  std::vector<std::string> types;
};

class RecordingSink : public FrameSink {
public:
  explicit RecordingSink(std::vector<RecordedFrame>& frames, bool& finished)
      : frames_(frames), finished_(finished) {}
  void write_frame(const FrameView& f) override {
    frames_.push_back({f.number,
                       f.time,
                       {f.positions.begin(), f.positions.end()},
                       {f.velocities.begin(), f.velocities.end()},
                       {f.phases.begin(), f.phases.end()},
                       {f.types.begin(), f.types.end()}});
  }
  void finish() override { finished_ = true; }
  void save(ArchiveWriter&) override {} // it keeps nothing but what it recorded
  void restore(ArchiveReader&) override {}

private:
  std::vector<RecordedFrame>& frames_;
  bool& finished_;
};

/// A step's state: agent 0 on a parabola x = t^2 (so linear interpolation is visibly not the
/// curve), agent 1 standing still.
struct Steps {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec2> velocities;
  std::vector<AgentPhase> phases;
  std::vector<std::string> types;
};

Steps state_at(double t, int agents) {
  Steps s;
  for (int i = 0; i < agents; ++i) {
    const float x = i == 0 ? static_cast<float>(t * t) : static_cast<float>(i);
    s.positions.push_back({x, 0.5f, static_cast<float>(-t)});
    s.velocities.push_back({static_cast<float>(2 * t), -1.0f});
    s.phases.push_back(AgentPhase::Walking);
    s.types.push_back(i == 0 ? "runner" : "agent");
  }
  return s;
}

FrameView view_of(const Steps& s, int number, double time) {
  return FrameView{number, time, s.positions, s.velocities, s.phases, s.types,
                   {},     {},   {},          {},           {},       {}};
}

std::unique_ptr<FilmResampler> resampler(double fps, std::vector<RecordedFrame>& frames,
                                         bool& finished) {
  std::vector<std::unique_ptr<FrameSink>> sinks;
  sinks.push_back(std::make_unique<RecordingSink>(frames, finished));
  return std::make_unique<FilmResampler>(fps, std::move(sinks));
}

TEST(FilmResampler, FramesAtKOverFpsInterpolateLinearlyBetweenBracketingSteps) {
  // dt = 0.1 s, 24 fps: 2.4 frames per step, a non-integer ratio.
  std::vector<RecordedFrame> frames;
  bool finished = false;
  auto film = resampler(24.0, frames, finished);
  const double dt = 0.1;
  for (int s = 0; s <= 10; ++s) {
    const Steps st = state_at(s * dt, 2);
    film->write_frame(view_of(st, s, s * dt));
  }
  film->finish();
  EXPECT_TRUE(finished);
  // 1 s of steps: frames 0..24.
  ASSERT_EQ(frames.size(), 25u);
  EXPECT_EQ(film->frames_written(), 25);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const RecordedFrame& f = frames[k];
    const double t = static_cast<double>(k) / 24.0;
    EXPECT_EQ(f.number, static_cast<int>(k));
    EXPECT_NEAR(f.time, t, 1e-12);
    const int before = std::min(9, static_cast<int>(std::floor(t / dt + 1e-9)));
    const double t0 = before * dt, t1 = (before + 1) * dt;
    const double a = (t - t0) / (t1 - t0);
    const double x0 = t0 * t0, x1 = t1 * t1;
    ASSERT_EQ(f.positions.size(), 2u);
    EXPECT_NEAR(f.positions[0].x, x0 + (x1 - x0) * a, 1e-6) << "frame " << k;
    EXPECT_NEAR(f.positions[0].z, -t, 1e-6);
    EXPECT_NEAR(f.velocities[0].x, 2 * t0 + (2 * t1 - 2 * t0) * a, 1e-6);
    EXPECT_EQ(f.positions[1].x, 1.0f);
    EXPECT_EQ(f.positions[1].y, 0.5f);
    EXPECT_NEAR(f.positions[1].z, -t, 1e-6);
    EXPECT_EQ(f.phases[0], AgentPhase::Walking);
    EXPECT_EQ(f.types, (std::vector<std::string>{"runner", "agent"}));
  }
  // Frames that fall on a step (every 5th frame = every 2nd step) are that step exactly.
  EXPECT_EQ(frames[12].positions[0].x, static_cast<float>(0.5 * 0.5));
  EXPECT_EQ(frames[24].positions[0].x, 1.0f);
}

TEST(FilmResampler, RemovedAndNotYetSpawnedAgentsAreNotShown) {
  std::vector<RecordedFrame> frames;
  bool finished = false;
  auto film = resampler(10.0, frames, finished); // 4 frames per step of 0.4 s
  Steps st = state_at(0.0, 2);
  film->write_frame(view_of(st, 0, 0.0));
  // Step 1: agent 1 removed, agent 2 spawned.
  st = state_at(0.4, 3);
  st.phases[1] = AgentPhase::Removed;
  film->write_frame(view_of(st, 1, 0.4));
  // Step 2: all as they are.
  st = state_at(0.8, 3);
  st.phases[1] = AgentPhase::Removed;
  film->write_frame(view_of(st, 2, 0.8));
  ASSERT_EQ(frames.size(), 9u);
  ASSERT_EQ(frames[0].positions.size(), 2u);
  EXPECT_EQ(frames[0].phases[1], AgentPhase::Walking);
  for (int k = 1; k <= 3; ++k) { // between steps 0 and 1
    ASSERT_EQ(frames[static_cast<std::size_t>(k)].phases.size(), 3u);
    EXPECT_EQ(frames[static_cast<std::size_t>(k)].phases[0], AgentPhase::Walking);
    EXPECT_EQ(frames[static_cast<std::size_t>(k)].phases[1], AgentPhase::Removed) << k;
    EXPECT_EQ(frames[static_cast<std::size_t>(k)].phases[2], AgentPhase::Removed) << k;
  }
  EXPECT_EQ(frames[4].phases[2], AgentPhase::Walking) << "shown from the step that spawned it";
  EXPECT_EQ(frames[4].phases[1], AgentPhase::Removed);
  for (int k = 5; k <= 8; ++k) {
    EXPECT_EQ(frames[static_cast<std::size_t>(k)].phases[2], AgentPhase::Walking);
    EXPECT_EQ(frames[static_cast<std::size_t>(k)].phases[1], AgentPhase::Removed);
  }
}

TEST(FilmResampler, RefusesANonPositiveFrameRate) {
  EXPECT_THROW(FilmResampler(0.0, {}), std::invalid_argument);
  EXPECT_THROW(FilmResampler(-24.0, {}), std::invalid_argument);
}

} // namespace
} // namespace crowd

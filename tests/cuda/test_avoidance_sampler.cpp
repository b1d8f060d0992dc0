// The avoidance sampler (cuda/kernels/avoidance_sampler.h, run through the kernel body
// choose_velocity of cuda/kernels/avoidance.h on the CPU block) against DetourCrowd's own
// dtObstacleAvoidanceQuery::sampleVelocityAdaptive, plus unit tests of its pieces.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/avoidance_pattern.h"
#include "cuda/kernels/avoidance.h"
#include "cuda/kernels/avoidance_sampler.h"
#include "host/backends/detour_backend.h"
#include "host/sim/cpu_block.h"
#include "tests/support/crowd_test_support.h"

#include <DetourObstacleAvoidance.h>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {
namespace {

using test::dt3;
using test::Rng;

constexpr float kPi = 3.14159265f;

// --- A random avoidance problem: one agent, its neighbour circles and wall segments ---------

struct Circle {
  glm::vec3 position{0.0f};
  float radius = 0.0f;
  glm::vec2 velocity{0.0f}, desired_velocity{0.0f};
};

struct Segment {
  glm::vec2 p{0.0f}, q{0.0f};
};

struct Problem {
  glm::vec3 position{0.0f};
  float radius = 0.0f;
  float max_speed = 0.0f;
  glm::vec2 velocity{0.0f}, desired_velocity{0.0f};
  std::vector<Circle> circles;   // at most 6, as dtCrowd
  std::vector<Segment> segments; // at most 8, as dtCrowd
};

glm::vec2 random_velocity(Rng& rng, float vmax) {
  const double kind = rng.uniform(0.0f, 1.0f);
  if (kind < 0.05)
    return glm::vec2(0.0f);
  if (kind < 0.30)
    return rng.direction() * vmax; // walking at full speed, the usual case in a crowd
  return rng.in_disc(vmax);
}

/// A configuration as dtCrowd would hand it to the query: up to 6 neighbours within 5 m,
/// up to 8 wall segments near the agent, each facing it (dtTriArea2D(pos, p, q) >= 0).
/// `height_jitter` > 0 gives the agent and its neighbours small random heights.
Problem random_problem(Rng& rng, float height_jitter) {
  Problem pr;
  const auto y = [&] {
    return height_jitter > 0 ? rng.uniform(-height_jitter, height_jitter) : 0.0f;
  };
  pr.position = {rng.uniform(-20, 20), y(), rng.uniform(-20, 20)};
  pr.radius = rng.uniform(0.2f, 0.6f);
  pr.max_speed = rng.uniform(0.5f, 3.5f);
  pr.velocity = random_velocity(rng, pr.max_speed);
  pr.desired_velocity = random_velocity(rng, pr.max_speed);
  const glm::vec2 pos = ground(pr.position);

  const int circles = rng.integer(0, 6);
  for (int k = 0; k < circles; ++k) {
    Circle c;
    const glm::vec2 at = pos + rng.direction() * rng.uniform(0.01f, 5.0f);
    c.position = {at.x, pr.position.y + y(), at.y};
    c.radius = rng.uniform(0.2f, 0.6f);
    const float their_max = rng.uniform(0.5f, 3.5f);
    c.velocity = random_velocity(rng, their_max);
    c.desired_velocity = random_velocity(rng, their_max);
    pr.circles.push_back(c);
  }

  const int segments = rng.integer(0, 8);
  for (int k = 0; k < segments; ++k) {
    Segment s;
    const glm::vec2 dir = rng.direction();
    const float half = rng.uniform(0.15f, 2.5f);
    glm::vec2 mid;
    if (rng.chance(0.15)) {
      // Within 1 cm of the agent: processSample's "touch" case.
      const glm::vec2 normal{-dir.y, dir.x};
      mid = pos + normal * rng.uniform(0.0f, 0.009f) + dir * rng.uniform(-0.9f * half, 0.9f * half);
    } else {
      mid = pos + rng.in_disc(4.0f);
    }
    s.p = mid - dir * half;
    s.q = mid + dir * half;
    if (tri_area_2d(pos, s.p, s.q) < 0.0f)
      std::swap(s.p, s.q);
    pr.segments.push_back(s);
  }
  return pr;
}

// --- Our side: the kernel body ----------------------------------------------------------------

/// The problem as agent 0 of an AgentArrays, neighbours 1..n, with its proximity rows filled.
AgentArrays agent_arrays_for(const Problem& pr, const AvoidanceParams& params) {
  AgentArrays a = test::make_agent_arrays(6, 8);
  const std::int32_t set = a.avoidance_set_of(params);
  a.append(pr.position, pr.radius, 2.0f, 8.0f, 5.0f, 0.0f, set);
  a.desired_speed[0] = pr.max_speed;
  a.velocity[0] = pr.velocity;
  a.desired_velocity[0] = pr.desired_velocity;
  for (const Circle& c : pr.circles) {
    const int j = a.append(c.position, c.radius, 2.0f, 8.0f, 5.0f, 0.0f, set);
    a.velocity[j] = c.velocity;
    a.desired_velocity[j] = c.desired_velocity;
    a.neighbor_index[static_cast<std::size_t>(a.neighbor_count[0]++)] = j;
  }
  for (const Segment& s : pr.segments)
    a.segment[static_cast<std::size_t>(a.segment_count[0]++)] = {s.p.x, s.p.y, s.q.x, s.q.y};
  return a;
}

/// choose_velocity for agent 0, run by the CPU block.
glm::vec2 kernel_velocity(const Problem& pr, const AvoidanceParams& params) {
  AgentArrays a = agent_arrays_for(pr, params);
  const AgentView view = a.view();
  CpuAvoidanceScratch scratch(view.max_neighbors, view.max_segments);
  CpuBlock block;
  a.new_velocity[0] = glm::vec2(12345.0f);
  choose_velocity(block, 0, view, scratch.view(), StandoffParams{}, 0.1f);
  return a.new_velocity[0];
}

/// The sampler's context for the problem, prepared as choose_velocity prepares it.
struct Prepared {
  std::vector<SamplerCircle> circles;
  std::vector<SamplerSegment> segments;
  SamplerContext ctx;
};

std::unique_ptr<Prepared> prepare(const Problem& pr, const AvoidanceParams& params) {
  auto out = std::make_unique<Prepared>();
  SamplerAgent agent;
  agent.position = pr.position;
  agent.radius = pr.radius;
  agent.max_speed = pr.max_speed;
  agent.velocity = pr.velocity;
  agent.desired_velocity = pr.desired_velocity;
  for (const Circle& c : pr.circles)
    out->circles.push_back(
        prepare_circle(agent, c.position, c.radius, c.velocity, c.desired_velocity));
  for (const Segment& s : pr.segments)
    out->segments.push_back(prepare_segment(agent, s.p, s.q));
  out->ctx = make_sampler_context(agent, params);
  out->ctx.circles = out->circles.data();
  out->ctx.circle_count = static_cast<int>(out->circles.size());
  out->ctx.segments = out->segments.data();
  out->ctx.segment_count = static_cast<int>(out->segments.size());
  return out;
}

/// One refinement level of our sampler: the centre and radius it searched and what it chose.
struct Level {
  glm::vec2 centre{0.0f};
  float radius = 0.0f;
  glm::vec2 chosen{0.0f};
};

/// The levels of choose_velocity, replayed with the sampler's pieces (for diagnosis).
std::vector<Level> trace_levels(const SamplerContext& ctx) {
  std::vector<glm::vec2> pattern(kMaxPatternSamples);
  build_sample_pattern(ctx.params, pattern_rotation(ctx.params), ctx.agent.desired_velocity,
                       pattern.data());
  const int samples = ctx.params.samples_per_level();
  std::vector<Level> levels;
  float radius = ctx.agent.max_speed * (1.0f - ctx.params.vel_bias);
  glm::vec2 centre = ctx.agent.desired_velocity * ctx.params.vel_bias;
  for (int level = 0; level < ctx.params.adaptive_depth; ++level) {
    Level l;
    l.centre = centre;
    l.radius = radius;
    float best = FLT_MAX;
    for (int s = 0; s < samples; ++s) {
      glm::vec2 v;
      if (!candidate_velocity(ctx, centre, radius, pattern[static_cast<std::size_t>(s)], v))
        continue;
      const float p = sample_penalty(ctx, v, best);
      if (p < best) {
        best = p;
        l.chosen = v;
      }
    }
    levels.push_back(l);
    centre = l.chosen;
    radius *= 0.5f;
  }
  return levels;
}

// --- Detour's side ----------------------------------------------------------------------------

struct DetourQueryDeleter {
  void operator()(dtObstacleAvoidanceQuery* q) const { dtFreeObstacleAvoidanceQuery(q); }
};
struct DetourDebugDeleter {
  void operator()(dtObstacleAvoidanceDebugData* d) const { dtFreeObstacleAvoidanceDebugData(d); }
};

class DetourSampler {
public:
  DetourSampler()
      : query_(dtAllocObstacleAvoidanceQuery()), debug_(dtAllocObstacleAvoidanceDebugData()) {
    // dtCrowd::init: m_obstacleQuery->init(6, 8).
    if (!query_ || !query_->init(6, 8) || !debug_ || !debug_->init(4096))
      throw std::runtime_error("Detour obstacle query allocation failed");
  }

  /// sampleVelocityAdaptive as dtCrowd::update calls it. With `record`, Detour's debug data
  /// keeps every fully evaluated sample (velocity, size = radius / 10, penalty).
  glm::vec2 velocity(const Problem& pr, const AvoidanceParams& params, bool record = false) {
    query_->reset();
    for (const Circle& c : pr.circles) {
      const auto p = dt3(c.position);
      const auto v = dt3(c.velocity);
      const auto dv = dt3(c.desired_velocity);
      query_->addCircle(p.data(), c.radius, v.data(), dv.data());
    }
    for (const Segment& s : pr.segments) {
      const auto p = dt3(s.p, pr.position.y);
      const auto q = dt3(s.q, pr.position.y);
      query_->addSegment(p.data(), q.data());
    }
    const dtObstacleAvoidanceParams dp = to_detour_params(params);
    const auto pos = dt3(pr.position);
    const auto vel = dt3(pr.velocity);
    const auto dvel = dt3(pr.desired_velocity);
    float nvel[3] = {0.0f, 0.0f, 0.0f};
    query_->sampleVelocityAdaptive(pos.data(), pr.radius, pr.max_speed, vel.data(), dvel.data(),
                                   nvel, &dp, record ? debug_.get() : nullptr);
    return {nvel[0], nvel[2]};
  }

  /// After velocity(..., record = true): Detour's choice at each level, rebuilt from the
  /// recorded samples (the first of lowest penalty per sample size; samples that bailed out
  /// early were not recorded, and they could not have been chosen).
  std::vector<glm::vec2> recorded_choices() const {
    std::vector<glm::vec2> choices;
    float size = -1.0f, best = FLT_MAX;
    for (int s = 0; s < debug_->getSampleCount(); ++s) {
      const float* v = debug_->getSampleVelocity(s);
      if (debug_->getSampleSize(s) != size) {
        size = debug_->getSampleSize(s);
        best = FLT_MAX;
        choices.emplace_back(0.0f);
      }
      if (debug_->getSamplePenalty(s) < best) {
        best = debug_->getSamplePenalty(s);
        choices.back() = {v[0], v[2]};
      }
    }
    return choices;
  }

  const dtObstacleAvoidanceDebugData& debug() const { return *debug_; }

private:
  std::unique_ptr<dtObstacleAvoidanceQuery, DetourQueryDeleter> query_;
  std::unique_ptr<dtObstacleAvoidanceDebugData, DetourDebugDeleter> debug_;
};

bool same_velocity(glm::vec2 a, glm::vec2 b, float tol) {
  return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol;
}

float relative_difference(float a, float b) {
  return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), FLT_MIN});
}

// --- The comparison with DetourCrowd --------------------------------------------------------

struct PresetCase {
  const char* name;
  AvoidancePreset preset;
};

void PrintTo(const PresetCase& c, std::ostream* os) {
  *os << c.name;
}

class MatchesDetour : public ::testing::TestWithParam<PresetCase> {};

/// Runs `count` random problems; every chosen velocity must agree with Detour's to 1e-4 m/s
/// per component, or else the two choices must tie in penalty at the level where they part.
void compare_with_detour(const AvoidanceParams& params, const char* name, float height_jitter,
                         std::uint32_t seed, int count) {
  ASSERT_EQ(params.adaptive_divs % 2, 1) << "Detour's pattern is only defined for odd divs";
  Rng rng(seed);
  DetourSampler detour;
  int bitwise = 0, close = 0, ties = 0, disagreements = 0;
  for (int k = 0; k < count; ++k) {
    const Problem pr = random_problem(rng, height_jitter);
    const glm::vec2 ours = kernel_velocity(pr, params);
    const glm::vec2 theirs = detour.velocity(pr, params);
    if (ours == theirs) {
      ++bitwise;
      continue;
    }
    if (same_velocity(ours, theirs, 1e-4f)) {
      ++close;
      continue;
    }
    // They parted somewhere: find the first level where the choices differ and show that
    // the two candidates there have the same penalty (a tie decided by float rounding).
    const auto prepared = prepare(pr, params);
    const std::vector<Level> levels = trace_levels(prepared->ctx);
    ASSERT_EQ(levels.back().chosen, ours) << "the trace must replay the kernel, problem " << k;
    const glm::vec2 replay = detour.velocity(pr, params, /*record=*/true);
    ASSERT_EQ(replay, theirs);
    const std::vector<glm::vec2> detour_levels = detour.recorded_choices();
    ASSERT_EQ(detour_levels.size(), levels.size()) << "problem " << k;
    std::size_t level = 0;
    while (level < levels.size() &&
           same_velocity(levels[level].chosen, detour_levels[level], 1e-4f))
      ++level;
    ASSERT_LT(level, levels.size());
    const float pen_ours = sample_penalty(prepared->ctx, levels[level].chosen, FLT_MAX);
    const float pen_theirs = sample_penalty(prepared->ctx, detour_levels[level], FLT_MAX);
    const bool tie = relative_difference(pen_ours, pen_theirs) < 1e-5f;
    ++(tie ? ties : disagreements);
    EXPECT_TRUE(tie) << name << " problem " << k << " level " << level << ": ours (" << ours.x
                     << ", " << ours.y << ") penalty " << pen_ours << ", Detour (" << theirs.x
                     << ", " << theirs.y << ") penalty " << pen_theirs << "; " << pr.circles.size()
                     << " circles, " << pr.segments.size() << " segments";
  }
  std::printf("[ detour   ] %-7s %s: %d problems, %d bit-identical, %d within 1e-4 m/s, %d ties, "
              "%d disagreements\n",
              name, height_jitter > 0 ? "heights" : "flat   ", count, bitwise, close, ties,
              disagreements);
  ::testing::Test::RecordProperty(
      std::string(name) + (height_jitter > 0 ? "_heights" : "_flat") + "_agree", bitwise + close);
  ::testing::Test::RecordProperty(
      std::string(name) + (height_jitter > 0 ? "_heights" : "_flat") + "_ties", ties);
}

TEST_P(MatchesDetour, ChosenVelocityAgreesWithSampleVelocityAdaptiveOnFlatGround) {
  const AvoidanceParams params = avoidance_preset(GetParam().preset);
  compare_with_detour(params, GetParam().name, 0.0f,
                      20240601u + static_cast<std::uint32_t>(GetParam().preset), 2000);
}

TEST_P(MatchesDetour, ChosenVelocityAgreesWithSampleVelocityAdaptiveWithHeightDifferences) {
  // prepare normalises the direction to a neighbour in 3D, so heights change the side term.
  const AvoidanceParams params = avoidance_preset(GetParam().preset);
  compare_with_detour(params, GetParam().name, 0.3f,
                      777u + static_cast<std::uint32_t>(GetParam().preset), 1000);
}

INSTANTIATE_TEST_SUITE_P(RecastDemoPresets, MatchesDetour,
                         ::testing::Values(PresetCase{"low", AvoidancePreset::Low},
                                           PresetCase{"medium", AvoidancePreset::Medium},
                                           PresetCase{"good", AvoidancePreset::Good},
                                           PresetCase{"high", AvoidancePreset::High}),
                         [](const ::testing::TestParamInfo<PresetCase>& case_info) {
                           return std::string(case_info.param.name);
                         });

TEST(AvoidanceSampler, DtCrowdDefaultParametersAlsoMatchDetour) {
  // dtCrowd::init's defaults (vel_bias 0.4, 7 divs, 2 rings, depth 5).
  compare_with_detour(AvoidanceParams{}, "default", 0.0f, 99u, 1000);
}

TEST(AvoidanceSampler, ZeroMaxSpeedChoosesZeroVelocityLikeDetour) {
  Rng rng(5);
  DetourSampler detour;
  const AvoidanceParams params = avoidance_preset(AvoidancePreset::Medium);
  for (int k = 0; k < 200; ++k) {
    Problem pr = random_problem(rng, 0.0f);
    pr.max_speed = 0.0f;
    pr.velocity = k % 2 ? glm::vec2(0.0f) : rng.in_disc(1.0f);
    pr.desired_velocity = k % 3 ? glm::vec2(0.0f) : rng.in_disc(1.0f);
    EXPECT_EQ(kernel_velocity(pr, params), glm::vec2(0.0f)) << k;
    EXPECT_EQ(detour.velocity(pr, params), glm::vec2(0.0f)) << k;
  }
}

// --- Behaviour of choose_velocity ---------------------------------------------------------

TEST(AvoidanceSampler, UnobstructedAgentKeepsItsDesiredVelocity) {
  for (const auto preset : {AvoidancePreset::Low, AvoidancePreset::Medium, AvoidancePreset::Good,
                            AvoidancePreset::High}) {
    Problem pr;
    pr.radius = 0.4f;
    pr.max_speed = 2.0f;
    pr.desired_velocity = {0.0f, 2.0f};
    pr.velocity = pr.desired_velocity;
    const glm::vec2 v = kernel_velocity(pr, avoidance_preset(preset));
    EXPECT_NEAR(v.x, 0.0f, 1e-5f);
    EXPECT_NEAR(v.y, 2.0f, 1e-5f);
  }
}

TEST(AvoidanceSampler, AgentSlowsOrTurnsForAnOncomingNeighbour) {
  Problem pr;
  pr.radius = 0.5f;
  pr.max_speed = 1.5f;
  pr.desired_velocity = {1.5f, 0.0f};
  pr.velocity = pr.desired_velocity;
  Circle c;
  c.position = {2.0f, 0.0f, 0.0f};
  c.radius = 0.5f;
  c.velocity = {-1.5f, 0.0f};
  c.desired_velocity = c.velocity;
  pr.circles.push_back(c);
  const glm::vec2 v = kernel_velocity(pr, avoidance_preset(AvoidancePreset::High));
  // Not straight into it: some sideways component, or a stop.
  EXPECT_TRUE(std::fabs(v.y) > 0.1f || v.x < 0.75f) << v.x << ", " << v.y;
  EXPECT_LE(v.x * v.x + v.y * v.y, (1.5f + 0.001f) * (1.5f + 0.001f));
}

TEST(AvoidanceSampler, InactiveAgentIsLeftUntouched) {
  Problem pr;
  pr.max_speed = 1.0f;
  pr.desired_velocity = {1.0f, 0.0f};
  AgentArrays a = agent_arrays_for(pr, avoidance_preset(AvoidancePreset::Low));
  a.mode[0] = kAgentInactive;
  a.new_velocity[0] = {7.0f, 7.0f};
  CpuAvoidanceScratch scratch(a.max_neighbors, a.max_segments);
  CpuBlock block;
  choose_velocity(block, 0, a.view(), scratch.view(), StandoffParams{}, 0.1f);
  EXPECT_EQ(a.new_velocity[0], glm::vec2(7.0f, 7.0f));
}

TEST(AvoidanceSampler, ChosenSpeedNeverExceedsMaxSpeed) {
  Rng rng(6);
  for (int k = 0; k < 2000; ++k) {
    const Problem pr = random_problem(rng, 0.0f);
    const glm::vec2 v = kernel_velocity(pr, avoidance_preset(AvoidancePreset::Good));
    const float limit = pr.max_speed + 0.001f;
    ASSERT_LE(v.x * v.x + v.y * v.y, limit * limit) << k;
  }
}

// --- The sampling pattern ---------------------------------------------------------------------

glm::vec2 rotate(glm::vec2 v, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {v.x * c - v.y * s, v.x * s + v.y * c};
}

TEST(SamplePattern, HasSamplesPerLevelPointsForEveryDivsAndRings) {
  Rng rng(7);
  for (int divs = -1; divs <= kMaxPatternDivs + 2; ++divs) {
    for (int rings = -1; rings <= kMaxPatternRings + 2; ++rings) {
      AvoidanceParams p;
      p.adaptive_divs = divs;
      p.adaptive_rings = rings;
      const int nd = std::clamp(divs, 1, kMaxPatternDivs);
      const int nr = std::clamp(rings, 1, kMaxPatternRings);
      ASSERT_EQ(p.samples_per_level(), nd * nr + 1);
      std::vector<glm::vec2> pattern(kMaxPatternSamples + 8, glm::vec2(99.0f));
      const int n =
          build_sample_pattern(p, pattern_rotation(p), rng.direction() * 1.3f, pattern.data());
      ASSERT_EQ(n, p.samples_per_level()) << divs << " divs, " << rings << " rings";
      // Nothing written past the pattern.
      for (std::size_t i = static_cast<std::size_t>(n); i < pattern.size(); ++i)
        ASSERT_EQ(pattern[i], glm::vec2(99.0f));
    }
  }
}

TEST(SamplePattern, PresetsSampleAsManyVelocitiesAsRecastDemoLabelsThem) {
  // RecastDemo's labels count samples over all levels: Low (11), Medium (22), Good (45),
  // High (66).
  const auto total = [](AvoidancePreset preset) {
    const AvoidanceParams p = avoidance_preset(preset);
    return p.samples_per_level() * p.adaptive_depth;
  };
  EXPECT_EQ(total(AvoidancePreset::Low), 11);
  EXPECT_EQ(total(AvoidancePreset::Medium), 22);
  EXPECT_EQ(total(AvoidancePreset::Good), 45);
  EXPECT_EQ(total(AvoidancePreset::High), 66);
}

TEST(SamplePattern, FirstSampleIsZeroAndRingsHaveRadiiNrMinusJOverNr) {
  Rng rng(8);
  for (int divs = 1; divs <= kMaxPatternDivs; ++divs) {
    for (int rings = 1; rings <= kMaxPatternRings; ++rings) {
      AvoidanceParams p;
      p.adaptive_divs = divs;
      p.adaptive_rings = rings;
      std::vector<glm::vec2> pattern(kMaxPatternSamples);
      build_sample_pattern(p, pattern_rotation(p), rng.direction() * rng.uniform(0.1f, 3.0f),
                           pattern.data());
      ASSERT_EQ(pattern[0], glm::vec2(0.0f));
      for (int j = 0; j < rings; ++j) {
        const float r = static_cast<float>(rings - j) / static_cast<float>(rings);
        for (int i = 0; i < divs; ++i) {
          const glm::vec2 pt = pattern[static_cast<std::size_t>(1 + j * divs + i)];
          ASSERT_NEAR(std::sqrt(pt.x * pt.x + pt.y * pt.y), r, 1e-5f)
              << divs << " divs, ring " << j << ", point " << i;
        }
      }
    }
  }
}

TEST(SamplePattern, RingsAreAlignedWithTheDesiredVelocityEvenRingsOnItOddRingsHalfADivOff) {
  Rng rng(9);
  for (int divs = 1; divs <= kMaxPatternDivs; ++divs) {
    const int rings = kMaxPatternRings;
    AvoidanceParams p;
    p.adaptive_divs = divs;
    p.adaptive_rings = rings;
    const glm::vec2 dir = rng.direction();
    std::vector<glm::vec2> pattern(kMaxPatternSamples);
    build_sample_pattern(p, pattern_rotation(p), dir * rng.uniform(0.1f, 3.0f), pattern.data());
    const float da = 2.0f * kPi / static_cast<float>(divs);
    for (int j = 0; j < rings; ++j) {
      const float r = static_cast<float>(rings - j) / static_cast<float>(rings);
      // The ring's first point is the desired direction, turned by da/2 on odd rings.
      const glm::vec2 first = pattern[static_cast<std::size_t>(1 + j * divs)];
      const glm::vec2 expected = rotate(dir, j % 2 ? da * 0.5f : 0.0f) * r;
      ASSERT_NEAR(first.x, expected.x, 1e-5f) << divs << " divs, ring " << j;
      ASSERT_NEAR(first.y, expected.y, 1e-5f) << divs << " divs, ring " << j;
      // The ring's points are the divs directions spaced da apart from there.
      std::vector<bool> seen(static_cast<std::size_t>(divs), false);
      for (int i = 0; i < divs; ++i) {
        const glm::vec2 pt = pattern[static_cast<std::size_t>(1 + j * divs + i)];
        float angle = std::atan2(pt.y, pt.x) - std::atan2(first.y, first.x);
        const int step = static_cast<int>(std::lround(angle / da));
        ASSERT_NEAR(angle, static_cast<float>(step) * da, 1e-4f) << divs << " divs, ring " << j;
        const int slot = ((step % divs) + divs) % divs;
        ASSERT_FALSE(seen[static_cast<std::size_t>(slot)]) << divs << " divs, ring " << j;
        seen[static_cast<std::size_t>(slot)] = true;
      }
    }
  }
}

TEST(SamplePattern, ZeroDesiredVelocityCollapsesEveryRingToTheCentreAsInDetour) {
  // dtNormalize2D leaves a zero vector zero, so the whole pattern degenerates to the centre.
  std::vector<glm::vec2> pattern(kMaxPatternSamples);
  const AvoidanceParams p = avoidance_preset(AvoidancePreset::High);
  const int n = build_sample_pattern(p, pattern_rotation(p), glm::vec2(0.0f), pattern.data());
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(pattern[static_cast<std::size_t>(i)], glm::vec2(0.0f)) << i;
}

TEST(SamplePattern, CandidatesMatchDetoursSamplesForOddDivs) {
  // With weight_toi 0 Detour never bails out early, so its debug data records every sample
  // of level 0: the candidates dvel * vel_bias + pattern * vmax * (1 - vel_bias).
  Rng rng(10);
  DetourSampler detour;
  for (int divs = 1; divs <= kMaxPatternDivs; divs += 2) {
    for (int rings = 1; rings <= kMaxPatternRings; ++rings) {
      AvoidanceParams p;
      p.weight_toi = 0.0f;
      p.adaptive_divs = divs;
      p.adaptive_rings = rings;
      p.adaptive_depth = 1;
      Problem pr;
      pr.max_speed = rng.uniform(0.5f, 3.5f);
      pr.desired_velocity = rng.direction() * pr.max_speed * rng.uniform(0.2f, 1.0f);
      detour.velocity(pr, p, /*record=*/true);
      const auto prepared = prepare(pr, p);
      std::vector<glm::vec2> pattern(kMaxPatternSamples);
      const int n =
          build_sample_pattern(p, pattern_rotation(p), pr.desired_velocity, pattern.data());
      const glm::vec2 centre = pr.desired_velocity * p.vel_bias;
      const float radius = pr.max_speed * (1.0f - p.vel_bias);
      ASSERT_EQ(detour.debug().getSampleCount(), n) << divs << " divs, " << rings << " rings";
      for (int i = 0; i < n; ++i) {
        glm::vec2 v;
        ASSERT_TRUE(candidate_velocity(prepared->ctx, centre, radius,
                                       pattern[static_cast<std::size_t>(i)], v));
        const float* d = detour.debug().getSampleVelocity(i);
        ASSERT_EQ(v, glm::vec2(d[0], d[2])) << divs << " divs, " << rings << " rings, sample " << i;
      }
    }
  }
}

TEST(SamplePattern, CandidatesFasterThanMaxSpeedAreRejected) {
  SamplerAgent agent;
  agent.max_speed = 2.0f;
  const SamplerContext ctx = make_sampler_context(agent, AvoidanceParams{});
  glm::vec2 v;
  EXPECT_TRUE(candidate_velocity(ctx, {1.0f, 0.0f}, 1.0f, {1.0f, 0.0f}, v));
  EXPECT_EQ(v, glm::vec2(2.0f, 0.0f));
  EXPECT_TRUE(candidate_velocity(ctx, {1.0f, 0.0f}, 1.0005f, {1.0f, 0.0f}, v)); // within 1 mm/s
  EXPECT_FALSE(candidate_velocity(ctx, {1.0f, 0.0f}, 1.01f, {1.0f, 0.0f}, v));
  EXPECT_FALSE(candidate_velocity(ctx, {0.0f, 1.5f}, 1.0f, {0.0f, 1.0f}, v));
}

// --- Early exit: what lets the CPU and GPU blocks agree -------------------------------------

TEST(SamplePenalty, ReachesTheBoundExactlyWhenTheFullPenaltyDoes) {
  Rng rng(21);
  const AvoidanceParams presets[] = {avoidance_preset(AvoidancePreset::Low),
                                     avoidance_preset(AvoidancePreset::High), AvoidanceParams{}};
  int below = 0, above = 0;
  for (int k = 0; k < 4000; ++k) {
    const Problem pr = random_problem(rng, k % 2 ? 0.3f : 0.0f);
    const auto prepared = prepare(pr, presets[k % 3]);
    for (int s = 0; s < 20; ++s) {
      const glm::vec2 v = rng.in_disc(pr.max_speed * 1.2f);
      const float full = sample_penalty(prepared->ctx, v, FLT_MAX);
      ASSERT_TRUE(std::isfinite(full));
      float bound = 0.0f;
      switch (s % 4) {
      case 0:
        bound = full;
        break;
      case 1:
        bound = full * rng.uniform(0.5f, 1.5f);
        break;
      case 2:
        bound = full * rng.uniform(0.98f, 1.02f);
        break;
      default:
        bound = rng.uniform(0.0f, 2.0f * full);
        break;
      }
      const float got = sample_penalty(prepared->ctx, v, bound);
      ASSERT_EQ(got >= bound, full >= bound)
          << "problem " << k << ": full " << full << ", bound " << bound << ", got " << got;
      if (full < bound) {
        ASSERT_EQ(got, full) << "below the bound the penalty must be the full one";
        ++below;
      } else {
        ++above;
      }
    }
  }
  EXPECT_GT(below, 10000);
  EXPECT_GT(above, 10000);
}

TEST(SamplePenalty, BoundsAtOrBelowTheVelocityTermsAloneNeverLetTheSampleWin) {
  // sample_penalty stops as soon as the bound minus the two velocity penalties is negative
  // (the reference evaluates such samples in full). Bounds straddling vpen + vcpen, down to
  // the float just below it, check that the full penalty is then never below the bound.
  Rng rng(23);
  const AvoidanceParams presets[] = {avoidance_preset(AvoidancePreset::Good),
                                     avoidance_preset(AvoidancePreset::High), AvoidanceParams{}};
  int stopped = 0;
  for (int k = 0; k < 3000; ++k) {
    const Problem pr = random_problem(rng, k % 2 ? 0.3f : 0.0f);
    const auto prepared = prepare(pr, presets[k % 3]);
    // The same problem without the side and time-of-impact terms: only vpen + vcpen remain.
    SamplerContext velocity_only = prepared->ctx;
    velocity_only.params.weight_side = 0.0f;
    velocity_only.params.weight_toi = 0.0f;
    for (int s = 0; s < 20; ++s) {
      const glm::vec2 v = rng.in_disc(pr.max_speed * 1.2f);
      const float velocity_terms = sample_penalty(velocity_only, v, FLT_MAX);
      const float full = sample_penalty(prepared->ctx, v, FLT_MAX);
      const float bounds[] = {std::nextafter(velocity_terms, 0.0f), velocity_terms,
                              velocity_terms * rng.uniform(0.0f, 1.0f),
                              velocity_terms * rng.uniform(0.999f, 1.001f)};
      for (const float bound : bounds) {
        const float got = sample_penalty(prepared->ctx, v, bound);
        if (bound < velocity_terms) {
          ASSERT_GE(full, bound) << "problem " << k << ": the velocity terms alone are "
                                 << velocity_terms;
          ASSERT_GE(got, bound) << "problem " << k;
          ++stopped;
        } else {
          ASSERT_EQ(got >= bound, full >= bound) << "problem " << k << ", bound " << bound;
        }
      }
    }
  }
  EXPECT_GT(stopped, 100000);
}

/// The GPU block's argmin (cuda/executor/gpu_block.cuh) on the host: every sample scored in
/// full; the first of lowest penalty when the reference's exits pass it whenever reached,
/// else the reference's choices replayed in sample order (counted in `replays`).
ArgMin gpu_argmin(int n, const LevelSamples& samples, int& replays) {
  std::vector<float> full(static_cast<std::size_t>(n));
  std::vector<SampleTerms> terms(static_cast<std::size_t>(n));
  ArgMin lowest;
  for (int t = 0; t < n; ++t) {
    const auto k = static_cast<std::size_t>(t);
    full[k] = samples.full_penalty(t, terms[k]);
    if (full[k] < lowest.value)
      lowest = {full[k], t};
  }
  if (lowest.index >= 0 &&
      samples.taken_whenever_reached(lowest.value, terms[static_cast<std::size_t>(lowest.index)]))
    return lowest;
  ++replays;
  ArgMin best;
  for (int t = 0; t < n; ++t) {
    const auto k = static_cast<std::size_t>(t);
    if (samples.taken_at(full[k], terms[k], best.value))
      best = {full[k], t};
  }
  return best;
}

/// Random levels of random problems over the four presets and larger patterns: the GPU's
/// choice over full penalties is what the CPU's loop with early exits chooses (the
/// reference's own loop), every time; and a plain argmin of the full penalties is not always,
/// because the reference's exits are not strict bounds (so the GPU's check is needed).
TEST(SamplePenalty, ReplayingTheEarlyExitsOverFullPenaltiesEqualsTheReferenceLoop) {
  Rng rng(22);
  AvoidanceParams largest = avoidance_preset(AvoidancePreset::High);
  largest.adaptive_divs = kMaxPatternDivs;
  largest.adaptive_rings = kMaxPatternRings;
  AvoidanceParams even = avoidance_preset(AvoidancePreset::Good);
  even.adaptive_divs = 12;
  const AvoidanceParams params[] = {avoidance_preset(AvoidancePreset::Low),
                                    avoidance_preset(AvoidancePreset::Medium),
                                    avoidance_preset(AvoidancePreset::Good),
                                    avoidance_preset(AvoidancePreset::High),
                                    even,
                                    largest};
  int levels = 0, tied_levels = 0, plain_argmin_differs = 0, replays = 0;
  for (int k = 0; k < 6000; ++k) {
    const Problem pr = random_problem(rng, k % 2 ? 0.3f : 0.0f);
    const auto prepared = prepare(pr, params[k % 6]);
    const SamplerContext& ctx = prepared->ctx;
    std::vector<glm::vec2> pattern(kMaxPatternSamples);
    build_sample_pattern(ctx.params, pattern_rotation(ctx.params), ctx.agent.desired_velocity,
                         pattern.data());
    const int n = ctx.params.samples_per_level();
    // Level 0, then a few random deeper levels.
    for (int level = 0; level < 4; ++level) {
      const glm::vec2 centre = level == 0 ? ctx.agent.desired_velocity * ctx.params.vel_bias
                                          : rng.in_disc(ctx.agent.max_speed);
      const float radius =
          ctx.agent.max_speed * (1.0f - ctx.params.vel_bias) / static_cast<float>(1 << level);
      const LevelSamples samples{&ctx, pattern.data(), centre, radius};
      CpuBlock block;
      const ArgMin reference = block.argmin(n, samples);
      const ArgMin replayed = gpu_argmin(n, samples, replays);
      ASSERT_EQ(replayed.index, reference.index) << "problem " << k << " level " << level;
      ASSERT_EQ(replayed.value, reference.value) << "problem " << k << " level " << level;
      // A plain argmin of the full penalties, ties to the lowest index.
      ArgMin plain;
      std::vector<float> all;
      for (int t = 0; t < n; ++t) {
        SampleTerms terms;
        all.push_back(samples.full_penalty(t, terms));
        if (all.back() < plain.value)
          plain = {all.back(), t};
      }
      tied_levels += std::count(all.begin(), all.end(), plain.value) > 1 ? 1 : 0;
      plain_argmin_differs += plain.index != reference.index ? 1 : 0;
      ++levels;
    }
  }
  std::printf("[ argmin   ] %d levels, %d with an exact tie for the minimum, %d where the plain "
              "argmin of full penalties differs from the reference's choice, %d replayed\n",
              levels, tied_levels, plain_argmin_differs, replays);
  EXPECT_GT(plain_argmin_differs, 0);
  EXPECT_GE(replays, plain_argmin_differs);
}

TEST(SamplePenalty, TiesGoToTheLowestSampleIndex) {
  // Zero desired velocity collapses the pattern: every sample is the same candidate.
  Problem pr;
  pr.max_speed = 1.0f;
  const auto prepared = prepare(pr, avoidance_preset(AvoidancePreset::High));
  const SamplerContext& ctx = prepared->ctx;
  std::vector<glm::vec2> pattern(kMaxPatternSamples);
  const int n = build_sample_pattern(ctx.params, pattern_rotation(ctx.params),
                                     ctx.agent.desired_velocity, pattern.data());
  const LevelSamples samples{&ctx, pattern.data(), glm::vec2(0.0f), 0.0f};
  CpuBlock block;
  EXPECT_EQ(block.argmin(n, samples).index, 0);
  int replays = 0;
  EXPECT_EQ(gpu_argmin(n, samples, replays).index, 0);
}

// --- processSample's terms --------------------------------------------------------------------

TEST(SamplePenalty, FreeSpaceCostsTheDistanceTermsAndTheHorizonTimeOfImpact) {
  SamplerAgent agent;
  agent.max_speed = 2.0f;
  agent.velocity = {1.0f, 0.0f};
  agent.desired_velocity = {0.0f, 2.0f};
  const AvoidanceParams p;
  const SamplerContext ctx = make_sampler_context(agent, p);
  const glm::vec2 v{0.0f, 0.0f};
  const float expected = p.weight_des_vel * (2.0f / 2.0f) + p.weight_cur_vel * (1.0f / 2.0f) +
                         p.weight_toi / (0.1f + 1.0f);
  EXPECT_NEAR(sample_penalty(ctx, v, FLT_MAX), expected, 1e-6f);
}

TEST(SamplePenalty, WallAheadCostsItsDoubledTimeOfImpact) {
  SamplerAgent agent;
  agent.max_speed = 2.0f;
  agent.desired_velocity = {2.0f, 0.0f};
  agent.velocity = agent.desired_velocity;
  const AvoidanceParams p;
  const SamplerSegment seg = prepare_segment(agent, {1.0f, 1.0f}, {1.0f, -1.0f});
  EXPECT_FALSE(seg.touch);
  SamplerContext ctx = make_sampler_context(agent, p);
  ctx.segments = &seg;
  ctx.segment_count = 1;
  // Moving at (2, 0) the wall 1 m ahead is hit at t = 0.5, doubled to 1.0.
  const float expected = p.weight_toi / (0.1f + 1.0f / p.horiz_time);
  EXPECT_NEAR(sample_penalty(ctx, {2.0f, 0.0f}, FLT_MAX), expected, 1e-5f);
}

TEST(SamplePenalty, TouchingWallBlocksEverythingButMovingAway) {
  SamplerAgent agent;
  agent.max_speed = 1.0f;
  const AvoidanceParams p;
  // Agent on the wall p -> q = (1, -1) -> (1, 1)... placed at x = 1.005.
  agent.position = {1.005f, 0.0f, 0.0f};
  const SamplerSegment seg = prepare_segment(agent, {1.0f, -1.0f}, {1.0f, 1.0f});
  ASSERT_TRUE(seg.touch);
  SamplerContext ctx = make_sampler_context(agent, p);
  ctx.segments = &seg;
  ctx.segment_count = 1;
  const float free_toi = p.weight_toi / (0.1f + 1.0f);
  const float hit_now = p.weight_toi / 0.1f;
  // snorm = (-sdir.z, sdir.x) = (-2, 0): velocities with a positive x component move
  // against it (dot < 0) and are free; the others hit now.
  const float away = sample_penalty(ctx, {1.0f, 0.0f}, FLT_MAX);
  const float into = sample_penalty(ctx, {-1.0f, 0.0f}, FLT_MAX);
  const float des_cur_away = (p.weight_des_vel + p.weight_cur_vel) * 1.0f;
  EXPECT_NEAR(away, des_cur_away + free_toi, 1e-5f);
  EXPECT_NEAR(into, des_cur_away + hit_now, 1e-4f);
}

TEST(SamplePenalty, OverlappingNeighbourCostsMoreThanANearbyOne) {
  SamplerAgent agent;
  agent.radius = 0.5f;
  agent.max_speed = 1.0f;
  agent.desired_velocity = {1.0f, 0.0f};
  const AvoidanceParams p;
  const auto penalty_with_neighbour_at = [&](float x) {
    const SamplerCircle c =
        prepare_circle(agent, {x, 0.0f, 0.0f}, 0.5f, glm::vec2(0.0f), glm::vec2(0.0f));
    SamplerContext ctx = make_sampler_context(agent, p);
    ctx.circles = &c;
    ctx.circle_count = 1;
    return sample_penalty(ctx, {1.0f, 0.0f}, FLT_MAX);
  };
  EXPECT_GT(penalty_with_neighbour_at(0.8f), penalty_with_neighbour_at(1.2f));
  EXPECT_GT(penalty_with_neighbour_at(1.2f), penalty_with_neighbour_at(4.0f));
}

TEST(PrepareCircle, DirectionIsNormalisedIn3dAndSideNormalIsPerpendicular) {
  SamplerAgent agent;
  agent.position = {0.0f, 0.0f, 0.0f};
  agent.desired_velocity = {1.0f, 0.0f};
  const SamplerCircle c =
      prepare_circle(agent, {3.0f, 4.0f, 0.0f}, 0.5f, glm::vec2(0.0f), glm::vec2(0.0f));
  // dp = (3, 4, 0) / 5: the ground direction keeps only x and z, so it is shorter than 1.
  EXPECT_FLOAT_EQ(c.direction.x, 0.6f);
  EXPECT_FLOAT_EQ(c.direction.y, 0.0f);
  EXPECT_FLOAT_EQ(c.side_normal.x * c.direction.x + c.side_normal.y * c.direction.y, 0.0f);
}

TEST(PrepareCircle, CoincidentNeighbourGivesAZeroDirectionInsteadOfNan) {
  SamplerAgent agent;
  agent.position = {1.0f, 0.0f, 1.0f};
  agent.desired_velocity = {1.0f, 0.0f};
  agent.max_speed = 1.0f;
  const SamplerCircle c =
      prepare_circle(agent, agent.position, 0.5f, glm::vec2(0.0f), glm::vec2(0.0f));
  EXPECT_EQ(c.direction, glm::vec2(0.0f));
  SamplerContext ctx = make_sampler_context(agent, AvoidanceParams{});
  ctx.circles = &c;
  ctx.circle_count = 1;
  EXPECT_TRUE(std::isfinite(sample_penalty(ctx, {1.0f, 0.0f}, FLT_MAX)));
}

} // namespace
} // namespace crowd

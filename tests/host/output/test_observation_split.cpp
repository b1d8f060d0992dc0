// host/output/observation_split.h: the observers' per-agent work split across processes gives
// the figures of one process measuring every agent, bit for bit. The processes are pretended
// here, one after another in this one (the MPI runs' tests split them for real).
#include "host/navmesh/navmesh.h"
#include "host/output/lane_order.h"
#include "host/output/metrics.h"
#include "host/output/observation_split.h"
#include "host/scenario/scenario.h"
#include "tests/support/measured_metrics.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

namespace crowd {
namespace {

/// What the pretend processes other than the first leave for it: each runs before the first
/// does, and the first combines what they left as MPI_Gatherv and MPI_Reduce would.
struct Exchange {
  std::map<std::size_t, double> values; ///< Per agent, from the process that measured it.
  std::vector<long long> sums;
  std::vector<double> maxima;
};

/// Process `rank` of `ranks`: it measures agent i when i * 7 mod ranks is its rank, but the
/// `added` last agents (come since the split was decided), which the first process measures.
class PretendSplit final : public ObservationSplit {
public:
  PretendSplit(int rank, int ranks, std::size_t added, Exchange& exchange)
      : rank_(rank), ranks_(ranks), added_(added), exchange_(exchange) {}

  std::span<const std::uint8_t> measured_here(std::size_t count) override {
    measured_.assign(count, 0);
    for (std::size_t i = 0; i < count; ++i)
      measured_[i] = (i + added_ >= count ? 0 : static_cast<int>(i * 7 % ranks_)) == rank_;
    return measured_;
  }
  bool combines_here() const override { return rank_ == 0; }
  void gather(std::span<double> values) override {
    if (rank_ != 0) {
      for (std::size_t i = 0; i < values.size(); ++i)
        if (measured_[i])
          exchange_.values[i] = values[i];
      return;
    }
    for (const auto& [i, value] : exchange_.values)
      values[i] = value;
    exchange_.values.clear();
  }
  void reduce(std::span<long long> sums, std::span<double> maxima) override {
    exchange_.sums.resize(sums.size(), 0);
    exchange_.maxima.resize(maxima.size(), 0.0);
    for (std::size_t k = 0; k < sums.size(); ++k)
      exchange_.sums[k] += sums[k];
    for (std::size_t k = 0; k < maxima.size(); ++k)
      exchange_.maxima[k] = std::max(exchange_.maxima[k], maxima[k]);
    if (rank_ != 0)
      return;
    std::copy(exchange_.sums.begin(), exchange_.sums.end(), sums.begin());
    std::copy(exchange_.maxima.begin(), exchange_.maxima.end(), maxima.begin());
    exchange_.sums.clear();
    exchange_.maxima.clear();
  }

private:
  int rank_, ranks_;
  std::size_t added_;
  Exchange& exchange_;
  std::vector<std::uint8_t> measured_;
};

Scenario room_with_a_pillar() {
  Scenario s;
  s.name = "observation_split_test";
  s.file = "observation_split_test.json";
  s.dt = 0.1f;
  s.world.bounds = WorldSpec::Bounds2D{{-10.0f, -10.0f}, {10.0f, 10.0f}};
  s.world.obstacles = {{{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}}};
  return s;
}

/// A dense two-way crowd over the room and against the pillar: overlaps, walls touched and
/// counter-flowing lanes at every step.
struct Crowd {
  std::vector<AgentSetup> agents;
  std::vector<std::vector<glm::vec3>> frames;
  std::vector<glm::vec3> targets;
};

Crowd two_way_crowd(int count, int steps) {
  Crowd crowd;
  std::mt19937 random(13);
  std::uniform_real_distribution<float> across(-9.5f, 9.5f);
  std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
  std::vector<glm::vec3> at;
  for (int i = 0; i < count; ++i) {
    AgentSetup a;
    a.position = {across(random), 0.0f, across(random)};
    a.goal = {i % 2 == 0 ? 9.0f : -9.0f, 0.0f, a.position.z};
    a.params.radius = i % 3 == 0 ? 0.4f : 0.3f;
    crowd.agents.push_back(a);
    crowd.targets.push_back(a.goal);
    at.push_back(a.position);
  }
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < at.size(); ++i)
      at[i] += glm::vec3{(i % 2 == 0 ? 0.1f : -0.1f) + jitter(random), 0.0f, jitter(random)};
    crowd.frames.push_back(at);
  }
  return crowd;
}

struct Figures {
  MetricsSummary metrics;
  std::optional<double> lane_index;
  long long lane_samples = 0;
};

/// The figures of `ranks` pretend processes observing `crowd` (1: no split), the first's.
Figures observed(const Crowd& crowd, int ranks, std::size_t added) {
  static const Scenario scenario = room_with_a_pillar();
  static const NavMesh navmesh = NavMesh::build(scenario);
  Exchange exchange;
  std::vector<MetricsCollector> metrics;
  std::vector<LaneOrder> lanes;
  std::vector<PretendSplit> splits;
  for (int r = 0; r < ranks; ++r) {
    metrics.push_back(test::measured_metrics(scenario, navmesh, crowd.agents));
    lanes.emplace_back(2.0f);
    for (const AgentSetup& a : crowd.agents)
      lanes.back().add_agent(a.params.radius);
    splits.emplace_back(r, ranks, added, exchange);
  }
  const std::vector<AgentPhase> walking(crowd.agents.size(), AgentPhase::Walking);
  for (const std::vector<glm::vec3>& frame : crowd.frames)
    for (int r = ranks - 1; r >= 0; --r) { // the first last: it combines
      ObservationSplit* split = ranks > 1 ? &splits[static_cast<std::size_t>(r)] : nullptr;
      metrics[static_cast<std::size_t>(r)].observe_step(frame, walking, {}, split);
      lanes[static_cast<std::size_t>(r)].observe(frame, walking, crowd.targets, split);
    }
  return {metrics[0].summary("cpu", static_cast<int>(crowd.frames.size())), lanes[0].index(),
          lanes[0].samples()};
}

TEST(ObservationSplit, ProcessesMeasuringTheirShareGiveTheFiguresOfOneMeasuringAll) {
  const Crowd crowd = two_way_crowd(600, 12);
  const Figures one = observed(crowd, 1, 0);
  // The scene gives every figure something to count, so that a share left out would show.
  ASSERT_GT(one.metrics.overlap_events, 0);
  ASSERT_GT(one.metrics.wall_events, 0);
  ASSERT_TRUE(one.lane_index.has_value());
  for (const int ranks : {2, 3, 4})
    for (const std::size_t added : {std::size_t{0}, std::size_t{5}}) {
      SCOPED_TRACE(testing::Message() << ranks << " processes, " << added << " agents added");
      const Figures split = observed(crowd, ranks, added);
      EXPECT_EQ(split.metrics.overlap_events, one.metrics.overlap_events);
      EXPECT_EQ(split.metrics.max_overlap, one.metrics.max_overlap);
      EXPECT_EQ(split.metrics.wall_events, one.metrics.wall_events);
      EXPECT_EQ(split.metrics.max_wall_penetration, one.metrics.max_wall_penetration);
      EXPECT_EQ(split.lane_samples, one.lane_samples);
      ASSERT_TRUE(split.lane_index.has_value());
      EXPECT_EQ(*split.lane_index, *one.lane_index); // bit for bit: summed in agent order
    }
}

TEST(ObservationSplit, AProcessAloneWithItsShareCountsOnlyItsShare) {
  // The first process's own figures before it combines: what the split divides is real work.
  const Crowd crowd = two_way_crowd(600, 4);
  static const Scenario scenario = room_with_a_pillar();
  static const NavMesh navmesh = NavMesh::build(scenario);
  Exchange nothing_from_the_others;
  PretendSplit first(0, 3, 0, nothing_from_the_others);
  MetricsCollector part = test::measured_metrics(scenario, navmesh, crowd.agents);
  const std::vector<AgentPhase> walking(crowd.agents.size(), AgentPhase::Walking);
  for (const std::vector<glm::vec3>& frame : crowd.frames)
    part.observe_step(frame, walking, {}, &first);
  const Figures all = observed(crowd, 1, 0);
  EXPECT_GT(part.overlap_events(), 0);
  EXPECT_LT(part.overlap_events(), all.metrics.overlap_events);
}

} // namespace
} // namespace crowd

// Counter-flow in a corridor, listed as test 16 by our issue tracker. I found no text of a
// RiMEA counter-flow test in the sources at hand (JuPedSim's and Vadere's RiMEA suites stop
// at 15), so the definition is ours, after the bidirectional corridor experiments (Zhang et
// al., "Ordering in bidirectional pedestrian flows and its influence on the fundamental
// diagram", J. Stat. Mech. (2012) P02002): two groups enter a corridor from opposite ends and
// must pass each other. The check is that nobody is left stuck: every agent reaches the far
// end within the run, 120 s, four times the 30 s a free walk through the corridor takes.
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

namespace crowd {
namespace {

constexpr float kLength = 40.0f, kWidth = 4.0f, kStartDepth = 8.0f;
constexpr float kDuration = 120.0f;

int per_side(bool fast) {
  return fast ? 20 : 60;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  Scenario s = rimea_scenario("rimea_16_counterflow", {0.0f, 0.0f}, {kLength, kWidth}, kDuration);
  const int n = per_side(fast);
  for (const bool eastward : {true, false}) {
    const float x0 = eastward ? 0.3f : kLength - kStartDepth;
    const float x1 = eastward ? kStartDepth : kLength - 0.3f;
    GroupSpec g = rect_group(s, n, {x0, 0.3f}, {x1, kWidth - 0.3f}, {0.0f, 0.0f});
    g.goal_kind = GroupSpec::GoalKind::Rect;
    g.goal_min = {eastward ? kLength - 1.0f : 0.3f, 0.3f};
    g.goal_max = {eastward ? kLength - 0.3f : 1.0f, kWidth - 0.3f};
    s.groups.push_back(g);
  }
  return {{"rimea_16_counterflow", s,
           "Counter-flow (test 16 of our issue tracker; definition ours): two groups pass each "
           "other in a corridor",
           std::to_string(n) + " agents from each end of a 40 m x 4 m corridor (first 8 m) to "
                               "the last metre of the other end; they leave on arrival."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  const VerifyRun r = run_verify_scenario(scenes.front(), context, {});
  TestOutcome out;
  out.figure =
      std::to_string(r.metrics.arrived) + "/" + std::to_string(r.metrics.agents) + " through";
  if (r.metrics.mean_arrival_time)
    out.figure += ", mean " + fixed(*r.metrics.mean_arrival_time, 1) + " s, last " +
                  fixed(*r.metrics.max_arrival_time, 1) + " s";
  out.values["agents"] = r.metrics.agents;
  out.values["arrived"] = r.metrics.arrived;
  out.values["mean_time_s"] =
      r.metrics.mean_arrival_time ? nlohmann::ordered_json(*r.metrics.mean_arrival_time) : nullptr;
  out.values["last_time_s"] =
      r.metrics.max_arrival_time ? nlohmann::ordered_json(*r.metrics.max_arrival_time) : nullptr;
  out.values["overlap_events"] = r.metrics.overlap_events;
  out.values["stuck_agents"] = r.metrics.stuck.agents;
  out.passed = r.metrics.arrived == r.metrics.agents;
  return out;
}

} // namespace

VerifyTest rimea_test_16() {
  return {16,
          "Counter-flow in a corridor",
          "our definition (no RiMEA text found); after Zhang et al. 2012",
          "everyone reaches the far end within " + fixed(kDuration, 0) + " s",
          scenarios,
          run};
}

} // namespace crowd

// RiMEA test 7, allocation of demographic parameters (RiMEA 3.0, test 7): a population
// is given the walking speeds of the guideline's table (after Weidmann 1993: under 30 years,
// 30-50, over 50, persons with limited mobility), and it is shown that the simulated speeds
// follow it. Here each row is an agent type whose max_speed is uniform over the row's range
// (the table gives a range, not a distribution; JuPedSim's script draws normals inside it,
// Utest/rimea_tests/test_7), and every agent walks 20 m alone in its own lane, 3 m from the
// next (further than the 2.4 m its neighbour search reaches), so that only its own speed
// shows. JuPedSim switches pedestrian interaction off for the same reason.
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

constexpr float kLane = 3.0f, kStartX = 1.0f, kLineA = 2.0f, kLineB = 22.0f, kEnd = 26.0f;
constexpr double kSlack = 0.02; ///< m/s between the speed assigned and the speed measured

int per_group(bool fast) {
  return fast ? 10 : 50;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  const int n = per_group(fast);
  const int lanes = n * static_cast<int>(kRimeaSpeedGroups.size());
  Scenario s = rimea_scenario("rimea_07_demographics", {0.0f, 0.0f},
                              {kEnd, kLane * static_cast<float>(lanes)}, 60.0f);
  // Open floor and no door: the default cell keeps the navmesh small (2,000 lanes' worth).
  s.world.navmesh.cell_size = 0.3f;
  s.defaults.on_arrival = OnArrival::Remove;
  int lane = 0;
  for (const SpeedGroup& row : kRimeaSpeedGroups) {
    for (int k = 0; k < n; ++k, ++lane) {
      ExplicitAgentSpec agent;
      const float z = kLane * (static_cast<float>(lane) + 0.5f);
      agent.position.position = {kStartX, 0.0f, z};
      agent.goal.position = {kEnd - 1.0f, 0.0f, z};
      agent.params = s.defaults;
      agent.params.type = std::string(row.label);
      agent.drawn.max_speed =
          Distribution{static_cast<float>(row.min), static_cast<float>(row.max)};
      s.agents.push_back(agent);
    }
  }
  return {{"rimea_07_demographics", s,
           "RiMEA 3.0 test 7: walking speeds assigned by group of persons (table after "
           "Weidmann 1993) are reproduced by the simulated persons",
           std::to_string(n) +
               " agents per row of the table, one type per row with max_speed "
               "uniform over the row's range; each walks 20 m (x 2 to 22) alone in a 3 m lane."}};
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  const float top = scenes.front().scenario.world.bounds->max.y;
  LineCrossings a({kLineA, 0.0f}, {kLineA, top}), b({kLineB, 0.0f}, {kLineB, top});
  std::vector<float> assigned;
  const auto record = [&](const Simulation& sim) {
    if (sim.step_index() == 0)
      for (int id = 0; id < sim.agent_count(); ++id)
        assigned.push_back(sim.agent_params(id).max_speed);
  };
  run_verify_scenario(scenes.front(), context,
                      {record, [&](const Simulation& s) { a.observe(s); },
                       [&](const Simulation& s) { b.observe(s); }});
  const int n = per_group(context.fast);
  TestOutcome out;
  bool passed = true;
  std::string figure;
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (std::size_t g = 0; g < kRimeaSpeedGroups.size(); ++g) {
    const SpeedGroup& row = kRimeaSpeedGroups[g];
    double lo = 1e9, hi = -1e9, sum = 0.0, worst = 0.0;
    int measured = 0;
    bool in_range = true;
    for (int k = 0; k < n; ++k) {
      const int id = static_cast<int>(g) * n + k;
      const double v0 = assigned[static_cast<std::size_t>(id)];
      in_range = in_range && v0 >= row.min - 1e-6 && v0 <= row.max + 1e-6;
      const auto ta = a.first_time(id), tb = b.first_time(id);
      if (!ta || !tb || !(*tb > *ta))
        continue;
      const double v = (kLineB - kLineA) / (*tb - *ta);
      ++measured;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
      worst = std::max(worst, std::abs(v - v0));
    }
    const bool ok = in_range && measured == n && worst <= kSlack;
    passed = passed && ok;
    groups.push_back({{"group", row.name},
                      {"table_min_m_s", row.min},
                      {"table_max_m_s", row.max},
                      {"agents", n},
                      {"walked", measured},
                      {"measured_min_m_s", measured ? lo : 0.0},
                      {"measured_mean_m_s", measured ? sum / measured : 0.0},
                      {"measured_max_m_s", measured ? hi : 0.0},
                      {"largest_deviation_from_assigned_m_s", worst}});
    figure += (g ? "; " : "") + std::string(row.label) + " " +
              (measured ? fixed(lo, 2) + "-" + fixed(hi, 2) : std::string("none")) + " (" +
              fixed(row.min, 2) + "-" + fixed(row.max, 2) + ")";
  }
  out.figure = figure + " m/s";
  out.values["groups"] = std::move(groups);
  out.passed = passed;
  return out;
}

} // namespace

VerifyTest rimea_test_07() {
  return {7,
          "Allocation of demographic parameters (walking speeds)",
          "RiMEA 3.0 test 7; speed table as in JuPedSim Utest/rimea_tests/test_7 and Zhou et "
          "al. 2015, Table 1",

          "every speed drawn lies in its row's range and every agent walks at it "
          "(within " +
              fixed(kSlack, 2) + " m/s)",
          scenarios,
          run};
}

} // namespace crowd

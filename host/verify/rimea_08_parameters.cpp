// RiMEA test 8, parameter analysis (RiMEA 3.0, test 8): a building is evacuated with
// one parameter varied (the guideline's example is the walking speed) and it is documented
// how the evacuation time follows it. RiMEA's building has three storeys and stairs; ours is
// one floor (host/verify/rimea_office_floor.h), since the model has no stairs. The check is
// the documented trend: evacuation takes longer the slower the persons walk.
#include "host/verify/line_crossings.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_office_floor.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

#include <algorithm>

namespace crowd {
namespace {

const std::vector<float> kSpeeds{1.0f, 1.34f, 1.6f};

int per_room(bool fast) {
  return fast ? 4 : 8;
}

std::vector<VerifyScenario> scenarios(bool fast) {
  std::vector<VerifyScenario> out;
  for (const float speed : kSpeeds) {
    const std::string name = "rimea_08_speed_" + fixed(speed, 2);
    Scenario s = office_floor(name, 120.0f);
    s.defaults.max_speed = speed;
    for (int room = 0; room < kOfficeRooms; ++room) {
      const auto [lo, hi] = office_room(room);
      // The nearer exit: rooms 0-2 and 6-8 are in the left half.
      const bool right = room % (kOfficeRooms / 2) >= kOfficeRooms / 4;
      s.groups.push_back(rect_group(s, per_room(fast), lo, hi, office_exit_goal(right)));
    }
    out.push_back({name, s, "RiMEA 3.0 test 8: evacuation time against a parameter (walking speed)",
                   std::to_string(per_room(fast) * kOfficeRooms) + " agents, " +
                       std::to_string(per_room(fast)) +
                       " per room of a one-storey office floor, to the nearer exit, all at " +
                       fixed(speed, 2) + " m/s."});
  }
  return out;
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  TestOutcome out;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  bool passed = true;
  double previous = 1e9;
  std::string figure;
  for (std::size_t k = 0; k < scenes.size(); ++k) {
    const auto [la, lb] = office_exit_line(false);
    const auto [ra, rb] = office_exit_line(true);
    LineCrossings left(la, lb), right(ra, rb);
    const VerifyRun r = run_verify_scenario(scenes[k], context,
                                            {[&](const Simulation& s) { left.observe(s); },
                                             [&](const Simulation& s) { right.observe(s); }});
    std::vector<double> times = left.first_times();
    const std::vector<double> more = right.first_times();
    times.insert(times.end(), more.begin(), more.end());
    const int out_count = static_cast<int>(times.size());
    const double last = times.empty() ? 0.0 : *std::max_element(times.begin(), times.end());
    const bool everyone = out_count == r.metrics.agents;
    passed = passed && everyone && last < previous;
    previous = last;
    runs.push_back({{"speed_m_s", kSpeeds[k]},
                    {"agents", r.metrics.agents},
                    {"out", out_count},
                    {"evacuation_time_s", everyone ? nlohmann::ordered_json(last) : nullptr}});
    figure += (k ? ", " : "") + (everyone ? fixed(last, 1) + " s"
                                          : std::to_string(out_count) + "/" +
                                                std::to_string(r.metrics.agents) + " out");
  }
  out.figure = "evacuation " + figure + " at " + fixed(kSpeeds.front(), 2) + ", " +
               fixed(kSpeeds[1], 2) + ", " + fixed(kSpeeds.back(), 2) + " m/s";
  out.values["runs"] = std::move(runs);
  out.passed = passed;
  return out;
}

} // namespace

VerifyTest rimea_test_08() {
  return {8,
          "Parameter analysis (walking speed)",
          "RiMEA 3.0 test 8, on one storey instead of three",
          "evacuation time falls as the walking speed rises (" + fixed(kSpeeds.front(), 2) + ", " +
              fixed(kSpeeds[1], 2) + ", " + fixed(kSpeeds.back(), 2) + " m/s)",
          scenarios,
          run};
}

} // namespace crowd

// RiMEA test 4, measuring the fundamental diagram (RiMEA 3.0, test 4): a corridor is
// filled with persons of one free walking speed at densities of 0.5, 1, 2, 3, 4, 5 and 6
// persons/m2, and walking speed (hence flow) is measured at a measuring point for 60 s after
// 10 s of settling; the result is compared with an empirical fundamental diagram (Weidmann's).
// RiMEA's corridor is 1,000 m x 10 m; like JuPedSim's script (26 m x 2 m, periodic,
// Utest/rimea_tests/test_4/runtest_rimea_4.py) this one is periodic and short: 30 m x 4 m,
// world.periodic "x".
//
// RiMEA gives no number to pass; the criterion here is ours: speed falls as density rises
// (never back up by more than 0.05 m/s, the sampling noise of a 2 m x 2 m area) and stays
// within 0.3 m/s of Weidmann's curve at the density measured in the area.
#include "host/verify/area_sampler.h"
#include "host/verify/rimea_common.h"
#include "host/verify/rimea_suite.h"
#include "host/verify/verify_run.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace crowd {
namespace {

constexpr float kLength = 30.0f, kWidth = 4.0f;
constexpr double kSettle = 10.0;        ///< s before measuring (RiMEA)
constexpr double kTolerance = 0.3;      ///< m/s around Weidmann's speed
constexpr double kMonotoneSlack = 0.05; ///< m/s a speed may exceed the previous density's
const glm::vec2 kAreaLo{14.0f, 1.0f}, kAreaHi{16.0f, 3.0f}; ///< main measuring point
const glm::vec2 kSeamLo{0.0f, 1.0f}, kSeamHi{2.0f, 3.0f};   ///< control, at the seam

std::vector<double> densities(bool fast) {
  if (fast)
    return {1.0, 3.0, 5.0};
  return {0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
}

/// A deterministic uniform draw in [0, 1) (splitmix64; the standard library's distributions
/// differ between implementations, and these positions are written to files).
struct Draw {
  std::uint64_t state;
  double operator()() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
};

/// `count` agent centres in the periodic corridor: a staggered lattice (rows across, as many
/// as keep neighbours farthest apart), each point moved at random by at most what keeps every
/// two discs apart, so that the crowd is not in perfect lanes. Random placement (a group's
/// rect spawn) cannot reach these densities: discs dropped at random jam at about 55% cover
/// (random sequential adsorption), 4.4 persons/m2 at r = 0.2 m.
std::vector<glm::vec2> lattice(int count, std::uint64_t seed) {
  const double r = kAgentRadius, margin = 0.05; // from the walls, inside the navmesh
  const double z0 = r + margin, z1 = kWidth - r - margin;
  int best_rows = 1;
  double best = 0.0;
  for (int rows = 1; rows <= 64; ++rows) {
    const int columns = (count + rows - 1) / rows;
    const double dx = static_cast<double>(kLength) / columns;
    const double dz = rows > 1 ? (z1 - z0) / (rows - 1) : 1e9;
    // Neighbours along a row, in the next row (staggered) and two rows on (same x).
    const double spacing = std::min({dx, std::hypot(dz, 0.5 * dx), rows > 2 ? 2.0 * dz : 1e9});
    if (spacing > best) {
      best = spacing;
      best_rows = rows;
    }
  }
  const int rows = best_rows, columns = (count + rows - 1) / rows;
  const double dx = static_cast<double>(kLength) / columns;
  const double dz = rows > 1 ? (z1 - z0) / (rows - 1) : 0.0;
  const double jitter = std::max(0.0, 0.5 * (best - 2.0 * r) - 0.005) / std::sqrt(2.0);
  Draw draw{seed};
  std::vector<glm::vec2> points;
  for (int j = 0; j < columns && static_cast<int>(points.size()) < count; ++j) {
    for (int k = 0; k < rows && static_cast<int>(points.size()) < count; ++k) {
      double x = (j + 0.25 + 0.5 * (k % 2)) * dx + (2.0 * draw() - 1.0) * jitter;
      const double z = (rows > 1 ? z0 + k * dz : 0.5 * kWidth) + (2.0 * draw() - 1.0) * jitter;
      // Back into the corridor: along x by the period; across it onto the band of the walls'
      // clearance, which moves a point towards its lattice site and so keeps discs apart.
      x -= kLength * std::floor(x / kLength);
      points.emplace_back(static_cast<float>(x), static_cast<float>(std::clamp(z, z0, z1)));
    }
  }
  return points;
}

std::string density_name(double density) {
  return "rimea_04_density_" + fixed(density, 1);
}

std::vector<VerifyScenario> scenarios(bool fast) {
  std::vector<VerifyScenario> out;
  for (const double density : densities(fast)) {
    const std::string name = density_name(density);
    Scenario s = rimea_scenario(name, {0.0f, 0.0f}, {kLength, kWidth}, fast ? 30.0f : 70.0f);
    s.world.periodic = PeriodicAxis::X;
    const int count = static_cast<int>(std::lround(density * kLength * kWidth));
    for (const glm::vec2 p : lattice(count, 4000u + static_cast<std::uint64_t>(density * 10))) {
      ExplicitAgentSpec agent;
      agent.position.position = {p.x, 0.0f, p.y};
      // At the periodic end: the goal goes into the runway, so they walk +x for ever.
      agent.goal.position = {kLength, 0.0f, p.y};
      agent.params = s.defaults;
      s.agents.push_back(agent);
    }
    out.push_back(
        {name, s,
         "RiMEA 3.0 test 4: fundamental diagram in a corridor at " + fixed(density, 1) +
             " persons/m2, one free speed (1.34 m/s), measured for 60 s after 10 s",
         "Periodic corridor 30 m x 4 m (world.periodic \"x\"; RiMEA: 1,000 m x 10 m), " +
             std::to_string(count) +
             " agents on a jittered staggered lattice, all heading +x. Measuring point 2 m x 2 m "
             "at x 14-16, z 1-3, far from the seam at x = 0/30, where agents do not see each "
             "other."});
  }
  return out;
}

TestOutcome run(const std::vector<VerifyScenario>& scenes, const VerifyContext& context) {
  TestOutcome out;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  std::string speeds, rhos;
  bool passed = true;
  double previous = 1e9;
  const std::vector<double> nominal = densities(context.fast);
  for (std::size_t k = 0; k < scenes.size(); ++k) {
    AreaSampler area(kAreaLo, kAreaHi, kSettle, {1.0f, 0.0f});
    AreaSampler seam(kSeamLo, kSeamHi, kSettle, {1.0f, 0.0f});
    run_verify_scenario(scenes[k], context,
                        {[&](const Simulation& s) { area.observe(s); },
                         [&](const Simulation& s) { seam.observe(s); }},
                        false);
    const double rho = area.mean_density(), v = area.mean_speed();
    const double reference = weidmann_speed(rho);
    const bool near = std::abs(v - reference) <= kTolerance;
    const bool falls = v <= previous + kMonotoneSlack;
    passed = passed && near && falls;
    previous = v;
    points.push_back({{"nominal_density", nominal[k]},
                      {"density", rho},
                      {"speed_m_s", v},
                      {"flow_per_m_s", rho * v},
                      {"weidmann_speed_m_s", reference},
                      {"seam_density", seam.mean_density()},
                      {"seam_speed_m_s", seam.mean_speed()}});
    speeds += (k ? ", " : "") + fixed(v, 2);
    rhos += (k ? ", " : "") + fixed(rho, 2);
  }
  out.figure = "v = " + speeds + " m/s at rho = " + rhos + " /m2";
  out.values["points"] = std::move(points);
  out.passed = passed;
  return out;
}

} // namespace

VerifyTest rimea_test_04() {
  return {4,
          "Fundamental diagram (periodic corridor)",
          "RiMEA 3.0 test 4; Weidmann 1993 via Seyfried et al. 2005; periodic and short as in "
          "JuPedSim Utest/rimea_tests/test_4",

          "v falls as density rises (back up by <= " + fixed(kMonotoneSlack, 2) +
              " m/s) and |v - v_Weidmann(rho)| <= " + fixed(kTolerance, 1) +
              " m/s at the density measured",
          scenarios,
          run};
}

} // namespace crowd

// Empirical reference data the RiMEA tests are held against.
#pragma once

#include <array>
#include <string_view>

namespace crowd {

/// Weidmann's fundamental diagram of the plane (U. Weidmann, "Transporttechnik der
/// Fussgänger", ETH Zürich, Schriftenreihe IVT 90, 1993), in the form of Seyfried et al.,
/// "The fundamental diagram of pedestrian movement revisited", J. Stat. Mech. (2005) P10002,
/// eq. (1): v(rho) = v0 (1 - exp(-gamma (1/rho - 1/rho_max))), v0 = 1.34 m/s,
/// gamma = 1.913 persons/m2, rho_max = 5.4 persons/m2. 0 at and above rho_max.
double weidmann_speed(double density);

inline constexpr double kWeidmannFreeSpeed = 1.34; ///< v0, m/s

/// A row of RiMEA's table of walking speeds in the plane by group of persons (after Weidmann
/// 1993), which test 7 assigns and tests 9 and following draw their adults from: the range of
/// speeds of the group. The rows as quoted by Zhou, Klein, Mayer, "Guideline for Crowd
/// Evacuation Simulation", SIMULTECH 2015, Table 1, and by JuPedSim's RiMEA test 7
/// (Utest/rimea_tests/test_7/runtest_rimea_7.py, weidman_min_vel / weidman_max_vel).
struct SpeedGroup {
  std::string_view name;       ///< As RiMEA names it.
  std::string_view label;      ///< A short label for files and reports.
  double min = 0.0, max = 0.0; ///< m/s
};

inline constexpr std::array<SpeedGroup, 4> kRimeaSpeedGroups{{
    {"under 30 years", "under_30", 0.58, 1.61},
    {"30 to 50 years", "30_to_50", 1.41, 1.54},
    {"over 50 years", "over_50", 0.68, 1.41},
    {"persons with limited mobility", "limited_mobility", 0.46, 0.76},
}};

} // namespace crowd

#include "host/verify/rimea_reference.h"

#include <cmath>
#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(RimeaReference, WeidmannsFundamentalDiagram) {
  EXPECT_DOUBLE_EQ(weidmann_speed(0.0), 1.34);
  // 1.34 (1 - exp(-1.913 (1/rho - 1/5.4))).
  EXPECT_NEAR(weidmann_speed(1.0), 1.34 * (1.0 - std::exp(-1.913 * (1.0 - 1.0 / 5.4))), 1e-12);
  EXPECT_NEAR(weidmann_speed(1.0), 1.058, 1e-3);
  EXPECT_NEAR(weidmann_speed(2.0), 0.607, 1e-3);
  EXPECT_DOUBLE_EQ(weidmann_speed(5.4), 0.0);
  EXPECT_DOUBLE_EQ(weidmann_speed(6.0), 0.0);
  for (double rho = 0.25; rho < 5.4; rho += 0.25)
    EXPECT_LT(weidmann_speed(rho + 0.25), weidmann_speed(rho)) << rho;
}

TEST(RimeaReference, SpeedTableRowsAreRanges) {
  for (const SpeedGroup& row : kRimeaSpeedGroups)
    EXPECT_LT(row.min, row.max) << row.name;
  EXPECT_DOUBLE_EQ(kRimeaSpeedGroups[0].min, 0.58);
  EXPECT_DOUBLE_EQ(kRimeaSpeedGroups[3].max, 0.76);
}

} // namespace
} // namespace crowd

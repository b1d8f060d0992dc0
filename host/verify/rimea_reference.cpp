#include "host/verify/rimea_reference.h"

#include <cmath>

namespace crowd {

double weidmann_speed(double density) {
  constexpr double kGamma = 1.913, kMaxDensity = 5.4;
  if (!(density > 0.0))
    return kWeidmannFreeSpeed;
  if (density >= kMaxDensity)
    return 0.0;
  return kWeidmannFreeSpeed * (1.0 - std::exp(-kGamma * (1.0 / density - 1.0 / kMaxDensity)));
}

} // namespace crowd

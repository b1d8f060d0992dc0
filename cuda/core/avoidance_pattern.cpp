#include "cuda/core/avoidance_pattern.h"

#include "cuda/kernels/ttc_avoidance.h"

#include <cmath>

namespace crowd {

PatternRotation pattern_rotation(const AvoidanceParams& params) {
  constexpr float kPi = 3.14159265f; // DT_PI
  if (params.model == kAvoidanceTtc) {
    // The fan's step and its turn to the first direction (build_ttc_fan).
    const float step = ttc_direction_step_degrees(params.ttc) * (kPi / 180.0f);
    const float first = ttc_first_direction_degrees(params.ttc) * (kPi / 180.0f);
    PatternRotation r;
    r.cos_div = cosf(step);
    r.sin_div = sinf(step);
    r.cos_half_div = cosf(first);
    r.sin_half_div = sinf(first);
    return r;
  }
  const int nd = params.adaptive_divs < 1                 ? 1
                 : params.adaptive_divs > kMaxPatternDivs ? kMaxPatternDivs
                                                          : params.adaptive_divs;
  const float da = (1.0f / static_cast<float>(nd)) * kPi * 2;
  PatternRotation r;
  r.cos_div = cosf(da);
  r.sin_div = sinf(da);
  r.cos_half_div = cosf(da * 0.5f);
  r.sin_half_div = sinf(da * 0.5f);
  return r;
}

} // namespace crowd

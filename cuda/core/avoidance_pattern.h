// The rotations of DetourCrowd's sampling pattern, computed on the host once per parameter set
// (see PatternRotation in cuda/common/avoidance_params.h for why not in the kernel).
#pragma once

#include "cuda/common/avoidance_params.h"

namespace crowd {

/// cosf/sinf of one div (2 pi / adaptive_divs, divs clamped to [1, kMaxPatternDivs]) and of
/// half a div, computed exactly as dtObstacleAvoidanceQuery::sampleVelocityAdaptive does
/// (DetourObstacleAvoidance.cpp: da = (1.0f / nd) * DT_PI * 2, then cosf/sinf of da and, in
/// dtRorate2D, of da * 0.5f). For the time-to-collision model, cosf/sinf of the angle between
/// neighbouring directions of its fan (cos_div, sin_div) and of the turn from the reference
/// direction to the first (cos_half_div, sin_half_div): build_ttc_fan.
PatternRotation pattern_rotation(const AvoidanceParams& params);

} // namespace crowd

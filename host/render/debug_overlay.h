// The selected agent's debug overlays as geometry: corridor (under the agents), and velocity
// samples coloured by penalty as Recast's demo draws them (a time-to-collision agent's fan by
// its ratios before and after smoothing, with a ring while it is stopped or forcing its way),
// neighbour links, wall segments, the chosen velocity and a selection ring (over the agents).
#pragma once

#include "host/render/frame_source.h"
#include "host/render/view_options.h"

namespace crowd {

struct DebugOverlay {
  ShapeLayer under; ///< Drawn before the agents.
  ShapeLayer over;  ///< Drawn after the agents.
};

DebugOverlay make_debug_overlay(const SceneData& scene, const SceneFrame& frame,
                                const ViewOptions& options, const AgentDebugView* view);

} // namespace crowd

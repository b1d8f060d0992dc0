// Which agent a click on the ground hits.
#pragma once

#include "host/render/frame_source.h"

namespace crowd {

/// The present agent whose disc (enlarged by half, for easy clicking) contains `ground` and
/// whose centre is nearest to it; -1 when none.
int pick_agent(const SceneData& scene, const SceneFrame& frame, glm::vec2 ground);

} // namespace crowd

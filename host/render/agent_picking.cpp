#include "host/render/agent_picking.h"

namespace crowd {

int pick_agent(const SceneData& scene, const SceneFrame& frame, glm::vec2 ground) {
  int best = -1;
  float best_distance_sq = 0.0f;
  for (std::size_t i = 0; i < frame.positions.size() && i < scene.setups.size(); ++i) {
    if (!frame.present[i])
      continue;
    const glm::vec2 d = glm::vec2(frame.positions[i].x, frame.positions[i].z) - ground;
    const float distance_sq = d.x * d.x + d.y * d.y;
    const float reach = 1.5f * scene.setups[i].params.radius;
    if (distance_sq <= reach * reach && (best < 0 || distance_sq < best_distance_sq)) {
      best = static_cast<int>(i);
      best_distance_sq = distance_sq;
    }
  }
  return best;
}

} // namespace crowd

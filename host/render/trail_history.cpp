#include "host/render/trail_history.h"

#include "host/render/agent_style.h"

namespace crowd {

void TrailHistory::push(const SceneFrame& frame) {
  if (length_ < 2)
    return;
  Kept kept;
  kept.ground.reserve(frame.positions.size());
  for (const glm::vec3& p : frame.positions)
    kept.ground.emplace_back(p.x, p.z);
  kept.present = frame.present;
  frames_.push_back(std::move(kept));
  while (frames_.size() > static_cast<std::size_t>(length_))
    frames_.pop_front();
}

void TrailHistory::draw(ShapeLayer& layer) const {
  for (std::size_t f = 1; f < frames_.size(); ++f) {
    const Kept& a = frames_[f - 1];
    const Kept& b = frames_[f];
    glm::vec4 colour = palette::kTrail;
    colour.w *= static_cast<float>(f) / static_cast<float>(frames_.size());
    for (std::size_t i = 0; i < a.ground.size() && i < b.ground.size(); ++i)
      if (a.present[i] && b.present[i])
        layer.add_line(a.ground[i], b.ground[i], colour);
  }
}

} // namespace crowd

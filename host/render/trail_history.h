// The last few positions of every agent, fed one frame at a time by whoever advances the
// frames (live or replay alike, so both draw the same trails).
#pragma once

#include "host/render/frame_source.h"

#include <deque>

namespace crowd {

class TrailHistory {
public:
  explicit TrailHistory(int length) : length_(length) {}
  void push(const SceneFrame& frame);
  void clear() { frames_.clear(); }
  /// Segments between consecutive kept frames where the agent is in both, fading with age.
  void draw(ShapeLayer& layer) const;

private:
  struct Kept {
    std::vector<glm::vec2> ground;
    std::vector<std::uint8_t> present;
  };
  int length_;
  std::deque<Kept> frames_;
};

} // namespace crowd

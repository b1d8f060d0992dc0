#include "host/output/heading_smoother.h"

#include "host/checkpoint/archive.h"

#include <cmath>

namespace crowd {

HeadingSmoother::HeadingSmoother(double frame_seconds)
    : blend_(static_cast<float>(1.0 - std::exp(-frame_seconds / kTimeConstantSeconds))) {}

void HeadingSmoother::update(std::span<const glm::vec2> velocities,
                             std::span<const AgentPhase> phases) {
  const std::size_t count = velocities.size();
  smoothed_.resize(count, glm::vec2(0.0f));
  headings_.resize(count, 0.0f);
  shown_.resize(count, false);
  for (std::size_t i = 0; i < count; ++i) {
    const bool shown = i >= phases.size() || is_present(phases[i]);
    if (!shown) {
      shown_[i] = false;
      continue;
    }
    if (!shown_[i]) {
      smoothed_[i] = velocities[i];
      shown_[i] = true;
    } else {
      smoothed_[i] += (velocities[i] - smoothed_[i]) * blend_;
    }
    if (glm::dot(smoothed_[i], smoothed_[i]) > kMinSpeed * kMinSpeed)
      headings_[i] = std::atan2(smoothed_[i].x, smoothed_[i].y);
  }
}

void HeadingSmoother::save(ArchiveWriter& out) const {
  out.put(smoothed_);
  out.put(headings_);
  out.put(std::vector<std::uint8_t>(shown_.begin(), shown_.end()));
}

void HeadingSmoother::restore(ArchiveReader& in) {
  in.get(smoothed_);
  in.get(headings_);
  const auto shown = in.get<std::vector<std::uint8_t>>();
  in.expect(headings_.size(), smoothed_.size(), "the number of headings");
  in.expect(shown.size(), smoothed_.size(), "the number of shown flags");
  shown_.assign(shown.begin(), shown.end());
}

} // namespace crowd

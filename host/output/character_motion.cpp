#include "host/output/character_motion.h"

#include "host/checkpoint/archive.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace crowd {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

float heading_of(glm::vec2 direction) {
  return std::atan2(direction.x, direction.y);
}

/// a - b wrapped into (-pi, pi]: the shorter turn from b to a.
float turn_between(float a, float b) {
  float d = std::remainder(a - b, 2.0f * kPi);
  if (d <= -kPi)
    d += 2.0f * kPi;
  return d;
}

/// h wrapped into (-pi, pi].
float wrapped(float h) {
  return turn_between(h, 0.0f);
}

} // namespace

CharacterMotion::CharacterMotion(double frame_seconds, double max_turn_rate_degrees)
    : frame_seconds_(frame_seconds),
      blend_(static_cast<float>(1.0 - std::exp(-frame_seconds / kTimeConstantSeconds))),
      max_turn_per_frame_(
          static_cast<float>(max_turn_rate_degrees * std::numbers::pi / 180.0 * frame_seconds)) {
  if (!(frame_seconds > 0.0) || !(max_turn_rate_degrees > 0.0))
    throw std::invalid_argument("CharacterMotion: frame time and turn rate must be > 0");
}

void CharacterMotion::update(std::span<const glm::vec2> velocities,
                             std::span<const AgentPhase> phases, const FacingHint& hint) {
  const std::size_t count = velocities.size();
  smoothed_.resize(count, glm::vec2(0.0f));
  headings_.resize(count, 0.0f);
  turn_rates_.resize(count, 0.0f);
  shown_.resize(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    turn_rates_[i] = 0.0f;
    const bool shown = i >= phases.size() || is_present(phases[i]);
    if (!shown) {
      shown_[i] = 0;
      continue;
    }
    const bool first = !shown_[i];
    if (first) {
      smoothed_[i] = velocities[i];
      shown_[i] = 1;
    } else {
      smoothed_[i] += (velocities[i] - smoothed_[i]) * blend_;
    }
    const bool moving = glm::dot(smoothed_[i], smoothed_[i]) > kMinSpeed * kMinSpeed;
    if (first) {
      std::optional<glm::vec2> facing;
      if (moving)
        facing = smoothed_[i];
      else if (hint)
        facing = hint(static_cast<int>(i));
      headings_[i] = facing && glm::dot(*facing, *facing) > 0.0f ? heading_of(*facing) : 0.0f;
      continue;
    }
    if (!moving)
      continue;
    float turn = turn_between(heading_of(smoothed_[i]), headings_[i]);
    if (turn > max_turn_per_frame_)
      turn = max_turn_per_frame_;
    else if (turn < -max_turn_per_frame_)
      turn = -max_turn_per_frame_;
    headings_[i] = wrapped(headings_[i] + turn);
    turn_rates_[i] = static_cast<float>(turn / frame_seconds_);
  }
}

void CharacterMotion::save(ArchiveWriter& out) const {
  out.fields(smoothed_, headings_, turn_rates_, shown_);
}

void CharacterMotion::restore(ArchiveReader& in) {
  in.fields(smoothed_, headings_, turn_rates_, shown_);
  in.expect(headings_.size(), smoothed_.size(), "the number of headings");
  in.expect(turn_rates_.size(), smoothed_.size(), "the number of turn rates");
  in.expect(shown_.size(), smoothed_.size(), "the number of shown flags");
}

} // namespace crowd

#include "host/output/locomotion.h"

#include "host/checkpoint/archive.h"

#include <cmath>
#include <numbers>

namespace crowd {
namespace {

/// The gait at `speed` (m/s) and `turn_rate` (radians/s), from `previous`: each boundary is
/// crossed back only 10% past it.
Gait next_gait(Gait previous, float speed, float turn_rate, const LocomotionClips& clips) {
  constexpr float kBand = 0.1f;
  const bool was_idle = previous == Gait::Idle || previous == Gait::Turn || previous == Gait::Wait;
  const float idle_below = was_idle ? clips.idle_below : clips.idle_below * (1.0f - kBand);
  if (speed < idle_below) {
    const float turn_degrees = std::abs(turn_rate) * 180.0f / std::numbers::pi_v<float>;
    const float turn_from =
        previous == Gait::Turn ? clips.turn_from * (1.0f - kBand) : clips.turn_from;
    return turn_degrees >= turn_from ? Gait::Turn : Gait::Idle;
  }
  const float run_from = previous == Gait::Run ? clips.run_from * (1.0f - kBand) : clips.run_from;
  return speed >= run_from ? Gait::Run : Gait::Walk;
}

} // namespace

void Locomotion::update(std::span<const glm::vec3> positions, std::span<const glm::vec2> velocities,
                        std::span<const AgentPhase> phases, std::span<const float> turn_rates,
                        const ClipsOf& clips) {
  const std::size_t count = positions.size();
  gaits_.resize(count, Gait::Idle);
  phases_.resize(count, 0.0f);
  rates_.resize(count, 1.0f);
  last_position_.resize(count, glm::vec3(0.0f));
  shown_.resize(count, 0);
  static const LocomotionClips kDefaults;
  for (std::size_t i = 0; i < count; ++i) {
    const AgentPhase phase = i < phases.size() ? phases[i] : AgentPhase::Walking;
    if (!is_present(phase)) {
      shown_[i] = 0;
      continue;
    }
    const LocomotionClips& c = clips ? clips(static_cast<int>(i)) : kDefaults;
    const glm::vec2 v = i < velocities.size() ? velocities[i] : glm::vec2(0.0f);
    const float speed = std::sqrt(v.x * v.x + v.y * v.y);
    const float turn_rate = i < turn_rates.size() ? turn_rates[i] : 0.0f;
    const bool first = !shown_[i];
    if (first) {
      shown_[i] = 1;
      phases_[i] = 0.0f;
      last_position_[i] = positions[i];
      gaits_[i] = Gait::Idle;
    }
    gaits_[i] =
        phase == AgentPhase::Waiting ? Gait::Wait : next_gait(gaits_[i], speed, turn_rate, c);
    const glm::vec3 d = positions[i] - last_position_[i];
    const float walked = std::sqrt(d.x * d.x + d.z * d.z);
    last_position_[i] = positions[i];
    switch (gaits_[i]) {
    case Gait::Walk:
    case Gait::Run: {
      const bool run = gaits_[i] == Gait::Run;
      const float cycle = run ? c.run_cycle : c.walk_cycle;
      const float clip_speed = run ? c.run_speed : c.walk_speed;
      phases_[i] = std::fmod(phases_[i] + walked / cycle, 1.0f);
      rates_[i] = speed / clip_speed;
      break;
    }
    case Gait::Idle:
    case Gait::Turn:
    case Gait::Wait:
      rates_[i] = 1.0f;
      break;
    }
  }
}

void Locomotion::save(ArchiveWriter& out) const {
  out.fields(gaits_, phases_, rates_, last_position_, shown_);
}

void Locomotion::restore(ArchiveReader& in) {
  in.fields(gaits_, phases_, rates_, last_position_, shown_);
  for (const Gait g : gaits_)
    if (static_cast<std::uint8_t>(g) >= kGaitNames.size())
      in.fail("a gait that does not exist");
  in.expect(phases_.size(), gaits_.size(), "the number of cycle phases");
  in.expect(rates_.size(), gaits_.size(), "the number of playback rates");
  in.expect(last_position_.size(), gaits_.size(), "the number of walked positions");
  in.expect(shown_.size(), gaits_.size(), "the number of shown flags");
}

} // namespace crowd

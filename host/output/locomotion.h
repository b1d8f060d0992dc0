// What a character's feet do, frame by frame, for crowd artists mapping animation clips onto the
// exported agents: the gait, where in its cycle the clip is (from the distance walked), and
// how fast to play it. A property of the character drawn from its trajectory, like its facing
// (character_motion.h); the simulation never reads it.
#pragma once

#include "host/output/metrics.h"
#include "host/scenario/character_clips.h"

#include <array>
#include <cstdint>
#include <functional>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;

/// The gaits, in the order of their numbers in the exports.
enum class Gait : std::uint8_t { Idle, Walk, Run, Turn, Wait };
inline constexpr std::array<const char*, 5> kGaitNames{"idle", "walk", "run", "turn", "wait"};

/// Per agent and frame:
///  - gait: `wait` while the agent stands at a waypoint for its wait; else `idle` below
///    idle_below, or `turn` when it also turns faster than turn_from (turn rates from
///    CharacterMotion); `walk`; `run` from run_from. Each boundary has a 10% band before the
///    gait changes back, so an agent at a boundary's speed does not flicker between clips;
///  - cycle phase in [0, 1): the ground distance travelled since the agent was first shown,
///    in cycles of its gait's clip (walk_cycle or run_cycle); it holds while idle, turning or
///    waiting (the feet stay planted), so a clip's foot contacts land on the ground the agent
///    covers;
///  - playback rate: the speed over the gait's authored clip speed (walk, run); 1 for idle,
///    turn and wait clips, which play as authored.
class Locomotion {
public:
  /// The clips of agent `id`.
  using ClipsOf = std::function<const LocomotionClips&(int id)>;

  /// Advances one frame (positions and velocities of the frame, turn rates in radians/s).
  /// Agents not shown (Removed, Pending) reset: shown again, they start a new cycle.
  void update(std::span<const glm::vec3> positions, std::span<const glm::vec2> velocities,
              std::span<const AgentPhase> phases, std::span<const float> turn_rates,
              const ClipsOf& clips);

  std::span<const Gait> gaits() const { return gaits_; }
  std::span<const float> cycle_phases() const { return phases_; }
  std::span<const float> playback_rates() const { return rates_; }

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  std::vector<Gait> gaits_;
  std::vector<float> phases_;
  std::vector<float> rates_;
  std::vector<glm::vec3> last_position_;
  std::vector<std::uint8_t> shown_;
};

} // namespace crowd

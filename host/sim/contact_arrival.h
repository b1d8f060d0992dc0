// Arrival by contact (scenario extension `arrival`, docs/scenario-extensions.md): an agent
// walking to its goal that touches an agent which has already arrived "there", and which
// stands nearer to that goal, has arrived where it stands. "There" is either the same goal
// (within the walker's arrival_radius: a crowd sent to one point) or the walker's goal point
// itself (the arrived agent's disc covers it, so the walker could never stand on it: goals
// closer together than the agents are wide, or an arrived agent pushed over a neighbour's
// goal). Arrival spreads outward through the cluster of agents standing at a goal, one ring of
// contacts per step, so a crowd sent to one point settles around it instead of pushing forever
// at agents that can never make room (arrival_radius alone lets only the few agents that fit
// inside it arrive).
//
// Game engines accept arrival in a region (Unreal's AcceptanceRadius, Unity's
// stoppingDistance) and RTS games stop a unit whose way to a shared destination is blocked by
// a friendly unit already standing on it ("can you check if the friendly unit blocking your
// path is on your goal square? If so, report back that you have reached your goal",
// gamedev.net, "Pathfinding: detecting when a group of units has reached the target", 2012).
// This is that rule with a disc contact in place of the tile test.
//
// Host logic shared by every backend: the schedule decides arrivals from positions alone.
#pragma once

#include "host/output/metrics.h"
#include "host/output/point_grid.h"
#include "host/scenario/agent_setup_table.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class ContactArrival {
public:
  /// Two agents touch when their discs are this fraction of their radius sum apart or closer:
  /// avoidance and separation keep a walking agent a little off a standing one, and a crowd
  /// pressing on a cluster stands a few centimetres off it, not in it.
  static constexpr float kContactSlack = 0.15f;

  /// `agent_height`: agents further apart than this in y are on different floors.
  explicit ContactArrival(float agent_height) : agent_height_(agent_height) {}

  /// The agents (ids in order) that arrive by contact now: those with `candidate[i]` set
  /// (walking to their goal under the arrival rule Contact) that touch an agent j whose phase
  /// is Arrived, that stands nearer the candidate's goal than the candidate does, and that
  /// arrived at the same goal (its goal within the candidate's arrival_radius of the
  /// candidate's) or stands on the candidate's goal (nearer to it than their radius sum). Only
  /// agents Arrived in `phases` count, so arrival spreads one contact per call whatever the id
  /// order. Agents more than agent_height apart in y (other floors) never touch.
  std::vector<int> find(const AgentSetupTable& setups, std::span<const AgentPhase> phases,
                        std::span<const glm::vec3> positions,
                        std::span<const std::uint8_t> candidate);

private:
  float agent_height_;
  std::vector<std::uint8_t> arrived_; ///< Scratch: 1 for the Arrived agents.
  PointGrid grid_;                    ///< Scratch: the Arrived agents.
};

} // namespace crowd

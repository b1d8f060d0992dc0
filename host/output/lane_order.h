// The lane-order index of a run (an observer: it reads positions, phases and targets and steers
// nothing): how well agents walking against each other have sorted themselves into lanes.
//
// After the lane order parameter of Rex & Löwen ("Lane formation in oppositely charged
// colloids driven by an electric field", Phys. Rev. E 75, 051402, 2007), as Nowak &
// Schadschneider use it for pedestrian counter-flow ("Quantitative analysis of pedestrian
// counterflow in a cellular automaton model", Phys. Rev. E 85, 066128, 2012): for an agent i,
// phi_i = ((n_same - n_other) / (n_same + n_other))^2 over the agents in its lane, itself
// included: those whose discs reach into the strip its own disc sweeps along its heading
// (lateral offset below the radius sum), within kRange ahead or behind; n_same of them head its
// way (headings less than 90 degrees apart), n_other do not. phi is 1 when everyone in the
// agent's lane walks its way and 0 when its lane is evenly mixed (one walker coming straight
// at it). A heading is the straight line to the agent's current target (waypoint or goal).
//
// The index is the mean of phi over the (agent, step) pairs of walking agents that have another
// agent in their lane and at least one walking agent heading against them within kRange, so that
// stretches of a run with no counter-flow (a flow before it meets the other) do not count;
// none: no index (null in the metrics).
#pragma once

#include "host/output/metrics.h"
#include "host/output/point_grid.h"

#include <cstdint>
#include <glm/glm.hpp>
#include <optional>
#include <span>
#include <vector>

namespace crowd {

class ArchiveWriter;
class ArchiveReader;
class ObservationSplit;

class LaneOrder {
public:
  static constexpr float kRange = 3.0f; ///< Metres around an agent that count.

  /// `agent_height`: agents further apart than this in y are on different floors.
  explicit LaneOrder(float agent_height) : agent_height_(agent_height) {}

  /// Registers the next agent (ids in order).
  void add_agent(float radius) { radius_.push_back(radius); }

  /// Observes the end of a step: positions, phases and current targets by agent id. `split`: a
  /// run split across processes, each finding the orders of its share of the walkers (every
  /// process calls this at every step); the index is then every walker's on the process that
  /// combines them, and not kept on the others.
  void observe(std::span<const glm::vec3> positions, std::span<const AgentPhase> phases,
               std::span<const glm::vec3> targets, ObservationSplit* split = nullptr);

  /// The mean phi so far, or none when no agent met a counter-flow.
  std::optional<double> index() const;
  long long samples() const { return samples_; }

  /// Checkpoints (host/checkpoint/archive.h).
  void save(ArchiveWriter& out) const;
  void restore(ArchiveReader& in);

private:
  /// What order_of returns for an agent that gives no sample (an order lies in [-1, 1]).
  static constexpr double kNoSample = 2.0;
  /// Walker i's order (1 + same - other) / (1 + same + other) in its lane, or kNoSample.
  double order_of(std::size_t i, std::span<const glm::vec3> positions) const;

  float agent_height_;
  std::vector<float> radius_;
  double phi_sum_ = 0.0;
  long long samples_ = 0;
  std::vector<std::uint8_t> walking_; ///< Scratch.
  std::vector<glm::vec2> heading_;    ///< Scratch.
  PointGrid grid_;                    ///< Scratch: the walking agents.
  std::vector<double> order_;         ///< Scratch: order_of each agent.
};

} // namespace crowd

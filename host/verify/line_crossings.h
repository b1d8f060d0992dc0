// An observer of the verification suite: when agents' centres cross a measurement line, as
// the RiMEA tests time and count people at doors and along corridors (and as JuPedSim's
// test scripts do with their flow and PassedLine helpers). It only reads the simulation.
#pragma once

#include "host/sim/simulation.h"

#include <glm/glm.hpp>
#include <optional>
#include <vector>

namespace crowd {

class LineCrossings {
public:
  /// The segment a -> b on the ground (x, z).
  LineCrossings(glm::vec2 a, glm::vec2 b) : a_(a), b_(b) {}

  struct Crossing {
    int agent = -1;
    double time = 0.0; ///< Interpolated linearly between the two steps around it, seconds.
    /// +1 when the agent passed from the left of a -> b to its right (seen with x to the
    /// right and z up), -1 the other way.
    int direction = 0;
  };

  /// Call after every step (and for the initial state). An agent removed in the step counts
  /// with the position it was removed at; a move longer than kMaxStep (a periodic world's
  /// wrap) is not a crossing.
  void observe(const Simulation& sim);

  const std::vector<Crossing>& crossings() const { return crossings_; }
  /// The first time the agent crossed the line, either way.
  std::optional<double> first_time(int agent) const;
  /// First crossing of each agent that crossed, in time order.
  std::vector<double> first_times() const;
  /// Agents that crossed at least once.
  int agents_crossed() const;
  /// Persons per second through the line: (n - 1) / (last - first) over first crossings
  /// (the flow JuPedSim's RiMEA scripts compute); nothing below two crossings.
  std::optional<double> flow() const;
  /// The same over the middle 80% of the first crossings (from the 10th to the 90th
  /// percentile): the steady flow, without the first arrivals and the last stragglers.
  std::optional<double> central_flow() const;

  static constexpr float kMaxStep = 3.0f;

private:
  glm::vec2 a_, b_;
  std::vector<glm::vec2> last_;
  std::vector<unsigned char> was_present_;
  double last_time_ = 0.0;
  std::vector<Crossing> crossings_;
};

} // namespace crowd

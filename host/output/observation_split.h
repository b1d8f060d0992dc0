// The per-step observers' share of the agents when one run is split across processes (issue 13,
// MPI ranks): each agent is measured by one process, and what the processes measured is combined
// on the one that writes the figures. An observer measures per agent what costs (pairs of
// agents, walls) where the split says, and combines only exactly: counts summed, maxima taken,
// per-agent values gathered in agent order and summed there, so that its figures are the bits
// of one process measuring every agent, whatever the process count. Observers still steer
// nothing: only what they found travels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace crowd {

class ObservationSplit {
public:
  virtual ~ObservationSplit() = default;
  /// Per agent of the `count` observed this step, 1 where this process measures it. Every agent
  /// is measured by exactly one process; every process calls it with the same count.
  virtual std::span<const std::uint8_t> measured_here(std::size_t count) = 0;
  /// Whether this process combines (and alone reads) the figures; the others' are partial.
  virtual bool combines_here() const = 0;
  /// `values`, one per agent of the last measured_here count: on the combining process, every
  /// agent's value as the process that measured it wrote it; elsewhere left as they are. A
  /// collective: every process calls it, in the same order.
  virtual void gather(std::span<double> values) = 0;
  /// On the combining process, `sums` summed and `maxima` maximised over every process (each
  /// process passes its own); elsewhere left as they are. A collective.
  virtual void reduce(std::span<long long> sums, std::span<double> maxima) = 0;
};

} // namespace crowd

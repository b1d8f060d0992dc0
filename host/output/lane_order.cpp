#include "host/output/lane_order.h"

#include "cuda/core/parallel_agents.h"
#include "host/checkpoint/archive.h"
#include "host/output/observation_split.h"

#include <algorithm>
#include <cmath>

namespace crowd {

void LaneOrder::observe(std::span<const glm::vec3> positions, std::span<const AgentPhase> phases,
                        std::span<const glm::vec3> targets, ObservationSplit* split) {
  const std::size_t n = std::min({positions.size(), phases.size(), targets.size(), radius_.size()});
  walking_.assign(n, 0);
  heading_.assign(n, glm::vec2(0.0f));
  parallel_for_each_agent(static_cast<int>(n), 4096, [&](int agent) {
    const auto i = static_cast<std::size_t>(agent);
    if (phases[i] != AgentPhase::Walking)
      return;
    const glm::vec2 d{targets[i].x - positions[i].x, targets[i].z - positions[i].z};
    const float length = std::sqrt(d.x * d.x + d.y * d.y);
    if (!(length > 1e-4f))
      return;
    heading_[i] = d / length;
    walking_[i] = 1;
  });
  if (std::find(walking_.begin(), walking_.end(), 1) == walking_.end())
    return;
  grid_.build(positions.first(n), walking_, kRange);
  // Each walker's order parameter on the workers (the grid and the inputs are only read), the
  // walkers taken in the grid's cell order for the cache; the sum in agent order on one
  // thread, so the index is the same bits for any thread count. Split, each process finds the
  // orders of the walkers it measures, and the one that combines them sums every walker's.
  const std::span<const std::uint8_t> measured =
      split != nullptr ? split->measured_here(positions.size()) : std::span<const std::uint8_t>{};
  order_.assign(n, kNoSample);
  parallel_for_each_agent(static_cast<int>(grid_.size()), 256, [&](int k) {
    const auto i = static_cast<std::size_t>(grid_.agent_in_cell_order(static_cast<std::size_t>(k)));
    if (measured.empty() || measured[i] != 0)
      order_[i] = order_of(i, positions);
  });
  if (split != nullptr) {
    order_.resize(positions.size(), kNoSample); // gather takes one value per agent observed
    split->gather(order_);
    if (!split->combines_here())
      return;
  }
  for (const double order : order_) {
    if (order == kNoSample)
      continue;
    phi_sum_ += order * order;
    ++samples_;
  }
}

double LaneOrder::order_of(std::size_t i, std::span<const glm::vec3> positions) const {
  const glm::vec3 p = positions[i];
  const glm::vec2 u = heading_[i];
  int same = 0, other = 0;
  bool counter_flow = false;
  grid_.any_near(p, [&](int neighbour) {
    const auto j = static_cast<std::size_t>(neighbour);
    if (j == i)
      return false;
    const glm::vec3 q = positions[j];
    const glm::vec2 d{q.x - p.x, q.z - p.z};
    if (d.x * d.x + d.y * d.y > kRange * kRange || std::fabs(q.y - p.y) > agent_height_)
      return false;
    const bool my_way = heading_[j].x * u.x + heading_[j].y * u.y > 0.0f;
    counter_flow = counter_flow || !my_way;
    const float lateral = std::fabs(u.x * d.y - u.y * d.x);
    if (lateral < radius_[i] + radius_[j])
      ++(my_way ? same : other);
    return false;
  });
  if (!counter_flow || same + other == 0)
    return kNoSample; // No counter-flow near, or alone in its lane.
  // The agent itself is of its lane: alone with one walker coming at it, phi is 0.
  return static_cast<double>(1 + same - other) / static_cast<double>(1 + same + other);
}

std::optional<double> LaneOrder::index() const {
  if (samples_ == 0)
    return std::nullopt;
  return phi_sum_ / static_cast<double>(samples_);
}

void LaneOrder::save(ArchiveWriter& out) const {
  out.fields(radius_, phi_sum_, samples_);
}

void LaneOrder::restore(ArchiveReader& in) {
  in.fields(radius_, phi_sum_, samples_);
}

} // namespace crowd

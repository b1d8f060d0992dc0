// The default Recast cell size: half the agent radius, at most the specification's 0.3 m, and
// larger for worlds too big for that (default_cell_size.h says why).
#include "host/navmesh/default_cell_size.h"

#include <algorithm>
#include <cmath>

namespace crowd {

float default_cell_size(float agent_radius, glm::vec2 extent) {
  float cell = agent_radius > 0.0f ? std::min(kSpecCellSize, agent_radius / 2.0f) : kSpecCellSize;
  const double area = static_cast<double>(std::max(extent.x, 0.0f)) * std::max(extent.y, 0.0f);
  const double cells = area / (static_cast<double>(cell) * cell);
  if (cells > kDefaultCellBudget) {
    // Rounded up to a millimetre so that scenario files and messages show short numbers.
    const double within_budget = std::ceil(std::sqrt(area / kDefaultCellBudget) * 1000.0) / 1000.0;
    cell = std::min(kSpecCellSize, static_cast<float>(within_budget));
  }
  return cell;
}

} // namespace crowd

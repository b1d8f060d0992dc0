#include "host/distributed/domain_split.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crowd {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

float ground(const glm::vec3& p, int axis) {
  return axis == 0 ? p.x : p.z;
}

// Orders [first, last) so that the agents before the returned position are the low side: the
// most agents, in coordinate order (`before`), whose work is no more than the low side's share
// of the range's, in proportion to its domains; every agent after it comes after them. Where
// every agent's work is the same that is a count, found by selection; else by a sort and a
// running sum.
template <typename Before>
std::vector<int>::iterator
select_low_side(std::span<const std::uint8_t> work, std::vector<int>::iterator first,
                std::vector<int>::iterator last, int low_domains, int domains, Before before) {
  const auto work_of = [&](int id) -> std::uint64_t { return work[static_cast<std::size_t>(id)]; };
  const std::uint64_t first_work = work_of(*first);
  if (std::all_of(first, last, [&](int id) { return work_of(id) == first_work; })) {
    const auto mid = first + (last - first) * low_domains / domains;
    std::nth_element(first, mid, last, before);
    return mid;
  }
  std::sort(first, last, before);
  std::uint64_t total = 0;
  for (auto it = first; it != last; ++it)
    total += work_of(*it);
  const std::uint64_t low_share = total * static_cast<std::uint64_t>(low_domains);
  std::uint64_t sum = 0;
  auto mid = first;
  while (mid != last && (sum + work_of(*mid)) * static_cast<std::uint64_t>(domains) <= low_share)
    sum += work_of(*mid++);
  return mid;
}

} // namespace

float DomainBox::distance_to(const glm::vec3& p) const {
  const float dx = std::max({lo.x - p.x, 0.0f, p.x - hi.x});
  const float dz = std::max({lo.y - p.z, 0.0f, p.z - hi.y});
  return std::sqrt(dx * dx + dz * dz);
}

DomainSplit::DomainSplit() {
  boxes_.push_back({{-kInfinity, -kInfinity}, {kInfinity, kInfinity}});
  nodes_.push_back({0, 0.0f, -1, -1, 0});
}

DomainSplit DomainSplit::bisect(std::span<const glm::vec3> positions,
                                std::span<const std::uint8_t> work, int domains) {
  return bisect(positions, work, domains, nullptr);
}

DomainSplit DomainSplit::bisect_along(const DomainSplit& before,
                                      std::span<const glm::vec3> positions,
                                      std::span<const std::uint8_t> work) {
  return bisect(positions, work, before.count(), &before.nodes_);
}

DomainSplit DomainSplit::bisect(std::span<const glm::vec3> positions,
                                std::span<const std::uint8_t> work, int domains,
                                const std::vector<Node>* axes) {
  DomainSplit split;
  split.boxes_.clear();
  split.nodes_.clear();
  std::vector<int> ids;
  for (std::size_t i = 0; i < std::min(positions.size(), work.size()); ++i)
    if (work[i] > 0)
      ids.push_back(static_cast<int>(i));
  split.split(positions, work, axes, ids, 0, ids.size(), std::max(domains, 1),
              {{-kInfinity, -kInfinity}, {kInfinity, kInfinity}});
  return split;
}

int DomainSplit::split(std::span<const glm::vec3> positions, std::span<const std::uint8_t> work,
                       const std::vector<Node>* axes, std::vector<int>& ids, std::size_t begin,
                       std::size_t end, int domains, DomainBox box) {
  const int node = static_cast<int>(nodes_.size());
  nodes_.push_back({});
  if (domains == 1) {
    nodes_[static_cast<std::size_t>(node)].domain = static_cast<int>(boxes_.size());
    boxes_.push_back(box);
    return node;
  }
  // Cut across the longer side of the agents' extent (the box itself may be unbounded). A kept
  // split's axis stays until the other side is more than kTurnAfter times as long: turning a
  // cut moves about half the box's agents, a cut across the shorter side only lengthens the
  // border (and the ghosts) while the crowd's shape is not far from square.
  constexpr float kTurnAfter = 2.0f;
  glm::vec2 lo(kInfinity), hi(-kInfinity);
  for (std::size_t k = begin; k < end; ++k) {
    const glm::vec3& p = positions[static_cast<std::size_t>(ids[k])];
    lo = glm::min(lo, glm::vec2(p.x, p.z));
    hi = glm::max(hi, glm::vec2(p.x, p.z));
  }
  const glm::vec2 extent = hi - lo; // -infinity without agents
  int axis = begin < end && extent.y > extent.x ? 1 : 0;
  if (axes != nullptr) {
    const int kept = (*axes)[static_cast<std::size_t>(node)].axis;
    if (begin == end || !(extent[1 - kept] > kTurnAfter * extent[kept]))
      axis = kept;
  }
  const int low_domains = domains / 2;
  const auto before = [&](int a, int b) {
    const float ca = ground(positions[static_cast<std::size_t>(a)], axis);
    const float cb = ground(positions[static_cast<std::size_t>(b)], axis);
    return ca < cb || (ca == cb && a < b);
  };
  float cut = 0.0f;
  std::size_t low_end = begin; // the low side's agents: ids[begin, low_end)
  if (begin == end) {
    // No agents: halve the box where it is bounded, else cut at its finite edge or at 0.
    const float a = axis == 0 ? box.lo.x : box.lo.y, b = axis == 0 ? box.hi.x : box.hi.y;
    cut = std::isfinite(a) && std::isfinite(b) ? 0.5f * (a + b)
          : std::isfinite(a)                   ? a + 1.0f
          : std::isfinite(b)                   ? b - 1.0f
                                               : 0.0f;
  } else {
    const auto first = ids.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = ids.begin() + static_cast<std::ptrdiff_t>(end);
    // *mid: the first agent of the high side in coordinate order, every agent before it in the
    // range coming before it.
    const auto mid = select_low_side(work, first, last, low_domains, domains, before);
    const float above =
        mid == last ? kInfinity : ground(positions[static_cast<std::size_t>(*mid)], axis);
    if (mid == first) {
      cut = above;
    } else {
      const float below =
          ground(positions[static_cast<std::size_t>(*std::max_element(first, mid, before))], axis);
      // Halfway between the two sides; where they share a coordinate the cut falls on it and
      // the tie goes up (the split is then off by the tied agents).
      cut = std::isfinite(above) ? 0.5f * (below + above) : below + 1.0f;
    }
    // Every agent below the cut on the low side, the rest on the high side.
    low_end = static_cast<std::size_t>(
        std::stable_partition(
            first, last,
            [&](int id) { return ground(positions[static_cast<std::size_t>(id)], axis) < cut; }) -
        ids.begin());
  }
  DomainBox low_box = box, high_box = box;
  (axis == 0 ? low_box.hi.x : low_box.hi.y) = cut;
  (axis == 0 ? high_box.lo.x : high_box.lo.y) = cut;
  const int low = split(positions, work, axes, ids, begin, low_end, low_domains, low_box);
  const int high = split(positions, work, axes, ids, low_end, end, domains - low_domains, high_box);
  Node& n = nodes_[static_cast<std::size_t>(node)];
  n.axis = axis;
  n.cut = cut;
  n.low = low;
  n.high = high;
  return node;
}

int DomainSplit::domain_of(const glm::vec3& p) const {
  int node = 0;
  while (nodes_[static_cast<std::size_t>(node)].domain < 0) {
    const Node& n = nodes_[static_cast<std::size_t>(node)];
    node = ground(p, n.axis) < n.cut ? n.low : n.high;
  }
  return nodes_[static_cast<std::size_t>(node)].domain;
}

} // namespace crowd

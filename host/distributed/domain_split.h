// The world split into spatial domains, one per MPI rank (issue 13), balanced by work:
// recursive coordinate bisection (Berger & Bokhari, "A partitioning strategy for nonuniform
// problems on multiprocessors", IEEE Trans. Computers 36(5), 1987). Each cut halves the work
// of a box's agents (in proportion to the domains each side gets, so any domain count works)
// across the box's longer side; the boxes tile the ground plane, the outer ones reaching to
// infinity. An agent's work is a small whole number, its cost in the caller's units (1 for
// every agent: a balance by agent count); 0 leaves it out.
//
// Nothing here depends on the order the agents come in: ties on a coordinate are broken by
// the agent's index, so every rank computes the same split from the same positions.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

/// A domain's box on the ground plane (x, z), lo inclusive, hi exclusive; +-infinity at the
/// world's outer edges.
struct DomainBox {
  glm::vec2 lo, hi;
  /// Ground distance from p to the box (0 inside).
  float distance_to(const glm::vec3& p) const;
};

class DomainSplit {
public:
  /// One domain covering the whole plane.
  DomainSplit();
  /// Splits the agents i with work[i] > 0 into `domains` (>= 1) domains of about equal work.
  /// A domain may get no agent (fewer agents than domains).
  static DomainSplit bisect(std::span<const glm::vec3> positions,
                            std::span<const std::uint8_t> work, int domains);
  /// The same, each cut across the same axis as `before`'s (a split into as many domains)
  /// unless the agents it divides now reach more than twice as far along the other axis: a
  /// rebalance moves the cuts rather than turning them. Bisected afresh, a squarish crowd
  /// may swap its cuts' axes and send about half its agents to another domain.
  static DomainSplit bisect_along(const DomainSplit& before, std::span<const glm::vec3> positions,
                                  std::span<const std::uint8_t> work);

  int count() const { return static_cast<int>(boxes_.size()); }
  const DomainBox& box(int domain) const { return boxes_[static_cast<std::size_t>(domain)]; }
  /// The domain whose box holds p.
  int domain_of(const glm::vec3& p) const;

private:
  struct Node {
    int axis = 0;     ///< 0: x, 1: z.
    float cut = 0.0f; ///< Below it: `low`; at or above: `high`.
    int low = -1, high = -1;
    int domain = -1; ///< A leaf's domain, else -1.
  };
  /// `axes`: the nodes whose cuts' axes to keep (those of a split into as many domains, whose
  /// nodes come in the same order), or null to cut across the agents' longer side.
  static DomainSplit bisect(std::span<const glm::vec3> positions,
                            std::span<const std::uint8_t> work, int domains,
                            const std::vector<Node>* axes);
  int split(std::span<const glm::vec3> positions, std::span<const std::uint8_t> work,
            const std::vector<Node>* axes, std::vector<int>& ids, std::size_t begin,
            std::size_t end, int domains, DomainBox box);

  std::vector<Node> nodes_;
  std::vector<DomainBox> boxes_;
};

} // namespace crowd

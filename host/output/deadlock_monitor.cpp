#include "host/output/deadlock_monitor.h"

#include "host/checkpoint/archive.h"

#include <algorithm>
#include <cmath>

namespace crowd {
namespace {

/// The unit ground direction from p to its target, or zero at the target.
glm::vec2 heading(const glm::vec3& p, const glm::vec3& target) {
  const glm::vec2 d{target.x - p.x, target.z - p.z};
  const float length = std::sqrt(d.x * d.x + d.y * d.y);
  return length > 1e-4f ? d / length : glm::vec2(0.0f);
}

/// cos(60 degrees): headings closer than this are the same way.
constexpr float kSameWayCos = 0.5f;

} // namespace

void DeadlockMonitor::add_agent(float radius) {
  radius_.push_back(radius);
  ever_.push_back(0);
  max_radius_ = std::max(max_radius_, radius);
}

void DeadlockMonitor::observe(std::span<const glm::vec3> positions,
                              std::span<const glm::vec3> targets,
                              std::span<const std::uint8_t> stuck) {
  now_count_ = 0;
  const std::size_t n = std::min({positions.size(), targets.size(), stuck.size(), radius_.size()});
  if (std::none_of(stuck.begin(), stuck.begin() + static_cast<std::ptrdiff_t>(n),
                   [](std::uint8_t s) { return s != 0; }) ||
      !(max_radius_ > 0.0f))
    return;
  grid_.build(positions.first(n), stuck.first(n), 2.0f * max_radius_ + kGap);
  for (std::size_t i = 0; i < n; ++i) {
    if (!stuck[i])
      continue;
    const glm::vec3 p = positions[i];
    const glm::vec2 mine = heading(p, targets[i]);
    const bool deadlocked = grid_.any_near(p, [&](int other) {
      const auto j = static_cast<std::size_t>(other);
      if (j == i)
        return false;
      const glm::vec3 q = positions[j];
      const glm::vec2 d{q.x - p.x, q.z - p.z};
      const float reach = radius_[i] + radius_[j] + kGap;
      if (d.x * d.x + d.y * d.y > reach * reach || std::fabs(q.y - p.y) > agent_height_)
        return false;
      if (d.x * mine.x + d.y * mine.y <= 0.0f)
        return false; // Behind or beside: not in the way.
      const glm::vec2 theirs = heading(q, targets[j]);
      return theirs.x * mine.x + theirs.y * mine.y < kSameWayCos;
    });
    if (!deadlocked)
      continue;
    ++now_count_;
    if (!ever_[i]) {
      ever_[i] = 1;
      ++ever_count_;
    }
  }
}

void DeadlockMonitor::save(ArchiveWriter& out) const {
  out.fields(radius_, ever_, ever_count_, now_count_, max_radius_);
}

void DeadlockMonitor::restore(ArchiveReader& in) {
  in.fields(radius_, ever_, ever_count_, now_count_, max_radius_);
  in.expect(ever_.size(), radius_.size(), "the deadlock flags' count");
}

} // namespace crowd

// A uniform grid over some agents' ground positions, for the host's neighbour questions
// (arrival by contact, deadlocks, lane order): cells of a chosen size, items sorted by cell, so
// that every agent within one cell size of a point lies in the 3 x 3 cells around it. Visits
// are in cell then id order, so whatever is computed from them is the same on every run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace crowd {

class PointGrid {
public:
  /// Grids the agents i with selected[i] set, in cells of `cell` metres (> 0).
  void build(std::span<const glm::vec3> positions, std::span<const std::uint8_t> selected,
             float cell) {
    cell_ = cell;
    entries_.clear();
    const std::size_t n = std::min(positions.size(), selected.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (selected[i])
        entries_.push_back(
            {key(coord(positions[i].x), coord(positions[i].z)), static_cast<int>(i)});
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.cell < b.cell || (a.cell == b.cell && a.agent < b.agent);
    });
  }

  bool empty() const { return entries_.empty(); }

  /// f(j) for every gridded agent j in the 3 x 3 cells around p (all within one cell size of
  /// p among them); stops early when f returns true, and then returns true.
  template <class F> bool any_near(const glm::vec3& p, F&& f) const {
    const std::int64_t cx = coord(p.x), cz = coord(p.z);
    // The three cells of a column have consecutive keys: one search per column.
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      const std::int64_t first = key(cx + dx, cz - 1), last = key(cx + dx, cz + 1);
      auto it = std::lower_bound(entries_.begin(), entries_.end(), first,
                                 [](const Entry& e, std::int64_t c) { return e.cell < c; });
      for (; it != entries_.end() && it->cell <= last; ++it) {
        if (f(it->agent))
          return true;
      }
    }
    return false;
  }

private:
  struct Entry {
    std::int64_t cell;
    int agent;
  };
  std::int64_t coord(float v) const {
    const double c = std::floor(static_cast<double>(v) / static_cast<double>(cell_));
    return static_cast<std::int64_t>(std::clamp(c, -1.0e9, 1.0e9));
  }
  static std::int64_t key(std::int64_t x, std::int64_t z) {
    return x * (std::int64_t{1} << 32) + z;
  }

  float cell_ = 1.0f;
  std::vector<Entry> entries_;
};

} // namespace crowd

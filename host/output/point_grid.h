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
#include <limits>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>
#include <span>
#include <vector>

namespace crowd {

class PointGrid {
public:
  /// Grids the agents i with selected[i] set, in cells of `cell` metres (> 0).
  void build(std::span<const glm::vec3> positions, std::span<const std::uint8_t> selected,
             float cell) {
    cell_ = cell;
    const std::size_t n = std::min(positions.size(), selected.size());
    // One entry per agent on the workers, the agents not selected keyed past every cell so
    // that the sort puts them last, where they are cut off. No two entries are equal (one per
    // agent), so the order is the same for any thread count.
    entries_.resize(n);
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
          for (std::size_t i = r.begin(); i != r.end(); ++i)
            entries_[i] = {selected[i] ? key(coord(positions[i].x), coord(positions[i].z))
                                       : kUnselected,
                           static_cast<int>(i)};
        });
    tbb::parallel_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.cell < b.cell || (a.cell == b.cell && a.agent < b.agent);
    });
    entries_.erase(std::lower_bound(entries_.begin(), entries_.end(), kUnselected,
                                    [](const Entry& e, std::int64_t c) { return e.cell < c; }),
                   entries_.end());
    index_cells();
  }

  bool empty() const { return entries_.empty(); }
  /// The gridded agents in cell order: queries made in this order find their neighbours in
  /// memory the previous queries brought into the cache.
  std::size_t size() const { return entries_.size(); }
  int agent_in_cell_order(std::size_t k) const { return entries_[k].agent; }

  /// f(j) for every gridded agent j in the 3 x 3 cells around p (all within one cell size of
  /// p among them); stops early when f returns true, and then returns true.
  template <class F> bool any_near(const glm::vec3& p, F&& f) const {
    const std::int64_t cx = coord(p.x), cz = coord(p.z);
    // Column by column, each column's cells in key order: the entries' own order.
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      for (std::int64_t dz = -1; dz <= 1; ++dz) {
        const int c = find_cell(key(cx + dx, cz + dz));
        if (c < 0)
          continue;
        const std::size_t end = cell_begin_[static_cast<std::size_t>(c) + 1];
        for (std::size_t e = cell_begin_[static_cast<std::size_t>(c)]; e < end; ++e) {
          if (f(entries_[e].agent))
            return true;
        }
      }
    }
    return false;
  }

private:
  struct Entry {
    std::int64_t cell;
    int agent;
  };
  /// Above every cell's key (coordinates are clamped to +-1e9).
  static constexpr std::int64_t kUnselected = std::numeric_limits<std::int64_t>::max();
  std::int64_t coord(float v) const {
    const double c = std::floor(static_cast<double>(v) / static_cast<double>(cell_));
    return static_cast<std::int64_t>(std::clamp(c, -1.0e9, 1.0e9));
  }
  static std::int64_t key(std::int64_t x, std::int64_t z) {
    return x * (std::int64_t{1} << 32) + z;
  }

  static std::size_t slot_of(std::int64_t cell, std::size_t mask) {
    // Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4): the key's bits mixed by one multiply.
    return static_cast<std::size_t>((static_cast<std::uint64_t>(cell) * 0x9E3779B97F4A7C15ull) >>
                                    32) &
           mask;
  }
  /// The occupied cells (their first entries, in order) and an open-addressing table from a
  /// cell's key to its index there, so that a query finds each cell in one or two probes
  /// rather than by a binary search of every entry.
  void index_cells() {
    cell_keys_.clear();
    cell_begin_.clear();
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      if (e == 0 || entries_[e].cell != entries_[e - 1].cell) {
        cell_keys_.push_back(entries_[e].cell);
        cell_begin_.push_back(e);
      }
    }
    cell_begin_.push_back(entries_.size());
    std::size_t size = 16;
    while (size < 2 * cell_keys_.size())
      size <<= 1;
    table_.assign(size, -1);
    for (std::size_t c = 0; c < cell_keys_.size(); ++c) {
      std::size_t slot = slot_of(cell_keys_[c], size - 1);
      while (table_[slot] >= 0)
        slot = (slot + 1) & (size - 1);
      table_[slot] = static_cast<int>(c);
    }
  }
  /// The index of the occupied cell `cell`, or -1.
  int find_cell(std::int64_t cell) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t slot = slot_of(cell, mask);; slot = (slot + 1) & mask) {
      const int c = table_[slot];
      if (c < 0 || cell_keys_[static_cast<std::size_t>(c)] == cell)
        return c;
    }
  }

  float cell_ = 1.0f;
  std::vector<Entry> entries_;
  std::vector<std::int64_t> cell_keys_;
  std::vector<std::size_t> cell_begin_; ///< Entries of cell c: [cell_begin_[c], cell_begin_[c+1]).
  std::vector<int> table_ = std::vector<int>(16, -1);
};

} // namespace crowd

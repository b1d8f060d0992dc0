// Moving the rows of structure-of-arrays columns (AgentArrays, CorridorArrays) into a new order:
// row r takes what row order[r] held. What lets a rank hold its own agents and its ghosts in rows
// of its own (docs/distributed-model.md, "Memory per rank", stage 1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace crowd {

/// Where each of `rows` rows goes (new_row[old row]) when row r takes what row order[r] held;
/// nullopt when `order` is no permutation of the rows.
inline std::optional<std::vector<std::int32_t>> rows_after(const std::vector<std::int32_t>& order,
                                                           std::size_t rows) {
  if (order.size() != rows)
    return std::nullopt;
  std::vector<std::int32_t> new_row(rows, -1); // -1 until a row goes there, to find a repeat
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int32_t from = order[r];
    if (from < 0 || static_cast<std::size_t>(from) >= rows ||
        new_row[static_cast<std::size_t>(from)] >= 0)
      return std::nullopt;
    new_row[static_cast<std::size_t>(from)] = static_cast<std::int32_t>(r);
  }
  return new_row;
}

/// `column`, of `per_row` elements a row, with row r holding what row order[r] held (`order` a
/// permutation of its rows).
template <class Column>
void move_rows(Column& column, int per_row, const std::vector<std::int32_t>& order) {
  Column moved = column;
  const auto width = static_cast<std::ptrdiff_t>(per_row);
  for (std::size_t r = 0; r < order.size(); ++r)
    std::copy_n(column.begin() + order[r] * width, width,
                moved.begin() + static_cast<std::ptrdiff_t>(r) * width);
  column = std::move(moved);
}

/// Each entry of `rows` that names one of the rows (a valid row index; -1 and the like stay)
/// renamed to where that row went (rows_after).
inline void follow_rows(std::vector<std::int32_t>& rows, const std::vector<std::int32_t>& new_row) {
  for (std::int32_t& row : rows) {
    if (row >= 0 && static_cast<std::size_t>(row) < new_row.size())
      row = new_row[static_cast<std::size_t>(row)];
  }
}

} // namespace crowd

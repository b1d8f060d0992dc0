// Reading the cells of the CSV files the project writes and reads back (trajectory_reader.h,
// film_csv_reader.h): a whole-cell number, and a cell as a message shows it.
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace crowd {

/// Parses all of `text` as a number (std::from_chars: no locale, no leading spaces or '+').
/// False when the text is not a number or has anything after it.
template <class T> bool parse_cell(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end;
}

/// `text` in single quotes for an error message, cut after 60 characters ("...").
inline std::string quoted_cell(std::string_view text) {
  constexpr std::size_t kShown = 60;
  return "'" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "...'" : "'");
}

} // namespace crowd

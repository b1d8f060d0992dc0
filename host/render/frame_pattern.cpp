#include "host/render/frame_pattern.h"

#include <cctype>

namespace crowd {
namespace {

/// Walks the pattern; calls on_number(width) for the conversion. Returns the problem, if any.
template <class F>
std::optional<std::string> walk(const std::string& pattern, std::string& out, F&& on_number) {
  int conversions = 0;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    if (pattern[k] != '%') {
      out += pattern[k];
      continue;
    }
    if (k + 1 < pattern.size() && pattern[k + 1] == '%') {
      out += '%';
      ++k;
      continue;
    }
    std::size_t j = k + 1;
    int width = 0;
    if (j < pattern.size() && pattern[j] == '0') {
      ++j;
      while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j])) &&
             width < 100)
        width = width * 10 + (pattern[j++] - '0');
    }
    if (j >= pattern.size() || pattern[j] != 'd')
      return "'" + pattern + "' has a '%' that is not %d, %0Nd or %%";
    on_number(width);
    ++conversions;
    k = j;
  }
  if (conversions != 1)
    return "'" + pattern + "' needs exactly one frame number (%d or %0Nd, e.g. out/%05d.png), " +
           "it has " + std::to_string(conversions);
  return std::nullopt;
}

} // namespace

std::optional<std::string> frame_pattern_problem(const std::string& pattern) {
  std::string ignored;
  return walk(pattern, ignored, [](int) {});
}

std::string frame_file_name(const std::string& pattern, int number) {
  std::string out;
  walk(pattern, out, [&](int width) {
    std::string digits = std::to_string(number);
    if (static_cast<int>(digits.size()) < width)
      digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
    out += digits;
  });
  return out;
}

} // namespace crowd

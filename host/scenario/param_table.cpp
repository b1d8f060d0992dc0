#include "host/scenario/param_table.h"

#include <charconv>

namespace crowd {

std::string format_number(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "infinity" : "-infinity";
  char buffer[64];
  // Whole numbers in full ("10000000", not "1e+07"): limits are quoted to users.
  const auto result =
      std::abs(value) < 1e15 && value == std::floor(value)
          ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed)
          : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string Range::describe(std::string_view noun) const {
  const std::string n(noun);
  if (lo == -kUnbounded && hi == kUnbounded)
    return noun == "number" ? "a finite number" : "an integer";
  const std::string article = noun == "number" ? "a " : "an ";
  if (hi == kUnbounded)
    return article + n + (lo_open ? " > " : " >= ") + format_number(lo);
  if (lo == -kUnbounded)
    return article + n + (hi_open ? " < " : " <= ") + format_number(hi);
  return article + n + " in " + (lo_open ? "(" : "[") + format_number(lo) + ", " +
         format_number(hi) + (hi_open ? ")" : "]");
}

namespace {

/// A stored float as its shortest round-trip form ("0.15", "-1.1754944e-38"), NaN and the
/// infinities by name.
std::string format_stored_float(double value) {
  const auto f = static_cast<float>(value);
  if (!std::isfinite(f))
    return format_number(static_cast<double>(f));
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, f).ptr);
}

} // namespace

std::string param_problem(ParamKind kind, const Range& range,
                          std::span<const std::string_view> choices, double value) {
  switch (kind) {
  case ParamKind::Real:
    if (std::isfinite(value) && range.contains(value))
      return "";
    return "must be " + range.describe("number") + ", got " + format_stored_float(value);
  case ParamKind::Whole:
    if (range.contains(value))
      return "";
    return "must be " + range.describe("integer") + ", got " + format_number(value);
  case ParamKind::Flag:
    if (value == 0.0 || value == 1.0)
      return "";
    return "must be 1 (true) or 0 (false), got " + format_number(value);
  case ParamKind::Choice: {
    if (range.contains(value) && value == std::floor(value))
      return "";
    std::string words; // 0 ("a"), 1 ("b") or 2 ("c")
    for (std::size_t k = 0; k < choices.size(); ++k) {
      words += k == 0 ? "" : (k + 1 == choices.size() ? " or " : ", ");
      words += std::to_string(k) + " (\"" + std::string(choices[k]) + "\")";
    }
    return "must be " + words + ", got " + format_number(value);
  }
  }
  return "";
}

} // namespace crowd

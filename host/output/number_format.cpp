#include "host/output/number_format.h"

#include <charconv>
#include <cmath>

namespace crowd {

void append_float(std::string& out, float value) {
  if (value == 0.0f) {
    value = 0.0f; // -0 -> 0
  }
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  out.append(buf, end);
}

void append_time(std::string& out, double t) {
  // A float dt multiplied by the step number is off the decimal time by up to 2^-24 relative
  // (0.1f x 9 = 0.9000000134...), which the 2^-23 tolerance absorbs, while frames stay
  // distinct for millions of steps.
  const double tolerance = std::abs(t) * 0x1p-23;
  double scale = 1.0;
  char buf[400]; // Fixed notation of a huge double can be ~310 digits.
  for (int decimals = 0; decimals <= 9; ++decimals, scale *= 10.0) {
    const double rounded = std::round(t * scale) / scale;
    if (std::abs(rounded - t) <= tolerance) {
      const auto end = std::to_chars(buf, buf + sizeof buf, rounded == 0.0 ? 0.0 : rounded,
                                     std::chars_format::fixed, decimals)
                           .ptr;
      out.append(buf, end);
      return;
    }
  }
  const auto end = std::to_chars(buf, buf + sizeof buf, t, std::chars_format::fixed).ptr;
  out.append(buf, end);
}

void append_int(std::string& out, long long value) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  out.append(buf, end);
}

} // namespace crowd

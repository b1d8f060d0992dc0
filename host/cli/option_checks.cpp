#include "host/cli/option_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace crowd::cli {
namespace {

/// The whole of `text` as a finite number, or nothing.
std::optional<double> finite_number(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value))
    return std::nullopt;
  return value;
}

/// The whole of `text` as an integer, or nothing.
std::optional<long long> whole_number(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size() || errno == ERANGE)
    return std::nullopt;
  return value;
}

std::string got(const std::string& text) {
  return ", got '" + text + "'";
}

CLI::Validator number_check(const char* description, bool (*accept)(double)) {
  return CLI::Validator(
      [description, accept](std::string& text) -> std::string {
        const std::optional<double> value = finite_number(text);
        if (value && accept(*value))
          return "";
        return std::string("must be ") + description + got(text);
      },
      description);
}

} // namespace

CLI::Validator positive_number() {
  return number_check("a number > 0", [](double v) { return v > 0.0; });
}

CLI::Validator non_negative_number() {
  return number_check("a number >= 0", [](double v) { return v >= 0.0; });
}

CLI::Validator integer_in(long long lo, long long hi) {
  const std::string description =
      "a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, description](std::string& text) -> std::string {
        const std::optional<long long> value = whole_number(text);
        if (value && *value >= lo && *value <= hi)
          return "";
        return "must be " + description + got(text);
      },
      description);
}

CLI::Validator positive_integer() {
  return integer_in(1, 2147483647);
}

CLI::Validator non_negative_integer() {
  return integer_in(0, 2147483647);
}

int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);
    std::fprintf(stderr, "error: %s (crowd --help lists the commands and options)\n", e.what());
    return 2;
  }
}

} // namespace crowd::cli

// File names of rendered frames: a pattern with one printf-style frame number, as ffmpeg's
// image sequences use ("out/%05d.png": out/00000.png, out/00001.png, ...).
#pragma once

#include <optional>
#include <string>

namespace crowd {

/// Why `pattern` is not usable (it needs exactly one %d or %0Nd; %% is a literal %), or
/// nothing when it is.
std::optional<std::string> frame_pattern_problem(const std::string& pattern);
/// The pattern with the number filled in. The pattern must be valid.
std::string frame_file_name(const std::string& pattern, int number);

} // namespace crowd

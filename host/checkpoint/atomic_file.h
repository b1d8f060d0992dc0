// Writing a file so that its requested name holds either nothing or the complete content.
#pragma once

#include <filesystem>
#include <string>

namespace crowd {

/// A temporary name beside `path` (same directory, so the final rename is atomic).
std::filesystem::path temporary_path_for(const std::filesystem::path& path);

/// Writes `content` to a temporary file beside `path`, then renames it over `path`.
/// Throws std::runtime_error naming the file and the system error.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

} // namespace crowd

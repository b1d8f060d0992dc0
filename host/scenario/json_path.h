// JSON paths as scenario error messages show them: "agents[12].radius", "world.bounds".
// The document root is the empty path; ScenarioError shows it as "(root)".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace crowd::json_path {

/// `path.key`; a key that is not an identifier is written `path["key"]` so that a key with a
/// dot or a bracket in it cannot be mistaken for a deeper path.
inline std::string member(std::string_view path, std::string_view key) {
  bool identifier = !key.empty() && !(key[0] >= '0' && key[0] <= '9');
  for (const char c : key) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    identifier = identifier && (alnum || c == '_');
  }
  std::string out(path);
  if (identifier) {
    if (!out.empty()) {
      out += '.';
    }
    out += key;
  } else {
    out += "[\"";
    out += key;
    out += "\"]";
  }
  return out;
}

/// `path[index]`.
inline std::string element(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

} // namespace crowd::json_path

// The GLSL of shaders/, embedded in the binary at build time (cmake/embed_shaders.cmake): the
// viewer and `crowd render` then need no shader files at run time, whatever the working
// directory or install prefix.
#pragma once

#include <optional>
#include <string_view>

namespace crowd {

/// The text of shaders/<name> (for example "agents.vert"), or nothing for an unknown name.
std::optional<std::string_view> shader_source(std::string_view name);

} // namespace crowd

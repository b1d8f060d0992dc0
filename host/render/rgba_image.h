// A frame read back from OpenGL, rows top to bottom, 4 bytes (R, G, B, A) per pixel; written
// as PNG by cairo (already the project's PNG writer, for `crowd bench --plot`).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace crowd {

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels; ///< width x height x 4, row 0 at the top

  std::array<std::uint8_t, 4> at(int x, int y) const;
};

/// Writes the image as an opaque PNG under a temporary name, renamed into place when complete.
/// Throws std::runtime_error naming the file.
void write_png(const RgbaImage& image, const std::filesystem::path& file);

} // namespace crowd

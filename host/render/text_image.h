// Lines of text drawn by cairo into a premultiplied ARGB image, for the on-screen display.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crowd {

struct TextImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> bgra; ///< Premultiplied, rows top to bottom (cairo's ARGB32 on
                                  ///< little-endian: B, G, R, A bytes).
};

/// Dark text on a translucent light panel, one line per string.
TextImage draw_text_panel(const std::vector<std::string>& lines, double font_pixels = 14.0);

} // namespace crowd

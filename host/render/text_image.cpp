#include "host/render/text_image.h"

#include <algorithm>
#include <cairo.h>
#include <cmath>
#include <cstring>

namespace crowd {

TextImage draw_text_panel(const std::vector<std::string>& lines, double font_pixels) {
  // Measure on a scratch surface, then draw at the measured size.
  cairo_surface_t* scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t* measure = cairo_create(scratch);
  cairo_select_font_face(measure, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(measure, font_pixels);
  double widest = 0.0;
  for (const std::string& line : lines) {
    cairo_text_extents_t extents;
    cairo_text_extents(measure, line.c_str(), &extents);
    widest = std::max(widest, extents.x_advance);
  }
  cairo_destroy(measure);
  cairo_surface_destroy(scratch);

  const double padding = font_pixels * 0.5;
  const double line_height = font_pixels * 1.3;
  TextImage image;
  image.width = std::max(1, static_cast<int>(std::ceil(widest + 2 * padding)));
  image.height = std::max(1, static_cast<int>(std::ceil(
                                 line_height * static_cast<double>(lines.size()) + 2 * padding)));
  cairo_surface_t* surface =
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, image.width, image.height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.8);
  cairo_paint(cr);
  cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, font_pixels);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    cairo_move_to(cr, padding, padding + line_height * static_cast<double>(k) + font_pixels);
    cairo_show_text(cr, lines[k].c_str());
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  image.bgra.resize(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) *
                    4);
  for (int y = 0; y < image.height; ++y)
    std::memcpy(
        &image.bgra[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) * 4],
        data + static_cast<std::ptrdiff_t>(y) * stride, static_cast<std::size_t>(image.width) * 4);
  cairo_surface_destroy(surface);
  return image;
}

} // namespace crowd

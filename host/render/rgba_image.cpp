#include "host/render/rgba_image.h"

#include <cairo.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

namespace crowd {

std::array<std::uint8_t, 4> RgbaImage::at(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        4;
  return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

void write_png(const RgbaImage& image, const std::filesystem::path& file) {
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, image.width, image.height),
      cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(file.string() + ": cannot make a " + std::to_string(image.width) +
                             "x" + std::to_string(image.height) + " image");
  cairo_surface_flush(surface.get());
  unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  // RGB24 is one native-endian 32-bit word per pixel: 0x00RRGGBB.
  for (int y = 0; y < image.height; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
    for (int x = 0; x < image.width; ++x) {
      const auto p = image.at(x, y);
      row[x] = (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | std::uint32_t{p[2]};
    }
  }
  cairo_surface_mark_dirty(surface.get());
  std::filesystem::path temp = file;
  temp += ".partial";
  const cairo_status_t status = cairo_surface_write_to_png(surface.get(), temp.c_str());
  if (status != CAIRO_STATUS_SUCCESS) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw std::runtime_error(file.string() + ": cannot write the PNG (" +
                             cairo_status_to_string(status) + ")");
  }
  std::error_code error;
  std::filesystem::rename(temp, file, error);
  if (error)
    throw std::runtime_error(file.string() + ": cannot write the PNG (" + error.message() + ")");
}

} // namespace crowd

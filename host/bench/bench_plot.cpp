#include "host/bench/bench_plot.h"

#include "host/checkpoint/atomic_file.h"

#include <algorithm>
#include <cairo.h>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <system_error>

namespace crowd {

namespace {

constexpr int kWidth = 960, kHeight = 640;
constexpr double kLeft = 90, kRight = 30, kTop = 78, kBottom = 72;

struct Rgb {
  double r, g, b;
};

struct Style {
  Rgb colour;
  int marker; ///< 0 circle, 1 square, 2 triangle, 3 diamond
};

Style style_for(const std::string& backend, std::size_t index) {
  if (backend == "cpu")
    return {{0.12, 0.47, 0.71}, 0};
  if (backend == "cuda")
    return {{0.17, 0.63, 0.17}, 1};
  if (backend == "detour")
    return {{0.84, 0.37, 0.0}, 2};
  return {{0.5, 0.3, 0.6}, static_cast<int>(index % 4)};
}

struct Series {
  std::string backend;
  std::vector<std::pair<double, double>> points; ///< (agents, ms per step)
  std::vector<std::string> not_run;              ///< "64,000: reason"
};

std::string thousands(int value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

std::string decade_label(int exponent, bool agents) {
  if (agents) {
    static const char* const names[] = {"1",    "10", "100", "1k",   "10k",
                                        "100k", "1M", "10M", "100M", "1G"};
    if (exponent >= 0 && exponent <= 9)
      return names[exponent];
  }
  char text[32];
  std::snprintf(text, sizeof text, "%g", std::pow(10.0, exponent));
  return text;
}

struct Axes {
  int x_lo, x_hi, y_lo, y_hi; ///< Decade exponents.
  double x0, x1, y0, y1;      ///< Plot box in pixels (y0 top).
  double px(double agents) const {
    return x0 + (std::log10(agents) - x_lo) / (x_hi - x_lo) * (x1 - x0);
  }
  double py(double ms) const { return y1 - (std::log10(ms) - y_lo) / (y_hi - y_lo) * (y1 - y0); }
};

void text_at(cairo_t* cr, const std::string& text, double x, double y, double align_x,
             double align_y) {
  cairo_text_extents_t extents;
  cairo_text_extents(cr, text.c_str(), &extents);
  cairo_move_to(cr, x - extents.x_bearing - align_x * extents.width,
                y - extents.y_bearing - align_y * extents.height);
  cairo_show_text(cr, text.c_str());
}

void marker(cairo_t* cr, int kind, double x, double y, double size) {
  switch (kind) {
  case 0:
    cairo_arc(cr, x, y, size, 0, 2 * std::numbers::pi);
    break;
  case 1:
    cairo_rectangle(cr, x - size, y - size, 2 * size, 2 * size);
    break;
  case 2:
    cairo_move_to(cr, x, y - 1.25 * size);
    cairo_line_to(cr, x + 1.15 * size, y + 0.85 * size);
    cairo_line_to(cr, x - 1.15 * size, y + 0.85 * size);
    cairo_close_path(cr);
    break;
  default:
    cairo_move_to(cr, x, y - 1.3 * size);
    cairo_line_to(cr, x + 1.3 * size, y);
    cairo_line_to(cr, x, y + 1.3 * size);
    cairo_line_to(cr, x - 1.3 * size, y);
    cairo_close_path(cr);
    break;
  }
}

std::vector<Series> collect(const std::vector<BenchRun>& runs) {
  std::vector<Series> series;
  for (const BenchRun& run : runs) {
    auto it = std::find_if(series.begin(), series.end(),
                           [&](const Series& s) { return s.backend == run.backend; });
    if (it == series.end()) {
      series.push_back({run.backend, {}, {}});
      it = series.end() - 1;
    }
    if (run.status == BenchRun::Status::Ran && run.step_ms_mean > 0.0 &&
        std::isfinite(run.step_ms_mean)) {
      it->points.emplace_back(run.agents, run.step_ms_mean);
    } else {
      it->not_run.push_back(thousands(run.agents));
    }
  }
  for (Series& s : series)
    std::sort(s.points.begin(), s.points.end());
  return series;
}

void draw(cairo_t* cr, const std::vector<Series>& series, const std::string& subtitle) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  double min_x = INFINITY, max_x = -INFINITY, min_y = INFINITY, max_y = -INFINITY;
  for (const Series& s : series) {
    for (const auto& [x, y] : s.points) {
      min_x = std::min(min_x, x), max_x = std::max(max_x, x);
      min_y = std::min(min_y, y), max_y = std::max(max_y, y);
    }
  }
  if (!std::isfinite(min_x)) { // Nothing ran: empty axes.
    min_x = 1000, max_x = 100000, min_y = 1, max_y = 100;
  }
  Axes axes{};
  axes.x_lo = static_cast<int>(std::floor(std::log10(min_x)));
  axes.x_hi = std::max(axes.x_lo + 1, static_cast<int>(std::ceil(std::log10(max_x))));
  axes.y_lo = static_cast<int>(std::floor(std::log10(min_y)));
  axes.y_hi = std::max(axes.y_lo + 1, static_cast<int>(std::ceil(std::log10(max_y))));
  axes.x0 = kLeft, axes.x1 = kWidth - kRight, axes.y0 = kTop, axes.y1 = kHeight - kBottom;

  // Title.
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_set_font_size(cr, 20);
  text_at(cr, "crowd bench: time per step against agent count", kWidth / 2.0, 18, 0.5, 0.0);
  cairo_set_font_size(cr, 13);
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  text_at(cr, subtitle, kWidth / 2.0, 48, 0.5, 0.0);

  // Grid: decades solid, 2..9 faint.
  cairo_set_line_width(cr, 1.0);
  for (int e = axes.x_lo; e <= axes.x_hi; ++e) {
    for (int k = 1; k <= 9; ++k) {
      const double v = k * std::pow(10.0, e);
      if (std::log10(v) > axes.x_hi + 1e-9)
        break;
      const double x = std::round(axes.px(v)) + 0.5;
      cairo_set_source_rgb(cr, k == 1 ? 0.8 : 0.93, k == 1 ? 0.8 : 0.93, k == 1 ? 0.8 : 0.93);
      cairo_move_to(cr, x, axes.y0);
      cairo_line_to(cr, x, axes.y1);
      cairo_stroke(cr);
    }
  }
  for (int e = axes.y_lo; e <= axes.y_hi; ++e) {
    for (int k = 1; k <= 9; ++k) {
      const double v = k * std::pow(10.0, e);
      if (std::log10(v) > axes.y_hi + 1e-9)
        break;
      const double y = std::round(axes.py(v)) + 0.5;
      cairo_set_source_rgb(cr, k == 1 ? 0.8 : 0.93, k == 1 ? 0.8 : 0.93, k == 1 ? 0.8 : 0.93);
      cairo_move_to(cr, axes.x0, y);
      cairo_line_to(cr, axes.x1, y);
      cairo_stroke(cr);
    }
  }

  // Frame, ticks and labels.
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_rectangle(cr, axes.x0 + 0.5, axes.y0 + 0.5, axes.x1 - axes.x0, axes.y1 - axes.y0);
  cairo_stroke(cr);
  cairo_set_font_size(cr, 13);
  for (int e = axes.x_lo; e <= axes.x_hi; ++e) {
    const double x = std::round(axes.px(std::pow(10.0, e))) + 0.5;
    cairo_move_to(cr, x, axes.y1);
    cairo_line_to(cr, x, axes.y1 + 6);
    cairo_stroke(cr);
    text_at(cr, decade_label(e, true), x, axes.y1 + 10, 0.5, 0.0);
  }
  for (int e = axes.y_lo; e <= axes.y_hi; ++e) {
    const double y = std::round(axes.py(std::pow(10.0, e))) + 0.5;
    cairo_move_to(cr, axes.x0 - 6, y);
    cairo_line_to(cr, axes.x0, y);
    cairo_stroke(cr);
    text_at(cr, decade_label(e, false), axes.x0 - 10, y, 1.0, 0.5);
  }
  cairo_set_font_size(cr, 15);
  text_at(cr, "agents", (axes.x0 + axes.x1) / 2, kHeight - 30, 0.5, 0.0);
  cairo_save(cr);
  cairo_translate(cr, 22, (axes.y0 + axes.y1) / 2);
  cairo_rotate(cr, -std::numbers::pi / 2);
  text_at(cr, "ms per step", 0, 0, 0.5, 0.0);
  cairo_restore(cr);

  // Lines, clipped to the plot box.
  cairo_save(cr);
  cairo_rectangle(cr, axes.x0, axes.y0, axes.x1 - axes.x0, axes.y1 - axes.y0);
  cairo_clip(cr);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const Style style = style_for(s.backend, i);
    cairo_set_source_rgb(cr, style.colour.r, style.colour.g, style.colour.b);
    cairo_set_line_width(cr, 2.5);
    for (std::size_t p = 0; p < s.points.size(); ++p) {
      const double x = axes.px(s.points[p].first), y = axes.py(s.points[p].second);
      if (p == 0)
        cairo_move_to(cr, x, y);
      else
        cairo_line_to(cr, x, y);
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
  // Markers unclipped: a point on a decade at the edge of the box stays whole.
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Style style = style_for(series[i].backend, i);
    cairo_set_source_rgb(cr, style.colour.r, style.colour.g, style.colour.b);
    for (const auto& [agents, ms] : series[i].points) {
      marker(cr, style.marker, axes.px(agents), axes.py(ms), 5.5);
      cairo_fill(cr);
    }
  }

  // Legend, top left inside the box.
  cairo_set_font_size(cr, 14);
  std::vector<std::string> labels;
  double widest = 0;
  for (const Series& s : series) {
    std::string label = s.backend;
    if (s.points.empty()) {
      label += "  (not run)";
    } else if (!s.not_run.empty()) {
      label += "  (not run at ";
      for (std::size_t k = 0; k < s.not_run.size(); ++k)
        label += (k ? ", " : "") + s.not_run[k];
      label += ")";
    }
    cairo_text_extents_t extents;
    cairo_text_extents(cr, label.c_str(), &extents);
    widest = std::max(widest, extents.x_advance);
    labels.push_back(std::move(label));
  }
  const double row = 24, lx = axes.x0 + 14, ly = axes.y0 + 14;
  const double box_w = 56 + widest + 12, box_h = row * static_cast<double>(series.size()) + 10;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
  cairo_rectangle(cr, lx, ly, box_w, box_h);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Style style = style_for(series[i].backend, i);
    const double y = ly + 5 + row * (static_cast<double>(i) + 0.5);
    cairo_set_source_rgb(cr, style.colour.r, style.colour.g, style.colour.b);
    cairo_set_line_width(cr, 2.5);
    cairo_move_to(cr, lx + 10, y);
    cairo_line_to(cr, lx + 46, y);
    cairo_stroke(cr);
    marker(cr, style.marker, lx + 28, y, 5.0);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    text_at(cr, labels[i], lx + 56, y, 0.0, 0.5);
  }
}

struct SurfaceDeleter {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

} // namespace

void write_bench_plot(const std::vector<BenchRun>& runs, const std::filesystem::path& png,
                      const std::string& subtitle) {
  std::unique_ptr<cairo_surface_t, SurfaceDeleter> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, kWidth, kHeight));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(png.string() + ": cannot create the image: " +
                             cairo_status_to_string(cairo_surface_status(surface.get())));
  {
    std::unique_ptr<cairo_t, ContextDeleter> cr(cairo_create(surface.get()));
    draw(cr.get(), collect(runs), subtitle);
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error(
          png.string() + ": drawing failed: " + cairo_status_to_string(cairo_status(cr.get())));
  }
  cairo_surface_flush(surface.get());
  const std::filesystem::path temp = temporary_path_for(png);
  const cairo_status_t status = cairo_surface_write_to_png(surface.get(), temp.c_str());
  if (status != CAIRO_STATUS_SUCCESS) {
    std::remove(temp.c_str());
    throw std::runtime_error(png.string() + ": cannot write: " + cairo_status_to_string(status));
  }
  std::error_code error;
  std::filesystem::rename(temp, png, error);
  if (error) {
    std::remove(temp.c_str());
    throw std::runtime_error(png.string() + ": cannot rename into place: " + error.message());
  }
}

} // namespace crowd

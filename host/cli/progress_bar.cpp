#include "host/cli/progress_bar.h"

#include <algorithm>
#include <unistd.h>

namespace crowd {

ProgressBar::ProgressBar(std::string label, int total, std::FILE* out)
    : label_(std::move(label)), total_(std::max(total, 1)), out_(out),
      terminal_(::isatty(::fileno(out)) != 0), start_(Clock::now()), last_draw_(start_) {}

void ProgressBar::update(int done) {
  const Clock::time_point now = Clock::now();
  const int decile = done * 10 / total_;
  if (terminal_) {
    if (done < total_ && now - last_draw_ < std::chrono::milliseconds(100))
      return;
  } else if (decile == last_decile_) {
    return;
  }
  last_draw_ = now;
  last_decile_ = decile;
  print(done);
}

void ProgressBar::print(int done) {
  constexpr int kWidth = 30;
  const double fraction = std::clamp(static_cast<double>(done) / total_, 0.0, 1.0);
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kWidth - filled), '.');
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double left = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(out_, "%s%s [%s] %3.0f%% %d/%d, %.0f s left%s", terminal_ ? "\r" : "",
               label_.c_str(), bar.c_str(), fraction * 100.0, done, total_, left,
               terminal_ ? "  " : "\n");
  std::fflush(out_);
}

void ProgressBar::finish() {
  if (terminal_) {
    print(total_);
    std::fputc('\n', out_);
  } else if (last_decile_ < 10) {
    print(total_);
  }
}

} // namespace crowd

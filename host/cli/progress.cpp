#include "host/cli/progress.h"

#include <unistd.h>

namespace crowd {

ProgressReporter::ProgressReporter(int total_steps, std::FILE* out, double quiet_seconds,
                                   bool silent)
    : total_(total_steps), out_(out), quiet_seconds_(quiet_seconds), silent_(silent),
      terminal_(::isatty(::fileno(out)) != 0), start_(Clock::now()), last_print_(start_) {}

void ProgressReporter::update(int steps_done, double last_step_ms) {
  if (silent_)
    return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < quiet_seconds_ || std::chrono::duration<double>(now - last_print_).count() < 1.0)
    return;
  last_print_ = now;
  shown_ = true;
  const double fraction = total_ > 0 ? static_cast<double>(steps_done) / total_ : 1.0;
  const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(out_, "%sstep %d/%d (%3.0f%%), %.2f ms/step, %.0f s left%s", terminal_ ? "\r" : "",
               steps_done, total_, fraction * 100.0, last_step_ms, eta, terminal_ ? "   " : "\n");
  std::fflush(out_);
}

void ProgressReporter::finish() {
  if (shown_ && terminal_)
    std::fputc('\n', out_);
  shown_ = false;
}

} // namespace crowd

// SIGINT / SIGTERM during `crowd run`: stop at the next step boundary and keep the outputs.
#pragma once

namespace crowd {

/// While alive, SIGINT and SIGTERM only record which signal came (the handler sets a
/// volatile sig_atomic_t, the one thing a handler may do async-signal-safely) and restore
/// the default action (SA_RESETHAND), so a second signal still kills at once. The destructor
/// puts back the previous handlers.
class InterruptSignals {
public:
  InterruptSignals();
  ~InterruptSignals();
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;

  /// The signal number received first, or 0.
  int received() const;
};

/// "SIGINT", "SIGTERM" or "signal N".
const char* signal_name(int signal_number);

} // namespace crowd

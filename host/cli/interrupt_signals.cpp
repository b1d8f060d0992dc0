#include "host/cli/interrupt_signals.h"

#include <csignal>

namespace crowd {
namespace {

volatile std::sig_atomic_t g_received = 0;
struct sigaction g_previous_int, g_previous_term;

void record_signal(int signal_number) {
  if (g_received == 0)
    g_received = signal_number;
}

} // namespace

InterruptSignals::InterruptSignals() {
  g_received = 0;
  struct sigaction action = {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptSignals::~InterruptSignals() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

int InterruptSignals::received() const {
  return g_received;
}

const char* signal_name(int signal_number) {
  switch (signal_number) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  default:
    return "a signal";
  }
}

} // namespace crowd

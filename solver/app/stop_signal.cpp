#include "stop_signal.hpp"

#include <csignal>

namespace eipc::cli {
namespace {

volatile std::sig_atomic_t received = 0;
extern "C" void on_stop_signal(int sig) { received = sig; }

}  // namespace

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return received; }

}  // namespace eipc::cli

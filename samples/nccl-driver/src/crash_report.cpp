#include "crash_report.hpp"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace npkit::driver {
namespace {

char g_prefix[64];

void write_text(const char* text) {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void on_crash(int signal_number) {
  write_text(g_prefix);
  write_text(strsignal(signal_number));
  write_text("; stack:\n");
  void* frames[64];
  const int count = backtrace(frames, 64);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
  ::signal(signal_number, SIG_DFL);
  raise(signal_number);
}

}  // namespace

void report_crashes(int rank) {
  std::snprintf(g_prefix, sizeof g_prefix, "npkit-nccl-driver: rank %d: ", rank);
  void* warm_up[1];
  backtrace(warm_up, 1);
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE}) {
    struct sigaction action {};
    action.sa_handler = on_crash;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace npkit::driver

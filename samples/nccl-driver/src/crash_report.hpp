// crash_report.hpp — a rank process that crashes says where: the library and offset of each frame.
//
// Contract: report_crashes() installs, once per process, a handler for SIGSEGV, SIGBUS, SIGILL
// and SIGFPE that writes "npkit-nccl-driver: rank R: <signal>; stack:" and one line per frame
// (backtrace_symbols_fd: "library(symbol+offset) [address]") to stderr, then restores the
// default action and raises the signal again, so the process still ends by it (the parent
// reports the signal as before). Only async-signal-safe calls run in the handler, after
// backtrace() was called once outside it (it loads libgcc on first use).
#pragma once

namespace npkit::driver {

void report_crashes(int rank);

}  // namespace npkit::driver

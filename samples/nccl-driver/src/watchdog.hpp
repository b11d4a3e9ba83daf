// watchdog.hpp — --watchdog-s: a thread per rank that aborts the communicator when a call does not
// complete in time, as a framework's watchdog does.
//
// Contract:
// - arm(call) says a call returned and its completion (the next stream synchronize) is pending;
//   of several pending calls the earliest counts. disarm() says the synchronize returned.
// - When a call stays pending `seconds` after it was armed, the thread writes the event lines
//   "watchdog_fired", "comm_abort_called" and "comm_abort_returned" (through `event`), prints why
//   on stderr, calls ncclCommAbort(comm) (NCCL finalizes the communicator, so a profiler plugin
//   writes its dump) and ends the process with _exit(kExitWatchdogAbort). aborting() is true from
//   the moment it decides to abort: the rank's main thread, whose synchronize returns once the
//   abort ended the kernel, must then call wait_for_exit() and never touch the communicator again
//   (a call on a communicator being aborted crashes inside NCCL).
// - The destructor stops and joins the thread; destroy the Watchdog before ncclCommDestroy.
#pragma once

#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace npkit::driver {

class Watchdog {
 public:
  Watchdog(int seconds, int rank, ncclComm_t comm, std::function<void(const std::string&)> event);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(long long call);
  void disarm();
  bool aborting() const { return aborting_.load(std::memory_order_acquire); }
  // Sleeps until the process ends (the watchdog thread's _exit).
  [[noreturn]] static void wait_for_exit();

 private:
  void watch();
  [[noreturn]] void fire(long long call, double waited_s);

  const int seconds_;
  const int rank_;
  const ncclComm_t comm_;
  const std::function<void(const std::string&)> event_;
  std::atomic<std::int64_t> armed_ns_{0};  // steady clock; 0 = nothing pending
  std::atomic<long long> armed_call_{-1};
  std::atomic<bool> stop_{false};
  std::atomic<bool> aborting_{false};
  std::thread thread_;
};

}  // namespace npkit::driver

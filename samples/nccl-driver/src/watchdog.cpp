#include "watchdog.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "rank_processes.hpp"

namespace npkit::driver {
namespace {

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

constexpr auto kPollInterval = std::chrono::milliseconds(50);

}  // namespace

Watchdog::Watchdog(int seconds, int rank, ncclComm_t comm,
                   std::function<void(const std::string&)> event)
    : seconds_(seconds), rank_(rank), comm_(comm), event_(std::move(event)) {
  thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  stop_.store(true, std::memory_order_release);
  thread_.join();
}

void Watchdog::arm(long long call) {
  if (armed_ns_.load(std::memory_order_acquire) != 0) return;
  armed_call_.store(call, std::memory_order_relaxed);
  armed_ns_.store(steady_ns(), std::memory_order_release);
}

void Watchdog::disarm() {
  armed_ns_.store(0, std::memory_order_release);
}

void Watchdog::watch() {
  const std::int64_t limit_ns = static_cast<std::int64_t>(seconds_) * 1000000000;
  while (!stop_.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(kPollInterval);
    const std::int64_t armed = armed_ns_.load(std::memory_order_acquire);
    if (armed == 0) continue;
    const std::int64_t waited = steady_ns() - armed;
    if (waited >= limit_ns) fire(armed_call_.load(std::memory_order_relaxed), waited / 1e9);
  }
}

void Watchdog::wait_for_exit() {
  for (;;) pause();
}

void Watchdog::fire(long long call, double waited_s) {
  aborting_.store(true, std::memory_order_release);
  char text[160];
  std::snprintf(text, sizeof text, "watchdog_fired call=%lld waited_s=%.3f limit_s=%d", call,
                waited_s, seconds_);
  event_(text);
  std::fprintf(stderr,
               "npkit-nccl-driver: rank %d: watchdog: call %lld has not completed %.1f s after it "
               "returned; calling ncclCommAbort\n",
               rank_, call, waited_s);
  event_("comm_abort_called");
  const auto start = std::chrono::steady_clock::now();
  const ncclResult_t result = ncclCommAbort(comm_);
  const double took_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::snprintf(text, sizeof text, "comm_abort_returned result=%s took_ms=%.1f",
                ncclGetErrorString(result), took_ms);
  event_(text);
  std::snprintf(text, sizeof text, "exit status=%d (watchdog abort)", kExitWatchdogAbort);
  event_(text);
  std::fprintf(stderr, "npkit-nccl-driver: rank %d: ncclCommAbort returned %s after %.1f ms\n",
               rank_, ncclGetErrorString(result), took_ms);
  std::fflush(nullptr);
  _exit(kExitWatchdogAbort);
}

}  // namespace npkit::driver

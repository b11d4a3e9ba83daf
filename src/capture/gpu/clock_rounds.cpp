#include "gpu/clock_rounds.hpp"

#include <time.h>

namespace npkit::capture {
namespace {

// Spin iterations between two looks at the deadline (keeps the polling loop tight).
constexpr int kSpinsPerDeadlineCheck = 256;

int64_t realtime_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

bool run_clock_rounds(volatile ClockProbeBlock* block, std::chrono::milliseconds wait,
                      format::ClockSample* best, std::string* why_not) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  int64_t best_width = -1;
  for (uint32_t round = 1; round <= kClockProbeRounds; ++round) {
    const int64_t before = realtime_ns();
    __atomic_store_n(&block->go, round, __ATOMIC_RELEASE);
    for (int spins = 1; __atomic_load_n(&block->ack, __ATOMIC_ACQUIRE) != round; ++spins) {
      if (spins % kSpinsPerDeadlineCheck == 0 && std::chrono::steady_clock::now() > deadline) {
        __atomic_store_n(&block->go, kClockProbeAbort, __ATOMIC_RELEASE);
        *why_not = "GPU clock probe kernel did not answer round " + std::to_string(round) + " of " +
                   std::to_string(kClockProbeRounds) + " within " + std::to_string(wait.count()) +
                   " ms";
        return false;
      }
    }
    const int64_t after = realtime_ns();
    const uint64_t gpu_ns = __atomic_load_n(&block->gpu_ns[round - 1], __ATOMIC_RELAXED);
    if (best_width < 0 || after - before < best_width) {
      best_width = after - before;
      best->host_before_ns = before;
      best->host_after_ns = after;
      best->gpu_ns = gpu_ns;
    }
  }
  return true;
}

}  // namespace npkit::capture

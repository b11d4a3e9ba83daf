// The host side of the clock probe protocol, driven by a host thread that plays the kernel: it
// follows the PTX kernel's steps (poll go, stamp, store the stamp, then ack) with CLOCK_REALTIME
// as its "GPU" clock, so every stamp must fall inside the host's bracket of its round.
#include "gpu/clock_rounds.hpp"

#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

namespace {

using npkit::capture::ClockProbeBlock;
using npkit::capture::kClockProbeAbort;
using npkit::capture::kClockProbeRounds;
using std::chrono::milliseconds;

uint64_t realtime_ns() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return uint64_t(now.tv_sec) * 1'000'000'000u + uint64_t(now.tv_nsec);
}

struct KernelPlay {
  uint32_t answered = kClockProbeRounds;  // rounds it answers before going silent
  uint32_t slow_rounds[2] = {0, 0};       // rounds it answers only after `delay`
  milliseconds delay{0};
  bool saw_abort = false;
};

bool is_slow(const KernelPlay& play, uint32_t round) {
  return round == play.slow_rounds[0] || round == play.slow_rounds[1];
}

// Answers rounds like the kernel; returns after the last round it answers, or on abort.
void play_kernel(volatile ClockProbeBlock* block, KernelPlay* play) {
  for (uint32_t round = 1; round <= kClockProbeRounds; ++round) {
    uint32_t go;
    while ((go = __atomic_load_n(&block->go, __ATOMIC_ACQUIRE)) != round) {
      if (go == kClockProbeAbort) {
        play->saw_abort = true;
        return;
      }
      std::this_thread::yield();  // the host spins too: leave it a core on a small machine
    }
    if (round > play->answered) continue;  // silent: wait for the abort
    if (is_slow(*play, round)) std::this_thread::sleep_for(play->delay);
    __atomic_store_n(&block->gpu_ns[round - 1], realtime_ns(), __ATOMIC_RELAXED);
    __atomic_store_n(&block->ack, round, __ATOMIC_RELEASE);
  }
}

}  // namespace

TEST_CASE("clock rounds: a narrow round is kept and its stamp lies in its bracket", "[gpu]") {
  ClockProbeBlock block{};
  // The first and the last round are 50 ms wide at least; the others are as fast as two threads
  // trading a flag (far below 50 ms even on a loaded machine). The wait is generous for the same
  // reason: this case checks the choice, not the deadline.
  KernelPlay play;
  play.slow_rounds[0] = 1;
  play.slow_rounds[1] = kClockProbeRounds;
  play.delay = milliseconds(50);
  std::thread kernel(play_kernel, &block, &play);
  npkit::format::ClockSample best{};
  best.when = npkit::format::kSampleAtEnd;
  std::string why_not;
  const bool ok = npkit::capture::run_clock_rounds(&block, milliseconds(20'000), &best, &why_not);
  kernel.join();
  INFO(why_not);
  REQUIRE(ok);
  CHECK_FALSE(play.saw_abort);
  CHECK(block.go == kClockProbeRounds);
  CHECK(block.ack == kClockProbeRounds);
  CHECK(best.gpu_ns != block.gpu_ns[0]);
  CHECK(best.gpu_ns != block.gpu_ns[kClockProbeRounds - 1]);
  CHECK(best.host_after_ns - best.host_before_ns < 50'000'000);
  CHECK(int64_t(best.gpu_ns) >= best.host_before_ns);
  CHECK(int64_t(best.gpu_ns) <= best.host_after_ns);
  CHECK(best.when == npkit::format::kSampleAtEnd);
}

TEST_CASE("clock rounds: an unanswered round gives up after the wait and aborts the kernel",
          "[gpu]") {
  ClockProbeBlock block{};
  KernelPlay play;
  play.answered = 3;
  std::thread kernel(play_kernel, &block, &play);
  npkit::format::ClockSample best{};
  std::string why_not;
  const milliseconds wait{300};
  const auto start = std::chrono::steady_clock::now();
  const bool ok = npkit::capture::run_clock_rounds(&block, wait, &best, &why_not);
  const auto waited = std::chrono::steady_clock::now() - start;
  kernel.join();
  CHECK_FALSE(ok);
  CHECK(why_not == "GPU clock probe kernel did not answer round 4 of 16 within 300 ms");
  CHECK(play.saw_abort);
  CHECK(block.go == kClockProbeAbort);
  CHECK(block.ack == 3);
  CHECK(waited >= wait);
  CHECK(waited < wait + milliseconds(150));
}

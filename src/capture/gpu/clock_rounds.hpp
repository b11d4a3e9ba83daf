// gpu/clock_rounds.hpp — the host side of the clock probe's protocol (clock_probe_kernel.hpp):
// the rounds the host runs against a launched probe kernel through the shared block.
//
// Contract:
// - run_clock_rounds runs rounds 1..kClockProbeRounds: reads CLOCK_REALTIME, stores the round in
//   block->go, spins until block->ack equals it, reads CLOCK_REALTIME again, and keeps the round
//   whose bracket [before, after] is narrowest (the first of equals) in *best (gpu_ns, host
//   before/after; `when` is left as it was).
// - Waits at most `wait` from its start (the sampler passes kClockRoundsWait); on expiry stores
//   kClockProbeAbort in block->go (the kernel exits on it) and returns false, naming the round
//   that went unanswered.
// - Touches the block only through atomic (acquire/release) volatile accesses.
#pragma once

#include <chrono>
#include <string>

#include "gpu/clock_probe_kernel.hpp"
#include "npkit/format.hpp"

namespace npkit::capture {

inline constexpr std::chrono::milliseconds kClockRoundsWait{200};

bool run_clock_rounds(volatile ClockProbeBlock* block, std::chrono::milliseconds wait,
                      format::ClockSample* best, std::string* why_not);

}  // namespace npkit::capture

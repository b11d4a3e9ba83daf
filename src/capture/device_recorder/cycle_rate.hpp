// device_recorder/cycle_rate.hpp — the measured clock64 rate of the GPU of the current context,
// for event streams recorded with NPKIT_CLOCK_CYCLES (never the nominal peak clock).
//
// Contract:
// - measure_cycle_rate() runs the kernel of cycle_rate_kernel.hpp once on a private non-blocking
//   stream of the calling thread's current context (reached through the driver library, like
//   gpu/gpu_clock.hpp) and waits for it: about `window_ns` plus a module load. On success
//   *cycles_per_second = (cycles_end - cycles_start) / ((gpu_ns_end - gpu_ns_start) / 1e9),
//   rounded down; on failure false and *why_not says why (no driver, no context, a CUDA error, a
//   counter that did not advance). Everything it creates is released before it returns.
// - cycles_per_second_from() is that arithmetic alone; 0 when either counter did not advance.
#pragma once

#include <cstdint>
#include <string>

#include "device_recorder/cycle_rate_kernel.hpp"

namespace npkit::capture {

uint64_t cycles_per_second_from(const CycleRateBlock& block);

bool measure_cycle_rate(uint64_t window_ns, uint64_t* cycles_per_second, std::string* why_not);

}  // namespace npkit::capture

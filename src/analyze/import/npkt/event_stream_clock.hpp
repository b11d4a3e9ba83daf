// import/npkt/event_stream_clock.hpp — the timestamps of one .npkt event stream in nanoseconds.
// Contract, by the stream's StreamClock:
// - kStreamClockHost: the host clock's ns as they are (TimeDomain::kHost).
// - kStreamClockGlobalTimer: GPU %globaltimer ns converted to host ns with the file's clock fit
//   (HostGpuClock::to_host_ns, exactly as KernelCh timestamps) when the fit is usable
//   (TimeDomain::kHost); else the timer's own ns (TimeDomain::kGpuCounter).
// - kStreamClockCycles: clock64 cycles × 1e9 / cycles_per_second, rounded down, in integer
//   arithmetic: durations at the measured rate, on the cycle counter's own time base
//   (TimeDomain::kGpuCounter). The format records no (clock64, %globaltimer) pair, so cycle
//   times cannot be placed on the host clock. A rate of 0 leaves the stream unusable.
// Values beyond the int64 range saturate.
#pragma once

#include <cstdint>
#include <string>

#include "import/npkt/host_gpu_clock.hpp"
#include "npkit/format.hpp"
#include "run/span_sink.hpp"

namespace npkit {

struct EventStreamClock {
  std::uint32_t clock = format::kStreamClockHost;  // StreamClock
  TimeDomain domain = TimeDomain::kHost;
  bool usable = true;
  std::uint64_t cycles_per_second = 0;
  const HostGpuClock* gpu = nullptr;  // kStreamClockGlobalTimer with a usable fit

  std::int64_t to_ns(std::uint64_t raw) const;
  // "host clock", "GPU timer on the host clock (clock samples (offset))", "GPU timer, not on
  // the host clock", "clock64 at 1410000000 cycles/s, not on the host clock", "clock64 without
  // a measured rate".
  std::string describe() const;
};

// `gpu` must outlive the result.
EventStreamClock event_stream_clock(const format::StreamInfo& stream, const HostGpuClock& gpu);

}  // namespace npkit

// recorder/host_clock.hpp — the one host clock of every record: CLOCK_REALTIME in nanoseconds
// since the UNIX epoch (format::kHostClockRealtime), the clock GPU %globaltimer is calibrated
// against.
//
// Contract: callable from any thread at any time; clock_gettime(CLOCK_REALTIME) is served by the
// vDSO, so it costs no system call on the event path.
#pragma once

#include <time.h>

#include <cstdint>

namespace npkit::capture {

inline int64_t host_now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace npkit::capture

// host_clock.hpp — the host clock the plugin stamps records with (CLOCK_REALTIME ns, format v1
// HostClock 1) and the calling thread's OS id, for bracketing plugin calls in tests.
#pragma once

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

namespace npkit::test {

inline int64_t realtime_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline int32_t current_tid() {
  return static_cast<int32_t>(::syscall(SYS_gettid));
}

}  // namespace npkit::test

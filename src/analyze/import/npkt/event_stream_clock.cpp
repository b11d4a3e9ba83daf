#include "import/npkt/event_stream_clock.hpp"

#include <fmt/format.h>

#include <limits>

namespace npkit {
namespace {

std::int64_t saturate(unsigned __int128 v) {
  constexpr auto kMax = static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max());
  return v > kMax ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(v);
}

}  // namespace

std::int64_t EventStreamClock::to_ns(std::uint64_t raw) const {
  switch (clock) {
    case format::kStreamClockGlobalTimer:
      return gpu != nullptr ? gpu->to_host_ns(raw) : saturate(raw);
    case format::kStreamClockCycles:
      if (cycles_per_second == 0) return 0;
      return saturate(static_cast<unsigned __int128>(raw) * 1000000000u / cycles_per_second);
    default:
      return saturate(raw);
  }
}

std::string EventStreamClock::describe() const {
  switch (clock) {
    case format::kStreamClockGlobalTimer:
      return gpu != nullptr ? "GPU timer on the host clock (" + gpu->method_name() + ")"
                            : "GPU timer, not on the host clock";
    case format::kStreamClockCycles:
      return cycles_per_second == 0
                 ? "clock64 without a measured rate"
                 : fmt::format("clock64 at {} cycles/s, not on the host clock", cycles_per_second);
    default:
      return "host clock";
  }
}

EventStreamClock event_stream_clock(const format::StreamInfo& stream, const HostGpuClock& gpu) {
  EventStreamClock c;
  c.clock = stream.clock;
  switch (stream.clock) {
    case format::kStreamClockGlobalTimer:
      if (gpu.usable()) {
        c.gpu = &gpu;
      } else {
        c.domain = TimeDomain::kGpuCounter;
      }
      break;
    case format::kStreamClockCycles:
      c.domain = TimeDomain::kGpuCounter;
      c.cycles_per_second = stream.cycles_per_second;
      c.usable = stream.cycles_per_second != 0;
      break;
    default:
      break;
  }
  return c;
}

}  // namespace npkit

// import/npkt/host_gpu_clock.hpp — GPU %globaltimer ns to host clock ns (CLOCK_REALTIME) for one
// .npkt dump. Contract (offset = GPU time − host time, as in the format's ClockSample):
// - Clock samples: per `when` (init, end) the sample with the narrowest host bracket is used; its
//   offset is gpu_ns − (host_before_ns + host_after_ns) / 2. One such sample: offset only. Two
//   (init and end, at different GPU times): offset and drift, linear in GPU time. Uncertainty =
//   the larger half bracket of the samples used, plus the largest distance of any other valid
//   sample from the fit beyond its own half bracket. Samples with host_after < host_before are
//   invalid: counted, not used.
// - No valid sample: the offset is estimated from the KernelCh events. The proxy thread notices a
//   kernel start after it happened, so host_start − gpu_start ≥ −offset for every observation and
//   the largest gpu_start − host_start is the estimate (converted times are upper bounds, late by
//   at most the smallest polling lag); uncertainty is unknown.
// - Neither: unavailable, and GPU times cannot be placed on the host clock.
// - to_host_ns rounds to the nearest ns and saturates to the int64 range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_events.hpp"

namespace npkit {

enum class ClockFitMethod { kUnavailable, kSampleOffset, kSampleOffsetDrift, kKernelChEstimate };

struct HostGpuClock {
  ClockFitMethod method = ClockFitMethod::kUnavailable;
  std::uint64_t reference_gpu_ns = 0;  // GPU time at which offset_ns holds
  double offset_ns = 0;                // GPU − host at reference_gpu_ns
  double drift = 0;                    // change of the offset per ns of GPU time
  std::optional<double> uncertainty_ns;
  std::uint64_t observations = 0;     // samples used, or KernelCh starts seen
  std::uint64_t invalid_samples = 0;  // host_after < host_before

  bool usable() const { return method != ClockFitMethod::kUnavailable; }
  double offset_at(std::uint64_t gpu_ns) const;
  std::int64_t to_host_ns(std::uint64_t gpu_ns) const;
  // "clock samples (offset)", "clock samples (offset and drift)", "KernelCh estimate", "none".
  std::string method_name() const;
  // One line for people, e.g. "estimated from 12 KernelCh observations (upper bound, proxy
  // polling lag)".
  std::string describe() const;
};

HostGpuClock fit_host_gpu_clock(const NpktDump& dump, const ProfilerEvents& events);

}  // namespace npkit

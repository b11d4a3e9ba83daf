#include "import/npkt/host_gpu_clock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace npkit {
namespace {

double sample_offset(const format::ClockSample& s) {
  const __int128 twice = static_cast<__int128>(s.gpu_ns) * 2 - s.host_before_ns - s.host_after_ns;
  return static_cast<double>(twice) / 2.0;
}

double half_bracket(const format::ClockSample& s) {
  return static_cast<double>(static_cast<__int128>(s.host_after_ns) - s.host_before_ns) / 2.0;
}

void fit_samples(const std::vector<format::ClockSample>& valid, HostGpuClock& clock) {
  // The narrowest bracket of each `when`, in `when` order.
  std::map<std::uint32_t, format::ClockSample> best;
  for (const auto& s : valid) {
    auto [it, inserted] = best.emplace(s.when, s);
    if (!inserted && half_bracket(s) < half_bracket(it->second)) it->second = s;
  }
  const format::ClockSample& first = best.begin()->second;
  const format::ClockSample& last = best.rbegin()->second;
  clock.reference_gpu_ns = first.gpu_ns;
  clock.offset_ns = sample_offset(first);
  double uncertainty = half_bracket(first);
  if (best.size() > 1 && last.gpu_ns != first.gpu_ns) {
    clock.method = ClockFitMethod::kSampleOffsetDrift;
    clock.drift = (sample_offset(last) - clock.offset_ns) /
                  static_cast<double>(static_cast<__int128>(last.gpu_ns) - first.gpu_ns);
    clock.observations = 2;
    uncertainty = std::max(uncertainty, half_bracket(last));
  } else {
    clock.method = ClockFitMethod::kSampleOffset;
    clock.observations = 1;
    if (best.size() > 1 && half_bracket(last) < uncertainty) {
      clock.offset_ns = sample_offset(last);
      uncertainty = half_bracket(last);
    }
  }
  double residual = 0;
  for (const auto& s : valid) {
    const double off = std::abs(sample_offset(s) - clock.offset_at(s.gpu_ns));
    residual = std::max(residual, off - half_bracket(s));
  }
  clock.uncertainty_ns = uncertainty + residual;
}

void estimate_from_kernel_channels(const ProfilerEvents& events, HostGpuClock& clock) {
  bool any = false;
  __int128 best = 0;
  for (std::uint32_t e = 0; e < events.size(); ++e) {
    if (events.type[e] != format::kTypeKernelCh) continue;
    const auto p = events.payload_as<format::KernelChPayload>(e);
    if (p.gpu_start_ns == 0) continue;
    const __int128 d = static_cast<__int128>(p.gpu_start_ns) - events.start_ns[e];
    if (!any || d > best) best = d;
    any = true;
    ++clock.observations;
  }
  if (!any) return;
  clock.method = ClockFitMethod::kKernelChEstimate;
  clock.offset_ns = static_cast<double>(best);
}

}  // namespace

double HostGpuClock::offset_at(std::uint64_t gpu_ns) const {
  if (drift == 0) return offset_ns;
  return offset_ns + drift * static_cast<double>(static_cast<__int128>(gpu_ns) - reference_gpu_ns);
}

std::int64_t HostGpuClock::to_host_ns(std::uint64_t gpu_ns) const {
  const long double host =
      static_cast<long double>(gpu_ns) - static_cast<long double>(offset_at(gpu_ns));
  constexpr long double kMax = static_cast<long double>(std::numeric_limits<std::int64_t>::max());
  constexpr long double kMin = static_cast<long double>(std::numeric_limits<std::int64_t>::min());
  if (!(host < kMax)) return std::numeric_limits<std::int64_t>::max();
  if (!(host > kMin)) return std::numeric_limits<std::int64_t>::min();
  return std::llroundl(host);
}

std::string HostGpuClock::method_name() const {
  switch (method) {
    case ClockFitMethod::kSampleOffset:
      return "clock samples (offset)";
    case ClockFitMethod::kSampleOffsetDrift:
      return "clock samples (offset and drift)";
    case ClockFitMethod::kKernelChEstimate:
      return "KernelCh estimate";
    case ClockFitMethod::kUnavailable:
      break;
  }
  return "none";
}

std::string HostGpuClock::describe() const {
  switch (method) {
    case ClockFitMethod::kSampleOffset:
      return fmt::format("offset from 1 clock sample: GPU - host = {:.3f} us ± {:.3f} us",
                         offset_ns / 1e3, *uncertainty_ns / 1e3);
    case ClockFitMethod::kSampleOffsetDrift:
      return fmt::format(
          "offset and drift from init and end clock samples: GPU - host = {:.3f} us at init, "
          "drift {:+.3f} ppm, ± {:.3f} us",
          offset_ns / 1e3, drift * 1e6, *uncertainty_ns / 1e3);
    case ClockFitMethod::kKernelChEstimate:
      return fmt::format(
          "estimated from {} KernelCh observations (upper bound, proxy polling lag): GPU - host "
          "= {:.3f} us",
          observations, offset_ns / 1e3);
    case ClockFitMethod::kUnavailable:
      break;
  }
  return "no clock samples and no KernelCh events: GPU times cannot be placed on the host clock";
}

HostGpuClock fit_host_gpu_clock(const NpktDump& dump, const ProfilerEvents& events) {
  HostGpuClock clock;
  std::vector<format::ClockSample> valid;
  for (const auto& s : dump.clock_samples) {
    if (s.host_after_ns < s.host_before_ns) {
      ++clock.invalid_samples;
    } else {
      valid.push_back(s);
    }
  }
  if (!valid.empty()) {
    fit_samples(valid, clock);
  } else {
    estimate_from_kernel_channels(events, clock);
  }
  return clock;
}

}  // namespace npkit

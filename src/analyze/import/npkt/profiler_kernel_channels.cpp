#include "import/npkt/profiler_kernel_channels.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "util/saturating.hpp"

namespace npkit {
namespace {

// The host time no GPU start of `owner`'s work can precede (see the contract), or INT64_MIN when
// the KernelCh has no Coll/P2p owner.
std::int64_t api_bound(const ProfilerEvents& ev, std::uint32_t owner) {
  if (owner == kNoEvent) return std::numeric_limits<std::int64_t>::min();
  if (ev.type[owner] != format::kTypeColl && ev.type[owner] != format::kTypeP2p) {
    return std::numeric_limits<std::int64_t>::min();
  }
  const std::uint32_t api = api_ancestor(ev, owner);
  if (api != kNoEvent) return ev.start_ns[api];
  return sat_sub(ev.start_ns[owner], kLaunchAllowanceNs);
}

KernelChVerdict host_checks(const ProfilerEvents& ev, const HostGpuClock& clock,
                            std::int64_t tolerance, std::uint32_t k, std::uint64_t gpu_start) {
  if (!clock.usable()) return KernelChVerdict::kValid;
  const std::int64_t start = clock.to_host_ns(gpu_start);
  const std::int64_t bound = api_bound(ev, ev.parent[k]);
  if (bound != std::numeric_limits<std::int64_t>::min() && start < sat_sub(bound, tolerance)) {
    return KernelChVerdict::kBeforeApi;
  }
  if (start > sat_add(ev.start_ns[k], tolerance)) return KernelChVerdict::kAfterNoticed;
  return KernelChVerdict::kValid;
}

// Marks kOutOfOrder among the events still valid, per channel, scanning backwards.
void check_channel_order(const ProfilerEvents& ev, KernelChannelCheck& check) {
  std::array<std::uint64_t, 256> earliest_later;
  earliest_later.fill(std::numeric_limits<std::uint64_t>::max());
  for (std::uint32_t k = static_cast<std::uint32_t>(ev.size()); k-- > 0;) {
    if (ev.type[k] != format::kTypeKernelCh || check.verdict[k] != KernelChVerdict::kValid) {
      continue;
    }
    const auto p = ev.payload_as<format::KernelChPayload>(k);
    if (p.gpu_start_ns > earliest_later[p.channel]) {
      check.verdict[k] = KernelChVerdict::kOutOfOrder;
      ++check.out_of_order;
    } else {
      earliest_later[p.channel] = p.gpu_start_ns;
    }
  }
}

}  // namespace

bool is_stale(KernelChVerdict v) {
  return v != KernelChVerdict::kValid && v != KernelChVerdict::kOpen;
}

std::string_view stale_reason(KernelChVerdict v) {
  switch (v) {
    case KernelChVerdict::kBeforeApi:
      return "GPU start before its API call";
    case KernelChVerdict::kAfterNoticed:
      return "GPU start after the proxy noticed it";
    case KernelChVerdict::kStopBeforeStart:
      return "GPU stop before GPU start";
    case KernelChVerdict::kOutOfOrder:
      return "GPU start after that of a later work on its channel";
    case KernelChVerdict::kValid:
    case KernelChVerdict::kOpen:
      break;
  }
  return "";
}

std::uint64_t kernel_channel_stop(const ProfilerEvents& ev, std::uint32_t k) {
  std::uint64_t stop = 0;
  for (const auto& m : ev.marks(k)) {
    if (m.state == format::kStateKernelChStop && m.has_args) stop = m.value;
  }
  return stop;
}

KernelChannelCheck check_kernel_channels(const ProfilerEvents& ev, const HostGpuClock& clock) {
  KernelChannelCheck check;
  check.verdict.assign(ev.size(), KernelChVerdict::kValid);
  check.tolerance_ns = clock.uncertainty_ns.value_or(0.0) + kKernelChMarginNs;
  for (std::uint32_t k = 0; k < ev.size(); ++k) {
    if (ev.type[k] != format::kTypeKernelCh) continue;
    ++check.kernel_channels;
    const auto p = ev.payload_as<format::KernelChPayload>(k);
    const std::uint64_t stop = kernel_channel_stop(ev, k);
    KernelChVerdict& v = check.verdict[k];
    if (p.gpu_start_ns == 0 || stop == 0) {
      v = KernelChVerdict::kOpen;
      ++check.open;
      continue;
    }
    v = host_checks(ev, clock, std::llround(check.tolerance_ns), k, p.gpu_start_ns);
    if (v == KernelChVerdict::kValid && stop < p.gpu_start_ns)
      v = KernelChVerdict::kStopBeforeStart;
    if (v == KernelChVerdict::kBeforeApi) ++check.before_api;
    if (v == KernelChVerdict::kAfterNoticed) ++check.after_noticed;
    if (v == KernelChVerdict::kStopBeforeStart) ++check.stop_before_start;
  }
  check_channel_order(ev, check);
  return check;
}

}  // namespace npkit

// import/npkt/profiler_kernel_channels.hpp — which KernelCh events of one .npkt dump carry
// timestamps of their own work item. NCCL writes a channel's GPU timestamps into a 64-entry ring
// indexed by a work counter, and the proxy reads the slot it expects; when host and device counters
// disagree (device work the host does not count, or a proxy more than 64 works behind) the proxy
// reads another work's timestamps (nccl-profiler-api.md 3.6). Such a KernelCh is "stale". Contract
// (tolerance = the clock's uncertainty, 0 when unknown, + kKernelChMarginNs, rounded to whole ns;
// times are compared as integers):
// - kOpen: no GPU start or no stop timestamp (state 22 with args). Not stale; the collective that
//   owns it has no GPU span.
// - kBeforeApi: the converted GPU start is earlier than the owner's API start − tolerance. The
//   owner is the KernelCh's parent (Coll or P2p); its API start is the start of the nearest
//   CollApi, P2pApi or GroupApi ancestor; without one, the owner's host start −
//   kLaunchAllowanceNs (NCCL starts the Coll event after the kernel launch, so the kernel may run
//   first). A KernelCh without a Coll/P2p parent has no lower bound.
// - kAfterNoticed: the converted GPU start is later than the KernelCh start record's host time +
//   tolerance (the proxy cannot notice a start before it happened).
// - kStopBeforeStart: the GPU stop is earlier than the GPU start.
// - kOutOfOrder: on one channel, the proxy starts KernelCh events in the channel's work order, so
//   their GPU starts never decrease; of the events passing every check above, one whose GPU start
//   is later than that of a later event (by event id) on the same channel holds a later work's
//   timestamps. Scanned from the last event backwards, keeping the later events.
// - The two host-clock bounds need a usable clock; without one only kOpen, kStopBeforeStart and
//   kOutOfOrder apply (they compare raw GPU times).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/profiler_events.hpp"

namespace npkit {

inline constexpr double kKernelChMarginNs = 5000.0;
inline constexpr std::int64_t kLaunchAllowanceNs = 1000000;

enum class KernelChVerdict : std::uint8_t {
  kValid,
  kOpen,
  kBeforeApi,
  kAfterNoticed,
  kStopBeforeStart,
  kOutOfOrder,
};

bool is_stale(KernelChVerdict v);
// "before its API call", "after the proxy noticed it", ... ; "" for kValid and kOpen.
std::string_view stale_reason(KernelChVerdict v);

struct KernelChannelCheck {
  std::vector<KernelChVerdict> verdict;  // per event index; kValid for other event types
  double tolerance_ns = 0;
  std::uint64_t kernel_channels = 0;  // KernelCh events
  std::uint64_t open = 0;
  std::uint64_t before_api = 0;
  std::uint64_t after_noticed = 0;
  std::uint64_t stop_before_start = 0;
  std::uint64_t out_of_order = 0;

  std::uint64_t stale() const {
    return before_api + after_noticed + stop_before_start + out_of_order;
  }
};

// The GPU stop timestamp of a KernelCh (the last state 22 with args), 0 when there is none.
std::uint64_t kernel_channel_stop(const ProfilerEvents& events, std::uint32_t kernel_channel);

KernelChannelCheck check_kernel_channels(const ProfilerEvents& events, const HostGpuClock& clock);

}  // namespace npkit

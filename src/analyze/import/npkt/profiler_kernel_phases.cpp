#include "import/npkt/profiler_kernel_phases.hpp"

#include <algorithm>
#include <array>

#include "util/saturating.hpp"

namespace npkit {
namespace {

// One channel's phases, by id: GPU start and stop, 0 when the phase was not counted.
struct ChannelPhases {
  std::array<std::uint64_t, kKernelPhaseCount> start{};
  std::array<std::uint64_t, kKernelPhaseCount> stop{};

  bool has(std::size_t id) const { return stop[id] != 0; }
  bool any() const { return has(0) || has(1) || has(2); }
};

ChannelPhases phases_of(const ProfilerEvents& ev, std::uint32_t kernel_channel) {
  ChannelPhases out;
  for (std::uint32_t p : ev.children_of(kernel_channel)) {
    if (ev.type[p] != format::kTypeKernelPhase) continue;
    const auto payload = ev.payload_as<format::KernelPhasePayload>(p);
    const std::uint64_t stop = kernel_phase_stop(ev, p);
    if (payload.phase_id >= kKernelPhaseCount || stop == 0 || out.has(payload.phase_id)) continue;
    out.start[payload.phase_id] = payload.gpu_start_ns;
    out.stop[payload.phase_id] = stop;
  }
  return out;
}

// The channel's four instants (contract).
std::array<std::uint64_t, 4> instants(const ChannelPhases& c) {
  const std::size_t first = c.has(0) ? 0 : c.has(1) ? 1 : 2;
  const std::size_t last = c.has(2) ? 2 : c.has(1) ? 1 : 0;
  std::uint64_t open = 0;
  std::uint64_t close = 0;
  if (c.has(1)) {
    open = c.start[1];
    close = c.stop[1];
  } else {
    open = close = c.has(0) ? c.stop[0] : c.start[2];
  }
  return {c.start[first], open, close, c.stop[last]};
}

}  // namespace

std::uint64_t kernel_phase_stop(const ProfilerEvents& ev, std::uint32_t kernel_phase) {
  std::uint64_t stop = 0;
  for (const StateMark& m : ev.marks(kernel_phase)) {
    if (m.state == format::kStateKernelPhaseStop && m.has_args) stop = m.value;
  }
  return stop;
}

std::optional<KernelPhaseTimes> kernel_phase_times(const ProfilerEvents& ev,
                                                   const HostGpuClock& clock,
                                                   std::span<const std::uint32_t> kernel_channels) {
  if (!clock.usable() || kernel_channels.empty()) return std::nullopt;
  std::uint64_t begin = UINT64_MAX;
  std::uint64_t compute_start = UINT64_MAX;
  std::uint64_t compute_end = 0;
  std::uint64_t end = 0;
  for (std::uint32_t k : kernel_channels) {
    const ChannelPhases phases = phases_of(ev, k);
    if (!phases.any()) return std::nullopt;
    const auto at = instants(phases);
    begin = std::min(begin, at[0]);
    compute_start = std::min(compute_start, at[1]);
    compute_end = std::max(compute_end, at[2]);
    end = std::max(end, at[3]);
  }
  const std::int64_t host_begin = clock.to_host_ns(begin);
  const std::int64_t host_compute_start = clock.to_host_ns(compute_start);
  const std::int64_t host_compute_end = clock.to_host_ns(compute_end);
  const std::int64_t host_end = clock.to_host_ns(end);
  KernelPhaseTimes out;
  out.ns[0] = std::max<std::int64_t>(0, sat_sub(host_compute_start, host_begin));
  out.ns[1] = std::max<std::int64_t>(0, sat_sub(host_compute_end, host_compute_start));
  out.ns[2] = std::max<std::int64_t>(0, sat_sub(host_end, host_compute_end));
  out.channels = static_cast<std::uint32_t>(kernel_channels.size());
  return out;
}

}  // namespace npkit

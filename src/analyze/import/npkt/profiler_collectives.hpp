// import/npkt/profiler_collectives.hpp — the collectives and point-to-point operations of one rank,
// from its Coll and P2p events, with their GPU spans.
// Contract:
// - One ProfilerCollective per Coll, P2p or CeColl event, ordered by host start (then event
//   order).
// - A CeColl (copy-engine collective, API v6) has copy_engine set, algo "CE", proto its sync
//   strategy ("MC", "UC"), seq NCCL's CE sequence number, and no GPU span: NCCL starts and stops it
//   on the host around the enqueue of its copies, and it has no KernelCh children.
// - bytes is nccl-tests' S (the "size(B)" column, the bytes algbw divides): count × element size,
//   × nranks for AllGather and ReduceScatter. The Coll count of AllGather and Broadcast is already
//   bytes (datatype ncclInt8); ReduceScatter's is the per-rank output count. 0 when the data
//   type is unknown.
// - type is the user's data type from the CollApi/P2pApi parent when there is one, else the
//   event's own (so an AllGather shows the user's type, not ncclInt8).
// - seq: NCCL's sequence number for Coll; for P2p the k-th operation of that (func, peer) on
//   this rank, from 0, in host start order (P2p events carry no sequence number).
// - The GPU span is min start .. max stop over the valid KernelCh children (stop = the value of
//   state 22), converted to host time with the rank's clock; stale children (timestamps of
//   another work item, profiler_kernel_channels.hpp) are left out and counted in channels_stale.
//   It is only set when the clock is usable and every child is valid (none lacks a timestamp,
//   none is stale: the others alone would understate the collective, e.g. 650 µs from channel 1
//   against 3.69 ms over both); channels_seen counts distinct channels, kernel_channels the
//   KernelCh children, channels_open those lacking a timestamp; channels_disjoint flags spans whose
//   valid channels never ran at the same time.
// - group_api is the GroupApi above the operation (Coll -> CollApi -> GroupApi, P2p -> P2pApi ->
//   GroupApi), kNoEvent when there is none: operations of one group share one kernel launch.
//   api_start_ns is the host start of the API call that issued it (api_ancestor), else its own
//   host start (which follows the kernel launch).
// - kernel_phases: NCCL's kernel phases (import/npkt/profiler_kernel_phases.hpp), only for an
//   operation with a GPU span whose every KernelCh has KernelPhase children (profiler API v7).
// - user_tag: the call's user tag (API v7 call-tag detail of the Coll, P2p or CeColl event, else
//   of its CollApi/P2pApi parent), 0 when untagged; kernel_variant and sym_kernel: a Coll's
//   kernelVariant and isSymColl (NCCL 2.31 symmetric kernels), "" and false otherwise.
// - String views point into the dump, which must outlive the result.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_events.hpp"
#include "import/npkt/profiler_kernel_channels.hpp"
#include "run/kernel_phases.hpp"
#include "run/nccl_names.hpp"
#include "util/saturating.hpp"

namespace npkit {

struct ProfilerCollective {
  std::uint32_t event = kNoEvent;  // the Coll/P2p event; kNoEvent for a derived AlltoAll
  NcclFunc func = NcclFunc::kOther;
  std::string_view func_name;
  std::string_view datatype;  // the event's own
  std::string_view type;      // the user's (API parent), else the event's own
  std::string_view algo;
  std::string_view proto;
  std::uint64_t seq = 0;
  std::uint64_t count = 0;
  std::int32_t root = -1;
  std::int32_t peer = -1;
  std::uint8_t n_channels = 0;
  std::uint8_t n_warps = 0;
  std::uint64_t bytes = 0;
  bool graph_captured = false;
  std::int64_t host_start_ns = 0;
  std::int64_t host_stop_ns = kNeverStopped;
  std::int64_t api_start_ns = 0;
  bool has_gpu_span = false;
  std::int64_t gpu_start_ns = 0;  // host time
  std::int64_t gpu_stop_ns = 0;   // host time
  // min start .. max stop of the valid KernelCh children alone (host time), even where a stale or
  // open one leaves the operation without a GPU span: where the operation ran at least then.
  bool has_valid_channels = false;
  std::int64_t valid_channels_start_ns = 0;
  std::int64_t valid_channels_stop_ns = 0;
  std::uint32_t channels_seen = 0;
  std::uint32_t kernel_channels = 0;
  std::uint32_t channels_open = 0;
  std::uint32_t channels_stale = 0;
  // The valid channels' [start, stop] share no common instant (the latest start is after the
  // earliest stop): the channels did not run together, so some timestamps may belong to other
  // work and the span overstates the collective.
  bool channels_disjoint = false;
  // Its launch's GPU span overlaps another launch's on this rank, which NCCL never runs at the
  // same time (stream_overlap.hpp): the span was dropped.
  bool stream_overlap = false;
  bool in_alltoall = false;  // a Send/Recv that is part of a derived AlltoAll
  bool copy_engine = false;  // a CeColl event
  std::uint32_t group_api = kNoEvent;
  std::optional<KernelPhaseTimes> kernel_phases;
  std::uint64_t user_tag = 0;
  std::string_view kernel_variant;
  bool sym_kernel = false;

  // A KernelCh child is stale, or the span overlapped another launch: the operation ran, but its
  // GPU time is unknown (a collective is timed only when every channel is: the others alone
  // would understate it).
  bool has_stale_channel() const { return channels_stale > 0 || stream_overlap; }

  std::int64_t gpu_duration_ns() const { return sat_sub(gpu_stop_ns, gpu_start_ns); }
};

std::vector<ProfilerCollective> collect_collectives(const NpktDump& dump,
                                                    const ProfilerEvents& events,
                                                    const HostGpuClock& clock,
                                                    const KernelChannelCheck& check);

// GPU span of a set of KernelCh events (the children of one or several Coll/P2p events),
// written into `c`: has_gpu_span, gpu_start_ns, gpu_stop_ns, the valid channels' span,
// channels_seen, kernel_channels, channels_open, channels_stale, channels_disjoint.
void set_gpu_span(const ProfilerEvents& events, const HostGpuClock& clock,
                  const KernelChannelCheck& check, std::span<const std::uint32_t> kernel_channels,
                  ProfilerCollective& c);

}  // namespace npkit

// import/npkt/npkt_capture_tracks.hpp — .npkt captures on the trace's typed tracks
// (run/capture_tracks.hpp): what the one trace writer of captures needs, with the wire format
// left here.
// Contract:
// - One CaptureTrackFile per capture, in the order given (RunInput::capture_tracks gives each
//   communicator's ranks, then the files outside any communicator), referring into the captures
//   and `events`, which must outlive the set.
// - Profiler spans: API calls (GroupApi, CollApi, P2pApi, KernelLaunch) on kApi; Group, Coll, P2p
//   and the CE events on kEnqueue; ProxyCtrl on kProxyCtrl; NetPlugin on kNet; ProxyOp on
//   kProxyChannel C; a ProxyStep (a leaf) on kProxySteps C of its op, kStepWithoutOp without one;
//   KernelCh on kGpuChannel C, its GPU times on the host clock, when the file's clock is usable,
//   its start known and its timestamps not stale (import/npkt/profiler_kernel_channels.hpp), a
//   leaf unless NCCL's KernelPhase events (API v7) nest in it, which go on its channel as leaves.
//   An event never stopped is an instant; `order` is the event's index in the file.
// - describe() gives the names, categories ("api", "enqueue", "ce", "gpu", "gpu,phase",
//   "proxy", "host") and arguments of output/trace/capture_trace_writer.hpp's contract, and a
//   proxy step's states (proxy_step_breakdown.hpp cuts them the same way); event records are
//   named by their base name (spans, category "gpu_event" or "host_event") or full name
//   (instants, "NAME (no EXIT)", "NAME (no ENTRY)").
#pragma once

#include <memory>
#include <vector>

#include "import/npkt/event_records.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "run/capture_tracks.hpp"

namespace npkit {

// `events` may be null (no event records).
std::unique_ptr<CaptureTrackSet> npkt_capture_tracks(
    const std::vector<const RankCapture*>& captures, const EventRecords* events);

}  // namespace npkit

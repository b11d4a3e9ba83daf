// output/trace/capture_trace_writer.hpp — the trace (output/trace/trace_encoder.hpp) of .npkt
// captures, in the layout of run/trace_layout.hpp.
// Contract:
// - One process per file, in the order given (process numbers 1, 2, ...), named "rank R, comm
//   HASH" (and the host name when known).
// - Threads: API calls (GroupApi, CollApi, P2pApi, KernelLaunch); host enqueue (Group, Coll,
//   P2p); proxy control (ProxyCtrl); net plugin (NetPlugin); proxy steps whose op is not in the
//   file; GPU channel C (KernelCh spans, converted to host time, with NCCL's KernelPhase spans of
//   profiler API v7 nested inside, named after the phase, category "gpu,phase"); proxy channel C
//   (ProxyOp spans); proxy steps C (ProxyStep spans cut into child spans named after their
//   states). Lanes (trace_lanes.hpp) keep the spans of each thread nested, at most
//   trace_lanes(thread) of them (run/trace_layout.hpp); spans that fit none go to the thread's
//   merged lane, where a span that overlaps no other is drawn as itself and spans that overlap
//   become one slice "N overlapping spans" (category "merged", arg spans = N) from the first
//   start to the last end.
// - Times are on the host's wall clock (TraceTimes::wall_clock, output/trace/trace_encoder.hpp):
//   after otherData.time_origin_ns (the JSON format's baseTimeNanoseconds), exact nanoseconds;
//   otherData.first_event_ns is the earliest host time in the trace, otherData.clock names the
//   clock. A stop before its start gives a span of length 0. Each process is closed
//   (TraceEncoder::close_process) once written.
// - args: Coll and KernelCh spans carry func, seq and size (nccl-tests bytes); P2p peer and size;
//   KernelCh also its channel and raw GPU timestamps; ProxyOp peer, steps, chunk size; ProxyStep
//   step and transfer size; API events their user count and type; KernelPhase its channel, phase
//   id and raw GPU timestamps; a Coll with a call-tag detail its kernel_variant (when named) and
//   symmetric flag. A call with a user tag (API v7) names its CollApi, P2pApi, Coll, P2p, CeColl
//   and KernelCh spans "NAME [tag N]" and gives its events a "tag" argument.
// - An event never stopped is an instant event "NAME (never stopped)" at its start. KernelCh of a
//   file without a usable clock are left out and counted in otherData.kernel_spans_without_clock;
//   stale KernelCh (timestamps of another work item, profiler_kernel_channels.hpp) are left out
//   and counted in otherData.kernel_spans_stale.
// - Event records (the device and host recorders, import/npkt/event_records.hpp), when given: each
//   stream of a file is a thread of that file's process (its event-stream number), named
//   after the stream ("GPU block 3", "host thread 4711 (worker)"); spans (category "gpu_event" or
//   "host_event") are named by their base name with args phase, depth, size, user (exit_size and
//   exit_user where the EXIT differs), id and the stream's entry and exit record numbers;
//   instants with size, user, id and record; unmatched ENTRY or EXIT events are
//   instants "NAME (no EXIT)" / "NAME (no ENTRY)". Streams on the host clock (host streams,
//   %globaltimer streams of a file with a clock fit) share the trace's time base with the
//   profiler events; streams on their own time base (%globaltimer without a fit, clock64) go to a
//   process of their own per file and clock (GPU timer or clock64 time base), whose earliest event
//   is put at the trace's first event;
//   otherData.event_streams counts the streams of each kind and those left out (clock64 without
//   a rate).
// - When `run` (the run of these captures, import/npkt) is given, each (communicator, rank)
//   process has the busbw counter of its collectives (output/trace/busbw_counters.hpp); a
//   (communicator, rank) of several files: the first file's process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/event_records.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "output/trace/trace_encoder.hpp"
#include "run/run.hpp"
#include "util/result.hpp"

namespace npkit {

struct CaptureTraceStats {
  std::uint64_t events = 0;  // trace events written, metadata included
  std::uint64_t kernel_spans_without_clock = 0;
  std::uint64_t kernel_spans_stale = 0;
  std::uint64_t event_spans = 0;  // spans of event records written
};

// Writes the whole trace of `captures` (and of the event records of `events`, whose files belong
// to `captures`, when not null) into `encoder`; an Error names `path_for_messages` when a write
// fails.
Result<CaptureTraceStats> write_capture_trace(const std::vector<const RankCapture*>& captures,
                                              const EventRecords* events, const Run* run,
                                              const std::string& source, TraceEncoder& encoder,
                                              const std::string& path_for_messages);

}  // namespace npkit

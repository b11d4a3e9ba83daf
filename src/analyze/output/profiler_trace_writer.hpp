// output/profiler_trace_writer.hpp — a Chrome Trace Event JSON (Perfetto, chrome://tracing) of
// .npkt captures.
// Contract:
// - One process per file, in the order given: pid = 1, 2, ..., named "rank R, comm HASH" (and
//   the host name when known).
// - Threads (tid): API calls (GroupApi, CollApi, P2pApi, KernelLaunch) 1 + lane; host enqueue
//   (Group, Coll, P2p) 100 + lane; ProxyCtrl 200 + lane; NetPlugin 300 + lane; proxy steps whose
//   op is not in the file 400 + lane; GPU channel c 100000 + 1000·c + lane (KernelCh spans,
//   converted to host time); proxy channel c 200000 + 1000·c + lane (ProxyOp spans, and ProxyStep
//   spans cut into child spans named after their states). Lanes (trace_lanes.hpp) keep the spans
//   of each thread nested; a group needing more than 1000 lanes shares its last tid.
// - Each span is an "X" event, ts/dur in microseconds after otherData.time_origin_ns (the
//   earliest host time in the trace) with three decimals: exact nanoseconds. A stop before its
//   start gives dur 0.
// - args: Coll and KernelCh spans carry func, seq and size (nccl-tests bytes); P2p peer and size;
//   KernelCh also its channel and raw GPU timestamps; ProxyOp peer, steps, chunk size; ProxyStep
//   step and transfer size; API events their user count and type.
// - An event never stopped is an instant event "NAME (never stopped)" at its start. KernelCh of a
//   file without a usable clock are left out and counted in otherData.kernel_spans_without_clock;
//   stale KernelCh (timestamps of another work item, profiler_kernel_channels.hpp) are left out
//   and counted in otherData.kernel_spans_stale.
// - Event records (the device and host recorders, import/npkt/event_records.hpp), when given: each
//   stream of a file is a thread of that file's process, tid 1000000 + 1000·stream + lane, named
//   after the stream ("GPU block 3", "host thread 4711 (worker)"); spans ("X", cat "gpu_event" or
//   "host_event") are named by their base name with args phase, depth, size, user (exit_size and
//   exit_user where the EXIT differs), id and the stream's entry and exit record numbers;
//   instants are "i" events with size, user, id and record; unmatched ENTRY or EXIT events are
//   instants "NAME (no EXIT)" / "NAME (no ENTRY)". Streams on the host clock (host streams,
//   %globaltimer streams of a file with a clock fit) share the trace's time base with the
//   profiler events; streams on their own time base (%globaltimer without a fit, clock64) go to a
//   process of their own per file and clock, "rank R, comm HASH (host), GPU timer time base" /
//   "..., clock64 time base", whose earliest event is put at the trace origin;
//   otherData.event_streams counts the streams of each kind and those left out (clock64 without
//   a rate).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "import/npkt/event_records.hpp"
#include "import/npkt/profiler_capture.hpp"
#include "util/result.hpp"

namespace npkit {

struct ProfilerTraceStats {
  std::uint64_t events = 0;  // trace events written, metadata included
  std::uint64_t kernel_spans_without_clock = 0;
  std::uint64_t kernel_spans_stale = 0;
  std::uint64_t event_spans = 0;  // spans of event records written
};

// Writes the whole trace of `captures` to `out`; an Error names `path_for_messages` when a
// write fails.
Result<ProfilerTraceStats> write_profiler_trace(const std::vector<const RankCapture*>& captures,
                                                const std::string& source, std::ostream& out,
                                                const std::string& path_for_messages);

// The same with the event records of `events` (whose files belong to `captures`) in the
// captures' processes.
Result<ProfilerTraceStats> write_profiler_trace(const std::vector<const RankCapture*>& captures,
                                                const EventRecords& events,
                                                const std::string& source, std::ostream& out,
                                                const std::string& path_for_messages);

}  // namespace npkit

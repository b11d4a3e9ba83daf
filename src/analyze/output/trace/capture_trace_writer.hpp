// output/trace/capture_trace_writer.hpp — the trace (output/trace/trace_encoder.hpp) of captures
// whose reader lays their events on typed tracks (run/capture_tracks.hpp; .npkt captures:
// import/npkt/npkt_capture_tracks.hpp), in the layout of run/trace_layout.hpp.
// Contract:
// - One process per file, in the set's order (process numbers 1, 2, ...), named "rank R, comm
//   HASH" (and the host name when known).
// - Profiler spans: each track (thread, index) is a thread of the file's process; lanes
//   (trace_lanes.hpp) keep its spans nested, at most trace_lanes(thread) of them; spans that fit
//   none go to the thread's merged lane, where a span that overlaps no other is drawn as itself
//   and spans that overlap become one slice "N overlapping spans" (category "merged", arg spans =
//   N) from the first start to the last end. A span is named, categorized and given arguments as
//   its reader describes it; a span the reader cuts into states has them as child spans. An
//   instant (an event never stopped) is "NAME (never stopped)" at its start.
// - Event-record spans: each stream is a thread of the file's process (its event-stream number,
//   lanes as its spans need), named after the stream ("GPU block 3"). Streams on the host clock
//   share the trace's time base with the profiler spans; streams on their own time base
//   (%globaltimer without a fit, clock64) go to a process of their own per file and time base,
//   whose earliest event is put at the trace's first event.
// - Times are on the host's wall clock (TraceTimes::wall_clock, output/trace/trace_encoder.hpp):
//   after otherData.time_origin_ns (the JSON format's baseTimeNanoseconds), exact nanoseconds;
//   otherData.first_event_ns is the earliest host time in the trace, otherData.clock names the
//   clock. A stop before its start gives a span of length 0. Each process is closed
//   (TraceEncoder::close_process) once written.
// - otherData also holds each file's GPU clock method, the kernel spans left out
//   (kernel_spans_without_clock, kernel_spans_stale), and, when a file holds event records, the
//   streams of each time base (event_streams) and the event names with their phase hints.
// - When `run` (the run of these captures) is given, each (communicator, rank) process has the
//   busbw counter of its collectives (output/trace/busbw_counters.hpp); a (communicator, rank) of
//   several files: the first file's process.
#pragma once

#include <cstdint>
#include <string>

#include "output/trace/trace_encoder.hpp"
#include "run/capture_tracks.hpp"
#include "run/run.hpp"
#include "util/result.hpp"

namespace npkit {

struct CaptureTraceStats {
  std::uint64_t events = 0;  // trace events written, metadata included
  std::uint64_t kernel_spans_without_clock = 0;
  std::uint64_t kernel_spans_stale = 0;
  std::uint64_t event_spans = 0;  // spans of event records written
};

// Writes the whole trace of `tracks` into `encoder`; an Error names `path_for_messages` when a
// write fails.
Result<CaptureTraceStats> write_capture_trace(const CaptureTrackSet& tracks, const Run* run,
                                              const std::string& source, TraceEncoder& encoder,
                                              const std::string& path_for_messages);

}  // namespace npkit

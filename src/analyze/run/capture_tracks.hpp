// run/capture_tracks.hpp — the events of capture files on the trace's typed tracks
// (run/trace_layout.hpp), as their reader gives them to the one trace writer of captures
// (output/trace/capture_trace_writer.hpp). The reader alone knows the file format: it says where
// each event lies (a track and a time) and, when asked, what the event is called and carries; the
// writer lays the spans on lanes, names processes and threads, and writes them.
// Contract:
// - A TrackSpan lies on the track (thread, index): index is the channel (GPU channel, proxy
//   channel, proxy steps) or the event stream's number (kEventStream), 0 for the other threads.
//   Times are ns: the host's wall clock for profiler spans and host-clock event records, the
//   stream's own time base otherwise. instant: an instant at `start` (a profiler event never
//   stopped, an event record's instant or unmatched ENTRY/EXIT); leaf: a span that takes no
//   children (its own states tile it, run/trace_layout.hpp). Spans of equal start and end keep
//   the order of `order`; `handle` is the reader's own reference for describe().
// - describe(span, text) fills the span's name (without the " (never stopped)" of an instant,
//   which the writer adds), its category, its arguments (views into the reader's storage or into
//   `text`), and, for a span cut into states (a proxy step), the states as child spans in time
//   order.
// - CaptureTrackFile::record_spans(base) gives the file's event-record spans on a time base:
//   kHost (the host clock), kGpuTimer (%globaltimer without a clock fit) or kCycles (clock64);
//   stream_name(span) names the stream of such a span ("GPU block 3").
// - facts() are what the trace's description (otherData) says of the file; first_ns is the
//   earliest host time of its profiler events (INT64_MAX when none), `profiler_times` whether it
//   holds any profiler event.
// - CaptureTrackSet: the files in trace order, and the event records' base names with the phase
//   hint of each ("" for none) when any file holds event records.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "run/trace_args.hpp"
#include "run/trace_layout.hpp"

namespace npkit {

struct TrackSpan {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::uint64_t order = 0;
  std::uint32_t handle = 0;
  std::uint32_t index = 0;
  TraceThread thread = TraceThread::kApi;
  bool instant = false;
  bool leaf = false;
};

struct TrackState {
  std::string name;
  std::string_view category;
  std::int64_t from_ns = 0;
  std::int64_t to_ns = 0;
};

struct TrackSpanText {
  std::string name;
  std::string_view category;
  TraceArgList args;
  std::vector<TrackState> states;
};

struct CaptureTrackFacts {
  std::int64_t rank = -1;
  std::uint64_t comm_hash = 0;
  std::string host;
  std::string gpu_clock;  // how GPU times were put on the host clock, in words
  std::int64_t first_ns = INT64_MAX;
  bool profiler_times = false;
  std::uint64_t kernel_spans_without_clock = 0;
  std::uint64_t kernel_spans_stale = 0;
  std::uint64_t host_clock_streams = 0;  // event-record streams on each time base
  std::uint64_t own_clock_streams = 0;
  std::uint64_t streams_left_out = 0;  // clock64 without a rate
};

class CaptureTrackFile {
 public:
  virtual ~CaptureTrackFile() = default;
  virtual const CaptureTrackFacts& facts() const = 0;
  virtual std::vector<TrackSpan> profiler_spans() const = 0;
  virtual std::vector<TrackSpan> record_spans(TraceTimeBase base) const = 0;
  virtual std::string stream_name(const TrackSpan& span) const = 0;
  virtual void describe(const TrackSpan& span, TrackSpanText& text) const = 0;
};

struct CaptureTrackSet {
  std::vector<std::unique_ptr<CaptureTrackFile>> files;
  bool has_event_records = false;
  std::vector<std::pair<std::string, std::string>> event_names;  // base name, phase hint
};

}  // namespace npkit

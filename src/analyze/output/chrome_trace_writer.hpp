// chrome_trace_writer.hpp — spans streamed into a Chrome Trace Event JSON file (Perfetto,
// chrome://tracing).
// Contract: ranks are processes (pid = rank), GPU buffers and CPU lanes are named threads
// (tid = buffer + 1; CPU (channel + 1) × 1000 + lane, as NPKit's generator numbers them); each
// span is one "X" event whose ts/dur are microseconds relative to the trace origin with three
// decimals (exact nanoseconds — epoch-µs doubles would round to 0.25 µs). Args hold the EXIT
// size (and the ENTRY size where it differs), seq, bandwidth, depth/rsvd or CPU slot/lane (and
// the 2.20 port's sender/receiver/step), and the two record indices in the file. GPU buffers
// without TIME_SYNC are put in a separate process per rank ("rank R (GPU clock)", pid 100000 + R)
// with their own origin, because their times are not host times. Unmatched events become instant
// events. Tracks may interleave (a Chrome trace's do): each span takes the time domain its
// track was begun with. The writer streams through a background thread (formatting overlaps
// writing): memory stays constant however long the trace.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "import/legacy/span_reader.hpp"
#include "output/background_writer.hpp"
#include "run/phase_map.hpp"

namespace npkit {

// Time origins, found by a first pass over the dump (TraceOriginSink).
struct TraceOrigins {
  std::int64_t host_ns = INT64_MAX;
  std::map<std::uint32_t, std::int64_t> gpu_counter_ns;  // per rank
};

class TraceOriginSink : public SpanSink {
 public:
  void on_span(const Span&) override {}
  void end_track(const TrackFile& file, const TrackStats& stats) override;
  const TraceOrigins& origins() const { return origins_; }
  void merge(const TraceOriginSink& other);

 private:
  TraceOrigins origins_;
};

struct TraceMetadata {
  std::string source;
  std::string event_table;
  std::string gpu_clock;
  unsigned cpu_record_size = 16;  // 18/22: CPU spans carry sender, receiver (and step)
};

class ChromeTraceWriter : public SpanSink {
 public:
  static constexpr std::uint32_t kGpuCounterPidBase = 100000;

  // `base_names`: the span names by Span::base (RunInput::span_names(); it may grow while the
  // input is read).
  ChromeTraceWriter(std::ostream& out, const std::vector<std::string>& base_names,
                    const PhaseAssignment& phases, TraceOrigins origins,
                    const TraceMetadata& metadata);

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void on_unmatched(const UnmatchedEvent& event) override;

  // Closes the JSON document and flushes; an Error if any write failed.
  Status finish(const std::string& path_for_messages);
  std::uint64_t events_written() const { return events_; }

 private:
  void flush_if_full();
  void ensure_names(std::uint32_t pid, std::uint32_t tid, const TrackRef& track,
                    std::uint32_t lane);
  void append_time(std::int64_t ns);
  void append_duration(std::int64_t ns);
  void begin_event();
  // The span name of `base` as a JSON string.
  const std::string& quoted_name(std::uint16_t base);
  // Makes `track`'s time domain and origin current (tracks may interleave).
  void switch_to(const TrackRef& track);

  io::BackgroundWriter writer_;
  const std::vector<std::string>& names_;
  const PhaseAssignment& phases_;
  TraceOrigins origins_;
  std::vector<std::string> quoted_names_;
  std::vector<std::string> quoted_phases_;
  std::string buffer_;
  std::set<std::uint64_t> named_threads_;
  std::set<std::uint32_t> named_processes_;
  std::map<std::tuple<std::uint32_t, int, std::uint32_t>, TimeDomain> domains_;  // by track
  TrackRef current_;
  bool has_current_ = false;
  TimeDomain domain_ = TimeDomain::kHost;
  std::int64_t origin_ = 0;
  std::uint64_t events_ = 0;
  unsigned cpu_record_size_ = 16;
};

}  // namespace npkit

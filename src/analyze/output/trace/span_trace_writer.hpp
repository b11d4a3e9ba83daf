// output/trace/span_trace_writer.hpp — the spans of a legacy NPKit dump or of a Chrome trace of
// spans, streamed into a trace (output/trace/trace_encoder.hpp) in the layout of
// run/trace_layout.hpp.
// Contract:
// - Rank R is process R + 1 ("rank R"); GPU buffers without TIME_SYNC go to a process of their
//   own per rank (GPU clock time base) whose origin is that rank's earliest GPU-counter time,
//   because their times are not host times. GPU buffer B is thread "GPU buffer B" (its spans
//   nest by depth), CPU channel C lane L thread "CPU channel C" lane L.
// - Each span is a span event named by its base name, category "gpu,PHASE" or "cpu,PHASE",
//   times after the trace origin (TraceOrigins; exact nanoseconds); args: size (the EXIT's),
//   entry_size where the ENTRY's differs, seq, bw_gbps (size / duration, thousandths, rounded),
//   GPU: rsvd (when not 0) and depth; CPU: slot, lane, and the NCCL 2.20 port's sender_rank,
//   receiver_rank (18- and 22-byte records) and step (22-byte records); records [entry, exit].
//   Unmatched events are instants "unmatched ENTRY NAME" / "unmatched EXIT NAME", category
//   "unmatched", args size and record.
// - Tracks may interleave (a Chrome trace's do): each span takes the time domain its track was
//   begun with. A new rank's first track closes the processes of the rank before
//   (TraceEncoder::close_process).
// - begin_span_trace begins the trace with its description (otherData): generator, layout,
//   source, event table, GPU clock method, time origin and the GPU-counter origins per rank;
//   writers then write into that encoder or into its fragments (one per track, for instance).
// - SpanTraceFragment is a sink that writes a part of the input into a fragment it owns, and
//   finishes the fragment at the end of each track (on the reader's thread).
// - write_span_trace_in_chunks writes the spans of an input that reads them in chunks
//   (RunInput::reads_span_chunks: legacy dumps) into a begun trace: the input's chunks
//   (run/span_chunks.hpp: `chunks` gives the threads, window and chunk size; its
//   callbacks are set here) each into a fragment, appended in order, so that the bytes do not
//   depend on the threads. It stops reading, without an error, once stop() is true after an
//   append (a size guard). The reading's warnings go to `diagnostics`.
// - write_span_busbw_counters gives each rank's host-clock process the busbw counter of the
//   rank's collectives in `run` (output/trace/busbw_counters.hpp; the run joins host-clock spans
//   only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "output/trace/trace_encoder.hpp"
#include "run/phase_map.hpp"
#include "run/run.hpp"
#include "run/span_chunks.hpp"

namespace npkit {

// Time origins, found by a first pass over the input (TraceOriginSink).
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

void begin_span_trace(TraceEncoder& encoder, const TraceOrigins& origins,
                      const TraceMetadata& metadata);

class SpanTraceWriter : public SpanSink {
 public:
  // `base_names`: the span names by Span::base (ChunkedSpanSource::span_names(); it may grow while
  // the input is read).
  SpanTraceWriter(TraceEncoder& encoder, const std::vector<std::string>& base_names,
                  const PhaseAssignment& phases, TraceOrigins origins,
                  const TraceMetadata& metadata);

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void on_unmatched(const UnmatchedEvent& event) override;

 private:
  // Makes `track`'s time domain and origin current (tracks may interleave).
  void switch_to(const TrackRef& track);
  std::uint32_t pid_of(const TrackRef& track) const;
  void ensure_names(std::uint32_t pid, std::uint32_t tid, const TrackRef& track,
                    std::uint32_t lane);
  const std::string& name_of(std::uint16_t base) const;

  TraceEncoder& encoder_;
  const std::vector<std::string>& names_;
  std::vector<std::string> categories_;  // "gpu,PHASE" by phase, then "cpu,PHASE"
  TraceOrigins origins_;
  std::set<std::uint64_t> named_threads_;
  std::set<std::uint32_t> named_processes_;
  std::uint64_t last_named_ = UINT64_MAX;  // (pid << 32 | tid) of the last thread named
  std::map<std::tuple<std::uint32_t, int, std::uint32_t>, TimeDomain> domains_;  // by track
  TrackRef current_;
  bool has_current_ = false;
  bool has_rank_ = false;
  std::uint32_t rank_ = 0;  // of the last track begun
  TimeDomain domain_ = TimeDomain::kHost;
  std::int64_t origin_ = 0;
  unsigned cpu_record_size_ = 16;
  mutable std::string fallback_name_;
};

class SpanTraceFragment : public SpanSink {
 public:
  SpanTraceFragment(std::unique_ptr<TraceEncoder> fragment,
                    const std::vector<std::string>& base_names, const PhaseAssignment& phases,
                    const TraceOrigins& origins, const TraceMetadata& metadata);

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override { writer_.on_span(span); }
  void on_unmatched(const UnmatchedEvent& event) override { writer_.on_unmatched(event); }
  void end_track(const TrackFile& file, const TrackStats& stats) override;
  TraceEncoder& fragment() { return *fragment_; }

 private:
  std::unique_ptr<TraceEncoder> fragment_;
  SpanTraceWriter writer_;
};

void write_span_busbw_counters(const Run& run, const TraceOrigins& origins, TraceEncoder& encoder);

Status write_span_trace_in_chunks(const ChunkedSpanSource& input, SpanChunks chunks,
                                  const TraceOrigins& origins, const TraceMetadata& metadata,
                                  TraceEncoder& encoder, const std::function<bool()>& stop,
                                  Diagnostics& diagnostics);

}  // namespace npkit

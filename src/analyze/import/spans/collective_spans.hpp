// import/spans/collective_spans.hpp — a SpanSink that keeps the top-level collective spans of a
// legacy NPKit dump (or of event records, or of a Chrome trace of spans), per (rank, event name,
// track), for the join by occurrence (import/spans/occurrence_join.hpp).
// Contract:
// - Kept: GPU spans at depth 0 whose phase rule names a collective with an algorithm other than
//   p2p (the spans `bandwidth` times collectives by, e.g. ALL_REDUCE_RING), with their ENTRY size
//   as the size field, in the order the reader streams them (occurrence order on the track).
// - A buffer without TIME_SYNC (its own GPU counter clock) cannot be compared across ranks: its
//   spans are not kept and the track is marked incomplete, so the join leaves out what it holds.
//   A buffer that probably overflowed, holds unmatched events or a partial trailing record is
//   marked incomplete with the numbers (spans may be missing).
// - Tracks may interleave (a Chrome trace orders its events as it likes): each track's spans keep
//   their own order. merge() appends another sink's tracks (the parallel reader's runs, merged
//   in track order).
// - join() joins what was kept by occurrence, each name with the collective and algorithm of its
//   rule; hosts as given (legacy dumps carry no hostname).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "import/spans/occurrence_join.hpp"
#include "run/phase_map.hpp"
#include "run/span_sink.hpp"

namespace npkit {

class CollectiveSpans : public SpanSink {
 public:
  // `track_kind` names the tracks in gaps ("buffer", "stream").
  CollectiveSpans(const PhaseAssignment& phases, const std::vector<std::string>& base_names,
                  std::string track_kind = "buffer");

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void end_track(const TrackFile& file, const TrackStats& stats) override;
  void merge(CollectiveSpans&& other);

  // The joined communicator (import/spans/occurrence_join.hpp, OccurrenceTable::join).
  RunCommunicator join(std::string scope, std::string time_source, std::int32_t nranks,
                       const std::vector<std::int32_t>& ranks,
                       const std::map<std::int32_t, std::string>& hosts = {}) const;

 private:
  const PhaseAssignment& phases_;
  OccurrenceTable table_;
  // GPU tracks on the GPU counter's own clock, by (rank, buffer): tracks may interleave.
  std::set<std::pair<std::uint32_t, std::uint32_t>> off_host_;
};

// Forwards every call to `sink` and the top-level spans to `collectives` (a reader's one pass
// feeding a command's sink and the join).
class WithCollectiveSpans : public SpanSink {
 public:
  WithCollectiveSpans(SpanSink& sink, CollectiveSpans& collectives)
      : sink_(sink), collectives_(collectives) {}
  void begin_track(const TrackFile& file, TimeDomain domain) override {
    sink_.begin_track(file, domain);
    collectives_.begin_track(file, domain);
  }
  void on_span(const Span& span) override {
    sink_.on_span(span);
    if (span.depth == 0) collectives_.on_span(span);
  }
  void on_unmatched(const UnmatchedEvent& event) override { sink_.on_unmatched(event); }
  void end_track(const TrackFile& file, const TrackStats& stats) override {
    sink_.end_track(file, stats);
    collectives_.end_track(file, stats);
  }

 private:
  SpanSink& sink_;
  CollectiveSpans& collectives_;
};

}  // namespace npkit

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
// - merge() appends another sink's tracks (the parallel reader's runs, merged in track order).
// - times() lists one RankInstanceTimes per (rank, name, buffer) seen, by rank, name and buffer,
//   with the collective and algorithm of the name's rule; hosts are unknown (legacy dumps carry
//   no hostname).
// The .npkt event records (import/npkt/event_span_reader.hpp) stream spans of the same shape, one
// track per stream: commands/cross_rank_output.hpp joins them with this sink too, then fills in
// each rank's host and calls the tracks streams.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "import/legacy/span_reader.hpp"
#include "import/spans/occurrence_join.hpp"
#include "run/phase_map.hpp"

namespace npkit {

class CollectiveSpans : public SpanSink {
 public:
  CollectiveSpans(const PhaseAssignment& phases, const std::vector<std::string>& base_names)
      : phases_(phases), base_names_(base_names) {}

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void end_track(const TrackFile& file, const TrackStats& stats) override;
  void merge(CollectiveSpans&& other);

  std::vector<RankInstanceTimes> times() const;

 private:
  using Key = std::tuple<std::uint32_t, std::uint16_t, std::uint32_t>;  // rank, base, buffer
  const PhaseAssignment& phases_;
  const std::vector<std::string>& base_names_;
  bool track_on_host_ = true;
  std::map<Key, std::vector<OccurrenceSpan>> spans_;
  // Per (rank, buffer): why spans may be missing.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> incomplete_;
};

}  // namespace npkit

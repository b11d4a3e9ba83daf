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
// - times() lists one RankInstanceTimes per (rank, name, buffer) seen, by rank, name and buffer,
//   with the collective and algorithm of the name's rule; hosts are unknown (legacy dumps carry
//   no hostname).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "import/legacy/span_reader.hpp"
#include "import/spans/occurrence_join.hpp"
#include "run/phase_map.hpp"

namespace npkit {

class CollectiveSpans : public SpanSink {
 public:
  // `track_kind` names the tracks in gaps ("buffer", "stream").
  CollectiveSpans(const PhaseAssignment& phases, const std::vector<std::string>& base_names,
                  std::string track_kind = "buffer")
      : phases_(phases), base_names_(base_names), track_kind_(std::move(track_kind)) {}

  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void end_track(const TrackFile& file, const TrackStats& stats) override;
  void merge(CollectiveSpans&& other);

  std::vector<RankInstanceTimes> times() const;

 private:
  using Key = std::tuple<std::uint32_t, std::uint16_t, std::uint32_t>;  // rank, base, buffer
  const PhaseAssignment& phases_;
  const std::vector<std::string>& base_names_;
  std::string track_kind_;
  // GPU tracks on the GPU counter's own clock, by (rank, buffer): tracks may interleave.
  std::set<std::pair<std::uint32_t, std::uint32_t>> off_host_;
  std::map<Key, std::vector<OccurrenceSpan>> spans_;
  // Per (rank, buffer): why spans may be missing.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> incomplete_;
};

}  // namespace npkit

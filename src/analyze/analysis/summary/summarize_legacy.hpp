// analysis/summary/summarize_legacy.hpp — a RunSummary from a legacy NPKit dump's span stream.
// Contract (the row definitions are run_summary.hpp's):
// - LegacySummarySink is a SpanSink (import/legacy/span_reader.hpp); sinks fed disjoint runs of
// tracks
//   merge into one (merge() in track order), like the other sinks of `report` and `bandwidth`.
// - Phases: `report`'s attribution (analysis/phases/phase_breakdown.hpp) per rank — the exclusive
// time,
//   count and reference per (domain, phase) — plus each span's exclusive time in the rank's
//   sample of that phase.
// - Collectives: on each GPU buffer the k-th top-level span of a collective rule
//   (not p2p) and size is the k-th instance of that size; a rank's time for it is the earliest
//   ENTRY to the latest EXIT over its buffers. Names become NCCL's (allreduce -> AllReduce),
//   algorithms upper case (ring -> RING); the protocol is unknown (""); S follows nccl-tests with
//   n = the dump's rank count. Sizes are bucketed as size_bucket.hpp says.
// - No sync rows (legacy dumps are not joined across ranks here). Config: format
//   "npkit-legacy", the ranks (communicator "legacy"), the number of event files.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "import/legacy/legacy_dump.hpp"
#include "import/legacy/span_reader.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

class LegacySummarySink : public SpanSink {
 public:
  explicit LegacySummarySink(const PhaseAssignment& phases);
  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  void merge(const LegacySummarySink& other);

  RunSummary summarize(const std::string& input, const LegacyDump& dump) const;

 private:
  struct Instance {
    std::int64_t start = INT64_MAX;
    std::int64_t end = INT64_MIN;
  };
  using SampleKey = std::tuple<std::uint32_t, bool, std::uint16_t>;  // rank, gpu, phase
  using TrackKey = std::pair<std::int32_t, std::uint32_t>;           // collective, size field
  using InstanceKey = std::tuple<std::int32_t, std::uint32_t, std::uint32_t>;  // + rank

  void add_collectives(const LegacyDump& dump, RunSummary& s) const;
  void add_phases(RunSummary& s) const;

  const PhaseAssignment& phases_;
  PhaseBreakdownSink breakdown_;
  std::map<SampleKey, DurationSample> span_ns_;
  std::map<TrackKey, std::uint64_t> track_counters_;
  std::map<InstanceKey, std::vector<Instance>> instances_;
};

}  // namespace npkit

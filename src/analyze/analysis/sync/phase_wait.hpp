// analysis/sync/phase_wait.hpp — how much of each rank's time in a phase (reduce_scatter,
// all_gather, ...) was waiting for its peers rather than moving data: sync inside the phases.
// Contract:
// - PhaseWaitSink is a SpanSink. On each GPU track it sums every span's exclusive time by phase
//   under the top-level collective span that encloses it (spans arrive children first), and
//   books the sum on that collective's instance: (name, size, m) where m counts the track's
//   top-level spans of that name and size — the occurrence join's key (import/spans/
//   occurrence_join.hpp), so the m-th instance on every track and rank is the same operation.
//   A rank's time in a phase at an instance is the sum over its tracks. Spans outside a
//   collective-level span (and Send/Recv rules, algo "p2p") are left out. Sinks of disjoint
//   tracks merge.
// - phase_waits: per instance held by at least two ranks, per phase, a rank's waiting is its
//   time in the phase beyond the least any rank with that phase spent in it at that instance (a
//   phase only one rank runs, as in asymmetric algorithms like the split tree, has none): the rank
//   that waited least moved the same data in that time, so the excess is waiting (for a slower
//   peer's data, a later peer's arrival, or a stall of its own). Durations are each rank's own,
//   so no clock alignment is needed; what cannot be told apart: a rank slower at moving data
//   (e.g. a slower link) also shows as waiting. Totals per (rank, phase) and per (size, rank,
//   phase), phases with time only; `instances` counts the instances compared.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "run/phase_map.hpp"
#include "run/span_sink.hpp"

namespace npkit {

class PhaseWaitSink : public SpanSink {
 public:
  explicit PhaseWaitSink(const PhaseAssignment& phases) : phases_(phases) {}
  void on_span(const Span& span) override;
  void merge(PhaseWaitSink&& other);

  // (name base, size, m) -> rank -> phase -> ns
  using Instances = std::map<std::tuple<std::uint16_t, std::uint32_t, std::uint64_t>,
                             std::map<std::uint32_t, std::map<std::uint16_t, std::int64_t>>>;
  const Instances& instances() const { return instances_; }

 private:
  struct TrackState {
    std::vector<std::int64_t> pending;   // by phase id: ns under the open top-level span
    std::vector<std::uint16_t> touched;  // the phases with pending time
    std::map<std::pair<std::uint16_t, std::uint32_t>, std::uint64_t> count;  // (base, size)
  };
  TrackState& state_of(const TrackRef& track);

  const PhaseAssignment& phases_;
  std::map<std::tuple<std::uint32_t, std::uint32_t>, TrackState> tracks_;  // (rank, index)
  TrackState* current_ = nullptr;  // the last span's track (spans of a track mostly run together)
  TrackRef current_track_;
  Instances instances_;
};

struct PhaseWait {
  std::uint32_t rank = 0;
  std::string phase;
  std::uint64_t size = 0;  // the span's size field; 0 in the per-rank totals
  std::int64_t time_ns = 0;
  std::int64_t wait_ns = 0;
};

struct PhaseWaits {
  std::uint64_t instances = 0;
  std::vector<PhaseWait> ranks;    // by rank, then phase id
  std::vector<PhaseWait> by_size;  // by size, then rank, then phase id
};

PhaseWaits phase_waits(const PhaseWaitSink& sink, const PhaseAssignment& phases);

}  // namespace npkit

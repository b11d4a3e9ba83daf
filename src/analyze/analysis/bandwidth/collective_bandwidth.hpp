// collective_bandwidth.hpp — per collective and size: time, algbw and busbw (nccl-tests style).
// Contract: collective-level spans (a phase rule with a collective and a non-p2p algorithm, e.g.
// ALL_REDUCE_RING, whose size field carries the collective's bytes) are grouped per rank: the
// k-th such span of a size on each buffer is the k-th collective of that size. Its GPU time is
// the earliest ENTRY to the latest EXIT over the rank's buffers, on the sync-aligned clock (raw
// clock64 ticks of different buffers are not comparable). Per instance across ranks, the
// cross-rank time is the first ENTRY on any rank to the last EXIT on any rank, reported only
// when every rank's buffers are host-aligned. algbw/busbw follow nccl-tests, from the median
// per-rank time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "import/legacy/span_reader.hpp"
#include "run/phase_map.hpp"
#include "util/quantiles.hpp"

namespace npkit {

struct CollectiveRankTimes {
  std::uint32_t rank = 0;
  SampleSummary time_ns;
};

struct CollectiveSizeRow {
  std::string func;
  std::string algo;
  std::uint64_t size_field = 0;  // bytes in the event's size field
  double algbw_bytes = 0;        // S of nccl-tests
  std::uint32_t ranks = 0;
  std::uint64_t instances = 0;  // most instances any rank has
  SampleSummary rank_time_ns;   // over every (rank, instance)
  std::optional<SampleSummary> cross_rank_time_ns;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::vector<CollectiveRankTimes> per_rank;
};

class CollectiveBandwidthSink : public SpanSink {
 public:
  CollectiveBandwidthSink(const PhaseAssignment& phases, std::string coll);
  void begin_track(const TrackFile& file, TimeDomain domain) override;
  void on_span(const Span& span) override;
  // `nranks`: the communicator size for the busbw factor (the dump's rank count).
  std::vector<CollectiveSizeRow> summarise(std::uint32_t nranks) const;
  // Adds instances another sink saw on other tracks (the k-th instances combine).
  void merge(const CollectiveBandwidthSink& other);

 private:
  struct Instance {
    std::int64_t start = INT64_MAX;
    std::int64_t end = INT64_MIN;
    bool host_aligned = true;
  };
  using TrackKey = std::pair<std::int32_t, std::uint32_t>;  // collective, size
  using GroupKey =
      std::tuple<std::int32_t, std::uint32_t, std::uint32_t>;  // collective, size, rank

  const PhaseAssignment& phases_;
  std::string coll_;
  std::map<TrackKey, std::uint64_t> track_counters_;
  bool track_aligned_ = true;
  std::map<GroupKey, std::vector<Instance>> instances_;
};

}  // namespace npkit

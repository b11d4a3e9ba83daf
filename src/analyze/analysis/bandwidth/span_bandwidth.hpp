// span_bandwidth.hpp — per event type and message size: durations and bandwidths of spans.
// Contract: a span's bandwidth is its EXIT size divided by its own duration (its own ENTRY,
// whatever nests inside — NPKit's generator measures against the previous record instead).
// Sizes are grouped in power-of-two buckets [2^k, 2^(k+1)); size 0 is its own bucket. Order
// statistics are exact up to QuantileSketch::kExactLimit spans per (rank, event, bucket) and
// within 0.8 % beyond, so memory stays bounded however long the dump.
// `coll` (a --coll value) selects spans by the collective around them (their top-level span's
// rule); CPU and other unattributed spans are selected only by "all".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "run/phase_map.hpp"
#include "run/span_sink.hpp"
#include "util/quantile_sketch.hpp"
#include "util/quantiles.hpp"

namespace npkit {

struct SpanBandwidthRow {
  std::uint32_t rank = 0;  // kAllRanks for the pooled row
  std::string name;
  bool gpu = true;
  std::uint64_t bucket = 0;  // lower bound of the size bucket (0, 1, 2, 4, ...)
  SampleSummary duration_ns;
  SampleSummary gbps;  // spans with a positive duration only
  std::uint64_t total_bytes = 0;
};

inline constexpr std::uint32_t kAllRanks = 0xFFFFFFFFu;

std::uint64_t size_bucket(std::uint64_t bytes);

class SpanBandwidthSink : public SpanSink {
 public:
  // `base_names`: the span source's base event names, indexed by Span::base.
  SpanBandwidthSink(const PhaseAssignment& phases, const std::vector<std::string>& base_names,
                    std::string coll);
  void on_span(const Span& span) override;
  // Rows per rank, then pooled rows (rank == kAllRanks), each sorted by name and bucket.
  std::vector<SpanBandwidthRow> summarise() const;
  void merge(SpanBandwidthSink&& other);

 private:
  struct Samples {
    QuantileSketch ns;
    QuantileSketch gbps;
    std::uint64_t bytes = 0;
  };
  using Key =
      std::tuple<std::uint32_t, std::uint16_t, bool, std::uint64_t>;  // rank, base, gpu, bucket

  const PhaseAssignment& phases_;
  const std::vector<std::string>& base_names_;
  std::string coll_;
  std::map<Key, Samples> samples_;
};

}  // namespace npkit

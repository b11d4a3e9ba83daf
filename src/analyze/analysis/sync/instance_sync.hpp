// analysis/sync/instance_sync.hpp — who waits for whom at each joined collective instance, on one
// clock. Contract:
// - Times are the input's plus the rank's host offset (analysis/align/host_offsets.hpp).
//   Instances with fewer than two ranks are skipped.
// - Per instance: arrival skew of rank r = last arrival - r's arrival; true duration = last
//   completion - last arrival (negative when a rank completed before the last arrival: clocks
//   or data are off; such instances are counted as violations, their true duration kept as is);
//   wait of r = its skew capped by its own duration (end - start), never below 0.
// - The rank(s) arriving last (ties: each of them) "arrived last"; the margin = last arrival -
//   the latest arrival among the others (0 on a tie): every other rank waited at least that long.
// - Per rank: instances, how often it arrived last (and the share), skew median and max, summed
//   wait and summed duration (busy) and their ratio (wait share), the margin's median and max
//   over the instances it arrived last.
// - Per collective name: instances, median and max arrival spread (last - first arrival), median
//   true duration, summed wait over ranks.
// - Straggler order: arrived-last count descending, then median margin descending, then rank.
// Medians and quantiles: util/quantiles.hpp (type 7).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/align/host_offsets.hpp"
#include "run/cross_rank_input.hpp"

namespace npkit {

struct InstanceSync {
  std::size_t instance = 0;           // index into CrossRankInput::instances
  std::int32_t last_rank = 0;         // the lowest-numbered rank among those that arrived last
  std::int64_t first_arrival_ns = 0;  // on the reference clock
  std::int64_t last_arrival_ns = 0;
  std::int64_t last_completion_ns = 0;
  std::int64_t spread_ns = 0;  // last - first arrival
  std::int64_t true_duration_ns = 0;
  std::int64_t margin_ns = 0;
  std::int64_t wait_ns = 0;  // summed over ranks
};

struct RankSync {
  std::int32_t rank = 0;
  std::uint64_t instances = 0;
  std::uint64_t arrived_last = 0;
  double arrived_last_share = 0;
  double skew_median_ns = 0;
  std::int64_t skew_max_ns = 0;
  std::int64_t wait_ns = 0;
  std::int64_t busy_ns = 0;
  double wait_share = 0;        // wait / busy
  double margin_median_ns = 0;  // over the instances it arrived last
  std::int64_t margin_max_ns = 0;
};

struct CollectiveSync {
  std::string collective;
  std::uint64_t instances = 0;
  double spread_median_ns = 0;
  std::int64_t spread_max_ns = 0;
  double true_duration_median_ns = 0;
  std::int64_t wait_ns = 0;
};

struct SyncAnalysis {
  std::vector<InstanceSync> instances;
  std::vector<RankSync> ranks;              // by rank
  std::vector<CollectiveSync> collectives;  // by name
  std::vector<std::int32_t> straggler_order;
  std::uint64_t violations = 0;  // instances whose true duration is negative
};

SyncAnalysis analyze_sync(const CrossRankInput& input, const HostAlignment& alignment);

}  // namespace npkit

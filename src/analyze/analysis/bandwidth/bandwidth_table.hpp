// analysis/bandwidth/bandwidth_table.hpp — nccl-tests-style bandwidth rows, latency distributions
// and switch points of a run's collective instances (run/run.hpp), whatever the input.
// Contract (the definitions docs/phases.md's glossary names):
// - One row per (communicator, func, S, algo, proto, type). count is nccl-tests'
//   count(elements); instances counts the row's instances, timed_instances those with at least
//   one timed member; ranks lists the ranks with at least one timed member.
// - time = mean over ranks of each rank's median GPU time over the row's instances (nccl-tests
//   averages ranks); algbw = S / time (GB/s = bytes per ns), busbw = algbw × the nccl-tests
//   factor with n = the communicator's nranks.
// - period (the back-to-back period) = mean over ranks of each rank's period. A rank's pairs of
//   a row are operations adjacent in its stream (order) that belong to the row, are both timed
//   and were not launched in one group; back to back: the second's launch before the first's end,
//   so no host synchronisation lies between them. A burst is a chain of back-to-back pairs (each
//   pair's second operation the next pair's first); the rank's period is its longest burst's
//   elapsed time (first start to last start) over the launch intervals it spans, the last of
//   equally long bursts: the timed loop whose elapsed time over N launches nccl-tests' time(us)
//   measures (without the last launch's own time), not a warm-up burst before it, and the mean
//   of the burst's pairs, not their median (they differ when the pairs are not symmetric, e.g.
//   alternating 20.3, 20.3, 13.5 ms). A rank without a back-to-back pair (or an input without
//   launch times) has no burst to tell from the gaps between bursts: its period is the median
//   of all its pairs. RankMedian::period_pairs and period_median_ns: the count and median of the
//   rank's back-to-back pairs, or of all its pairs when it has none (a spread measure). Send/Recv
//   rows have none.
// - true time = median over the instances timed on all nranks ranks (a Send/Recv pair: its two
//   ends) of (last rank's end − last rank's start); only when the ranks' times are on one clock
//   (every rank on one host, or no host named).
// - channels = the most channels any member ran on. stale_instances: instances with a stale
//   member (its GPU time was another work's, run/run.hpp); host_disagree_instances: instances
//   whose times of one host disagree (a rank completed before another rank of its host arrived,
//   run/time_quality.hpp: the clock or the data are wrong, and so may be the row's times);
//   short_instances: instances with an implausibly short member (run/time_quality.hpp); flags()
//   what the row's numbers rest on.
// - compute time (where members have NCCL's kernel phases, run/kernel_phases.hpp) = mean over the
//   ranks with such members of each rank's median compute phase over the row's instances;
//   compute busbw = S / compute time × the nccl-tests factor: the bandwidth of the kernel's
//   compute phase alone, its opening and closing syncs left out.
// - `coll` selects rows as --coll does: "all", or the lower-case key of the row's func
//   (run/nccl_names.hpp coll_key: "allreduce", ..., "alltoall", "sendrecv").
// - Latency distributions: per (communicator, func, algo, proto, power-of-two bucket [2^k,
//   2^(k+1)) of S), every timed member of every instance (Send/Recv pairs left out): count, min,
//   p10, p50, p90, p99, max (util/quantiles.hpp, type 7). Bucket 0 holds S = 0.
// - Switch points: per (communicator, func) with an algorithm, sizes in increasing order; the
//   choice at a size is the (algo, proto) with the most instances there (first in name order on a
//   tie); a switch point is the first size whose choice differs from the previous size's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/run.hpp"

namespace npkit {

struct RankMedian {
  std::int32_t rank = 0;
  std::uint64_t instances = 0;
  double median_ns = 0;
  std::uint64_t period_pairs = 0;
  double period_ns = 0;         // when period_pairs > 0: its longest burst's, or the median pair
  double period_median_ns = 0;  // when period_pairs > 0: the median pair (a spread measure)
};

struct BandwidthRow {
  std::uint64_t comm_hash = 0;
  std::int32_t nranks = 0;
  std::string func;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;
  std::string algo;
  std::string proto;
  std::uint64_t instances = 0;
  std::uint64_t timed_instances = 0;
  std::uint64_t not_sampled_instances = 0;  // left out by a sampling capture (RunInstance)
  std::uint64_t stale_instances = 0;  // a member's GPU time was another work's (run.hpp stale)
  std::uint64_t host_disagree_instances = 0;  // times of one host disagree (time_quality.hpp)
  std::uint64_t short_instances = 0;  // a member's time implausibly short (time_quality.hpp)
  std::vector<RankMedian> ranks;
  double time_ns = 0;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::uint64_t true_instances = 0;
  std::optional<double> true_time_ns;
  double true_algbw_gbps = 0;
  double true_busbw_gbps = 0;
  std::uint64_t period_pairs = 0;  // over all ranks
  std::optional<double> period_ns;
  double period_algbw_gbps = 0;
  double period_busbw_gbps = 0;
  std::uint32_t channels = 0;
  std::optional<double> compute_ns;  // kernel phases' compute time
  double compute_busbw_gbps = 0;

  // What a reader of the row's numbers must know first (flags, in this order): "sampled k of n"
  // where a sampling capture timed k of the n instances on purpose ("none sampled" for k = 0);
  // "untimed" (no sampled instance timed) or "few timed" (fewer than kTimedFloor of the sampled
  // instances: the time rests on a few),
  // "<N> stale" (N instances lost a rank's time to timestamps of other work), and
  // "<N> host-disagree" (N instances have a rank completing before another rank of its host
  // arrived) and "<N> short" (N instances have a member implausibly short, run/time_quality.hpp).
  std::vector<std::string> flags() const;
};

struct LatencyBucket {
  std::uint64_t comm_hash = 0;
  std::string func;
  std::string algo;
  std::string proto;
  std::uint64_t bucket_bytes = 0;  // 2^k, or 0
  std::uint64_t count = 0;
  double min_ns = 0;
  double p10_ns = 0;
  double p50_ns = 0;
  double p90_ns = 0;
  double p99_ns = 0;
  double max_ns = 0;
};

struct SwitchPoint {
  std::uint64_t comm_hash = 0;
  std::string func;
  std::uint64_t below_bytes = 0;  // the previous size
  std::uint64_t at_bytes = 0;     // the first size with the new choice
  std::string from_algo, from_proto, to_algo, to_proto;
  double busbw_below_gbps = 0;
  double busbw_at_gbps = 0;
};

// Ordered by communicator, func, S, algo, proto and type.
std::vector<BandwidthRow> bandwidth_rows(const Run& run, std::string_view coll);

// Ordered by communicator, func, algo, proto and bucket.
std::vector<LatencyBucket> latency_distributions(const Run& run);

// `rows` as bandwidth_rows returns them.
std::vector<SwitchPoint> switch_points(const std::vector<BandwidthRow>& rows);

}  // namespace npkit

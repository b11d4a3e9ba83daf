// analysis/bandwidth/profiler_bandwidth.hpp — nccl-tests-style bandwidth rows from joined
// collective instances. Contract:
// - One row per (communicator, func, S bytes, algo, proto, type), S = nccl-tests' size(B) (see
//   profiler_collectives.hpp); an instance's row comes from its lowest-rank member. count is
//   nccl-tests' count(elements): S / element size, and / nranks for AllGather, ReduceScatter and
//   AlltoAll (nccl-tests prints the per-rank count there); 0 when the element size is unknown.
// - time = mean over ranks of each rank's median GPU span over the row's instances (nccl-tests
//   averages ranks by default); algbw = S / time (GB/s = bytes per ns), busbw = algbw × the
//   nccl-tests factor with n = the communicator's nranks.
// - period (the back-to-back period) = mean over ranks of each rank's median, over pairs, of
//   (GPU start of the next − GPU start of this) for consecutive operations of the rank's file in
//   host start order (its stream order) that belong to the same row, both with a GPU span, with
//   no other operation of the file between them and not launched in one group (same GroupApi).
//   Of a rank's pairs of a row only those launched back to back count — the second operation's
//   API call (api_start_ns) before the first's GPU stop, so no host synchronisation lies between
//   them — unless it has none such, when all count (the host issues operations more slowly than
//   the GPU runs them). Send/Recv pairs have none. period algbw/busbw use it as time does. It is
//   what nccl-tests' wall clock over N back-to-back launches / N tends to for large N: nccl-tests'
//   figure adds its loop's start-up (first launch latency, the wait for the last rank) / N.
// - true time = median over the instances held by all nranks ranks, each with a GPU span, of
//   (last rank's GPU stop − last rank's GPU start); for a Send/Recv pair, over its two ends.
//   true algbw/busbw use it the same way. Absent when no instance qualifies.
// - Send/Recv pairs form "SendRecv" rows (no algo/proto); derived AlltoAll rows have none either.
// - `coll` selects rows as --coll does: all, allreduce, allgather, reducescatter, alltoall,
//   broadcast, reduce, sendrecv.
// - channels = the most channels (Coll nChannels) any member of the row's instances ran on.
// - Latency distributions: per (communicator, func, algo, proto, power-of-two bucket [2^k,
//   2^(k+1)) of S), every rank's GPU span of every collective instance (Send/Recv pairs left out):
//   count, min, p10, p50, p90, p99, max (util/quantiles.hpp, type 7). Bucket 0 holds S = 0.
// - Switch points: per (communicator, func) with an algorithm, sizes in increasing order; the
//   choice at a size is the (algo, proto) with the most instances there (first in name order on a
//   tie); a switch point is the first size whose choice differs from the previous size's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/npkt/communicator_join.hpp"

namespace npkit {

struct RankMedian {
  std::int32_t rank = 0;
  std::uint64_t instances = 0;
  double median_ns = 0;
  std::uint64_t period_pairs = 0;
  double period_median_ns = 0;  // when period_pairs > 0
};

struct ProfilerBandwidthRow {
  std::uint64_t comm_hash = 0;
  std::int32_t nranks = 0;
  std::string func;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;  // bytes / element size of type (0 when unknown)
  std::string type;
  std::string algo;
  std::string proto;
  std::uint64_t instances = 0;
  std::uint64_t untimed_instances = 0;  // no member has a GPU span
  std::vector<RankMedian> ranks;        // ranks with at least one GPU span
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

bool valid_profiler_coll(std::string_view coll);
std::string profiler_coll_list();

std::vector<ProfilerBandwidthRow> bandwidth_rows(const std::vector<Communicator>& comms,
                                                 std::string_view coll);

// Ordered by communicator, func, algo, proto and bucket.
std::vector<LatencyBucket> latency_distributions(const std::vector<Communicator>& comms);

// `rows` as bandwidth_rows returns them (grouped by communicator and func, sizes ascending).
std::vector<SwitchPoint> switch_points(const std::vector<ProfilerBandwidthRow>& rows);

}  // namespace npkit

// run/cross_rank_input.hpp — what the cross-rank analysis reads: collective instances joined
// across ranks, each rank's host, its phase totals and (NET transport) proxy wait states, and the
// gaps the join found.
// Contract:
// - A JoinedInstance holds one (start, end) per rank that took part, on that rank's own host
//   clock (host/GPU conversion already applied; cross-host offsets are NOT applied: the analysis
//   estimates them, analysis/align/host_offsets.hpp). start = the rank's arrival at the collective,
//   end = its completion. Ranks are listed in increasing rank order, each at most once.
// - RankInfo.host names the machine whose clock the rank's times are on; ranks with the same
//   host share a clock. An empty host means "unknown": CrossRankInput::hosts_known is false and
//   the analysis treats every rank as one host (legacy NPKit dumps carry no hostname).
// - phases: per rank, time per phase name (exclusive time, analysis/phases/phase_breakdown.hpp) and
// the
//   reference time shares are taken of; empty when the source has no phases.
// - gaps: what the join could not join or found inconsistent, per scope (a communicator, or an
//   event name and buffer); the analysis reports them and never uses what they exclude.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npkit {

struct RankTimes {
  std::int32_t rank = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

struct JoinedInstance {
  std::string collective;   // "AllReduce", "ALL_REDUCE_RING"
  std::string label;        // identifies the instance for a reader: "AllReduce seq 5"
  std::uint64_t bytes = 0;  // nccl-tests' S where known, else the event's size field
  std::vector<RankTimes> ranks;
};

struct PhaseTime {
  std::string phase;
  std::int64_t ns = 0;
};

// Proxy step time of a rank (NET transport): network waits (SendWait, RecvWait, RecvFlushWait)
// and waits for the GPU or the peer (SendGPUWait, SendPeerWait, RecvGPUWait).
struct NetWait {
  std::int64_t step_ns = 0;
  std::int64_t network_ns = 0;
  std::int64_t gpu_peer_ns = 0;
  std::uint64_t steps = 0;
};

struct RankInfo {
  std::int32_t rank = 0;
  std::string host;               // "" = unknown
  std::int64_t reference_ns = 0;  // what phase shares are of (e.g. GPU collective time)
  std::vector<PhaseTime> phases;  // empty: no phases
  std::optional<NetWait> net;     // only with NET transport proxy steps
  // How far the rank's GPU times on the host clock may be off (±, ns); unknown when empty.
  std::optional<double> clock_uncertainty_ns;
};

struct JoinGap {
  std::string scope;   // "comm 0123456789abcdef", "ALL_REDUCE_RING buffer 3"
  std::string kind;    // "seq jump", "missing ranks", "count mismatch", "size mismatch", ...
  std::string detail;  // the numbers: which rank has how many, which seq is missing, ...
};

struct CrossRankInput {
  std::string scope;        // what the instances belong to: "comm ...", or the dump path
  std::string time_source;  // what start/end are, for the reader
  std::int32_t nranks = 0;
  bool hosts_known = false;
  std::vector<RankInfo> ranks;  // by rank
  std::vector<JoinedInstance> instances;
  std::vector<JoinGap> gaps;
};

}  // namespace npkit

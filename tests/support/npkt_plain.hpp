// npkt_plain.hpp — a second, deliberately plain computation of what the analyzer reports from real
// .npkt profiler captures, for the real tests. It shares no code with the analyzer: the bytes
// are read by dump_bytes_reader, and each figure is rebuilt here the simplest way the contracts
// define it (docs/format.md; the comments of model/profiler_collectives.hpp,
// model/profiler_kernel_channels.hpp, model/profiler_alltoall.hpp,
// import/npkt/proxy_step_breakdown.hpp and sync/instance_sync.hpp), with no attempt at speed.
// Contract:
// - read_capture(dir) reads every .npkt file of dir, and every .npkt.gz file decompressed
//   (REQUIREs that each parses without a problem), and returns one Rank per file, by rank.
// - Clock: per `when` the sample with the narrowest host bracket; offset = gpu − bracket middle;
//   two samples give a drift linear in GPU time; host(g) = g − round(offset(g)). uncertainty =
//   the larger half bracket of those samples, plus how far any other sample lies from the fit
//   beyond its own half bracket.
// - Op: one Coll or P2p event, or an AlltoAll recognised from a GroupApi holding one Send and one
//   Recv per rank (itself included) and nothing else (its Send/Recv are then not ops). func,
//   algo, proto and type are the Strings names (type from the API parent when there is one);
//   bytes is nccl-tests' size. KernelCh children: open when a timestamp is missing, stale when
//   the GPU start lies before the API call − tolerance or after the proxy noticed it +
//   tolerance, the stop before the start, or after the start of a later work on its channel
//   (tolerance = uncertainty + 5 µs, rounded). timed when every one is valid (none open, none
//   stale); the span is min start .. max stop of them, on the host clock. A GroupApi group
//   whose valid channels start more than the tolerance before the last stop of the groups
//   called before it is untimed, with the one of those stopping last: one communicator's kernels
//   never run at the same time.
// - ProxySteps: per rank, each stopped ProxyStep's stop − start, cut by its state marks
//   (clamped into the span) into net_send (9), net_recv (10, 11), sync (8, 20, 12) and other;
//   ring AllReduce steps (ProxyOp under a RING AllReduce Coll) split by ring position.
// - join(ranks): instances across ranks keyed by (func, seq); AlltoAll by its k-th index.
// - sync(instances): over the instances timed on two ranks or more (host clock): per instance
//   the spread (last arrival − first), the true duration (last completion − last arrival), a
//   same-host violation when a rank completed before the last arrival; per rank the skew (last
//   arrival − own), the skew from the first (own − first arrival), the wait (skew capped by its
//   own span, never below 0), busy time, arrivals last (ties: each) and their margin (last
//   arrival − the latest other arrival); per function the spread, true duration and wait.
// - read_event_capture(dir): the event records (format minor 1) of every .npkt file of dir,
//   paired per stream (X_ENTRY opens, X_EXIT closes the innermost open X; REQUIREs that they
//   nest cleanly, as the real captures do), on the host clock
//   (%globaltimer streams through the file's clock samples, host streams as they are), with
//   each span's depth and exclusive time (its time minus its direct children's).
// - quantile(v, q): type 7 (linear between order statistics); v need not be sorted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace npkit::test::plain {

struct Clock {
  std::uint64_t gpu0 = 0;
  double offset0 = 0;
  double drift = 0;
  double uncertainty_ns = 0;
  std::int64_t host(std::uint64_t gpu_ns) const;
};

struct Op {
  std::string func;  // "AllReduce", "Send", "AlltoAll", ...
  std::string algo;
  std::string proto;
  std::string type;  // the user's data type
  std::uint64_t seq = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;  // nccl-tests' size(B)
  std::int32_t peer = -1;   // Send/Recv
  std::uint64_t group = 0;  // GroupApi event id, 0 when none
  std::int64_t host_start_ns = 0;
  std::uint32_t kernel_channels = 0;
  std::uint32_t stale_channels = 0;
  bool timed = false;
  bool overlapping = false;  // untimed: its group overlapped another on the GPU
  bool ran = false;          // some KernelCh child is valid: ran_start_ns .. ran_stop_ns of those
  std::int64_t ran_start_ns = 0;
  std::int64_t ran_stop_ns = 0;
  std::int64_t gpu_start_ns = 0;  // host clock
  std::int64_t gpu_stop_ns = 0;
  bool in_alltoall = false;  // a Send/Recv that is part of an AlltoAll op
  std::int64_t span_ns() const { return gpu_stop_ns - gpu_start_ns; }
};

struct ProxyTotals {
  std::uint64_t steps = 0;
  std::uint64_t never_stopped = 0;
  std::int64_t step_ns = 0;
  std::int64_t net_send_ns = 0;
  std::int64_t net_recv_ns = 0;
  std::int64_t sync_ns = 0;
  std::int64_t other_ns = 0;
  std::uint64_t ring_steps = 0;
  std::int64_t ring_reduce_scatter_ns = 0;
  std::int64_t ring_all_gather_ns = 0;
};

struct Rank {
  std::int32_t rank = 0;
  std::int32_t nranks = 0;
  std::string hostname;
  Clock clock;
  std::vector<Op> ops;  // host start order; AlltoAll Send/Recv kept with in_alltoall set
  ProxyTotals proxy;
};

std::vector<Rank> read_capture(const std::string& dir);

struct Instance {
  std::string func;
  std::uint64_t key = 0;  // seq, or the AlltoAll's index
  std::map<std::int32_t, const Op*> by_rank;
};

// Collective instances (Coll and AlltoAll ops; plain Send/Recv left out), keyed across ranks.
std::vector<Instance> join(const std::vector<Rank>& ranks);

struct RankSync {
  std::uint64_t instances = 0;
  std::uint64_t arrived_last = 0;
  std::vector<double> skew;             // last arrival − own
  std::vector<double> skew_from_first;  // own − first arrival
  std::vector<double> margins;          // where it arrived last
  std::int64_t wait_ns = 0;
  std::int64_t busy_ns = 0;
};

struct FuncSync {
  std::uint64_t instances = 0;
  std::vector<double> spread;
  std::vector<double> true_duration;
  std::int64_t wait_ns = 0;
};

struct Sync {
  std::uint64_t compared = 0;
  std::uint64_t violations = 0;
  std::int64_t violation_max_ns = 0;
  std::map<std::int32_t, RankSync> ranks;
  std::map<std::string, FuncSync> funcs;
};

Sync sync(const std::vector<Instance>& instances);

struct Span {
  std::string name;  // without _ENTRY / _EXIT
  bool gpu = false;  // a GPU block or warp stream (else a host thread)
  std::size_t stream = 0;
  std::int64_t start_ns = 0;  // host clock
  std::int64_t stop_ns = 0;
  std::uint64_t size = 0;  // the ENTRY's size
  int depth = 0;           // 0 = top level
  std::string top;         // the name of its top-level span (its own at depth 0)
  std::int64_t exclusive_ns = 0;
  std::int64_t ns() const { return stop_ns - start_ns; }
};

struct EventRank {
  std::int32_t rank = 0;
  std::int32_t nranks = 0;
  std::string hostname;
  Clock clock;
  std::size_t streams = 0;
  std::uint64_t gpu_records = 0;
  std::vector<Span> spans;  // per stream in stream order, each stream's in EXIT order
};

std::vector<EventRank> read_event_capture(const std::string& dir);

double quantile(std::vector<double> v, double q);
inline double median(std::vector<double> v) {
  return quantile(std::move(v), 0.5);
}

}  // namespace npkit::test::plain

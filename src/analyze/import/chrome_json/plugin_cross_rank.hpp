// import/chrome_json/plugin_cross_rank.hpp — the collectives of profiler-plugin JSON traces, joined
// across ranks per communicator, as the cross-rank analysis reads them (run/cross_rank_input.hpp)
// and as nccl-tests-style rows.
// Contract:
// - A communicator's ranks are the traces with its CommHash (a second trace of a (comm, rank) is
//   ignored with a warning); nranks = the highest rank + 1 (the traces do not say it).
// - Instances: collectives joined by (function, SeqNum); the k-th occurrence of a key on a rank
//   joins the k-th on the others. A rank's (start, end) = its collective's start and end; one that
//   never ended is left out of the instance. bytes = nccl-tests' S (Count × data type size, × n
//   for AllGather / ReduceScatter / AlltoAll); label "AllReduce seq 5".
// - An instance whose members disagree on Count, data type, algorithm or protocol is not used:
//   a "count mismatch" gap names it.
// - Gaps (the example plugin drops events when a fixed-size pool is full, and keeps only the
//   newest ones when it wraps): "seq jump" per rank and function — SeqNum values missing between
//   the lowest and highest seen, with how many; "seq start" when a rank's lowest SeqNum of a
//   function is above 0 (the oldest ones are gone, or the trace began late); "missing ranks"
//   (instances some ranks lack, the first few named); "absent ranks" (ranks without a trace).
//   Each gap is also a "SeqNum gaps" / "missing ranks" warning.
// - Clocks: each example-plugin process counts µs from its own plugin init, so every rank is its
//   own "host" ("process PID, rank R"); the analysis estimates one offset per rank from the joined
//   instances and reports their uncertainty (analysis/align/host_offsets.hpp). Our traces of .npkt
//   dumps name the real host; ranks on one host share its clock.
// - Rows: one per (function, S, algorithm, protocol, data type) of the communicator: instances,
//   time = mean over ranks of each rank's median duration (end − start, on its own clock: no
//   offset enters), algbw = S / time and busbw with the nccl-tests factor for nranks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/chrome_json/plugin_trace_decoder.hpp"
#include "run/cross_rank_input.hpp"
#include "util/diagnostics.hpp"

namespace npkit::ingest {

struct PluginCollRow {
  std::string func;
  std::string algo;
  std::string proto;
  std::string datatype;
  std::uint64_t bytes = 0;  // nccl-tests' S
  std::uint64_t instances = 0;
  std::uint32_t ranks = 0;
  std::uint32_t channels = 0;  // the most any member ran on
  double time_ns = 0;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
};

struct PluginCommunicator {
  std::uint64_t comm_hash = 0;
  std::int32_t nranks = 0;
  std::vector<const PluginRankTrace*> ranks;  // by rank
  CrossRankInput input;
  std::vector<PluginCollRow> rows;
};

// `traces` must outlive the result. Communicators in CommHash order. `time_source` says what the
// start and end times are (for the reader).
std::vector<PluginCommunicator> join_plugin_traces(const std::vector<PluginRankTrace>& traces,
                                                   const std::string& time_source,
                                                   Diagnostics& diagnostics);

}  // namespace npkit::ingest

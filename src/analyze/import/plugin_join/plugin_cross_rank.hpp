// import/plugin_join/plugin_cross_rank.hpp — the collectives of profiler-plugin traces (Chrome
// JSON of NCCL's example plugin or of our .npkt dumps, NCCL Inspector logs), joined across ranks
// per communicator into the run model (run/run.hpp).
// Contract:
// - A communicator's ranks are the traces with its CommHash (a second trace of a (comm, rank) is
//   ignored with a warning); nranks = the largest of the traces' nranks and the highest rank + 1
//   (the example plugin's traces do not say it).
// - Instances: collectives joined by (function, SeqNum); the k-th occurrence of a key on a rank
//   joins the k-th on the others. A rank's member is timed from its collective's start to its
//   end; one that never ended is untimed. bytes = nccl-tests' S (Count × data type size, × n for
//   AllGather / ReduceScatter / AlltoAll; a trace that names no data type gives the rank's bytes
//   in PluginColl::bytes instead, and count is 0), count its count column, type the data type's
//   NCCL name; label "AllReduce seq 5"; order = the collective's position in its trace.
// - Gaps (import/join_gaps.hpp): "count mismatch" (agree = false), "seq jump" and "seq start" per
//   rank and function (the example plugin drops events when a fixed-size pool is full, and keeps
//   only the newest ones when it wraps; `causes` words why for the reader), "absent ranks" and
//   "missing ranks", each warned about.
// - Clocks: each example-plugin process counts µs from its own plugin init, so every rank is its
//   own "host" ("process PID (rank R)"); the analysis estimates one offset per rank from the
//   joined instances and reports their uncertainty (analysis/align/host_offsets.hpp). Our traces
//   of .npkt dumps name the real host; ranks on one host share its clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/join_gaps.hpp"
#include "import/plugin_join/plugin_rank_trace.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct PluginCommunicator {
  std::uint64_t comm_hash = 0;
  std::int32_t nranks = 0;
  std::vector<const PluginRankTrace*> ranks;  // by rank
  RunCommunicator run;
};

// `traces` must outlive the result. Communicators in CommHash order. `time_source` says what the
// start and end times are (for the reader).
std::vector<PluginCommunicator> join_plugin_traces(const std::vector<PluginRankTrace>& traces,
                                                   const std::string& time_source,
                                                   Diagnostics& diagnostics,
                                                   const SeqGapCauses& causes = {});

}  // namespace npkit

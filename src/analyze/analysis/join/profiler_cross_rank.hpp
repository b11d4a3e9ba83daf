// analysis/join/profiler_cross_rank.hpp — one communicator of profiler-plugin dumps as cross-rank
// analysis input, with the gaps of its join. Contract:
// - Instances: the communicator's collective instances (Coll events and derived AlltoAll; Send/Recv
//   pairs are left out), each rank's (start, end) = its GPU span in host time; members without a
//   GPU span are left out of the instance. collective = the function's name, bytes = nccl-tests'
//   S, label = "AllReduce seq 5" (with " (occurrence k)" for a repeated key).
// - An instance whose members disagree on count, data type, algorithm or protocol is not used
//   (a "count mismatch" gap names the instance and each rank's values): they cannot be one
//   operation.
// - Gaps per communicator: "seq jump" (a rank's Coll seq numbers of a function skip values:
//   which, and how many are missing), "missing ranks" (instances some ranks lack: how many, the
//   first few named), "dropped records" (a file's records_dropped / records_incomplete),
//   "absent ranks" (ranks without a file).
// - Ranks: host = the file's hostname metadata (hosts_known when every file names one); with
//   NET proxy steps (proxy_step_breakdown), phases net_send, net_recv, sync and other of the step
//   time (reference = step time) and NetWait.
#pragma once

#include "import/npkt/communicator_join.hpp"
#include "run/cross_rank_input.hpp"

namespace npkit {

CrossRankInput profiler_cross_rank_input(const Communicator& comm);

}  // namespace npkit

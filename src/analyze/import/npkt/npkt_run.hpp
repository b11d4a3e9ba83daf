// import/npkt/npkt_run.hpp — the run model (run/run.hpp) of .npkt captures joined into
// communicators (import/npkt/communicator_join.hpp).
// Contract:
// - One RunCommunicator per Communicator, in the same order; its ranks name the host of each
//   file ("" when a file lacks it) and the GPU clock method with its uncertainty.
// - One RunInstance per CollectiveInstance, in the same order: bytes, type, algo and proto from
//   the lowest rank's operation; count = S / element size, / nranks for AllGather, ReduceScatter
//   and AlltoAll (nccl-tests' count column). A member is timed when its operation has a GPU span
//   (every KernelCh channel timed, import/npkt/profiler_collectives.hpp); order is the
//   operation's index in its file's operations (Send/Recv inside a derived AlltoAll replaced by
//   the AlltoAll) in host start order; group its GroupApi; launch_ns its API call's start;
//   progress from its events (import/npkt/operation_progress.hpp), known for a communicator when
//   every rank's capture recorded KernelCh events; each rank's capture_end_ns from its file.
// - Gaps, per communicator: "dropped records" (a file whose buffer dropped records or left
//   incomplete ones), then those of every join by (function, seq) (import/join_gaps.hpp): "seq
//   start" and "seq jump" of the rank's collectives (not Send/Recv, copy-engine collectives or
//   derived AlltoAll), "absent ranks", "missing ranks" and "count mismatch" (agree = false), each
//   warned about in `diagnostics`.
#pragma once

#include <string>
#include <vector>

#include "import/npkt/communicator_join.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

Run npkt_run(const std::string& path, const std::vector<Communicator>& comms,
             Diagnostics& diagnostics);

}  // namespace npkit

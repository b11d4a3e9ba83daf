// import/npkt/operation_progress.hpp — where one rank's operation stood when its capture ended,
// read from the events under its Coll or P2p event (nccl-profiler-api.md 3.3: a Coll stops once
// enqueued; its KernelCh children start and stop as the proxy thread sees each channel of the
// kernel start and finish; its ProxyOp children carry the network steps).
// Contract:
// - kernel_channels_captured false (the capture's event mask lacks KernelCh): kCompletionUnknown.
// - kCompleted: at least one KernelCh child, every one stopped, and at least as many distinct
//   channels as the operation's channel count (where the operation gives one; P2p counts are
//   not trusted), and no open proxy step (below); kProxyPending: the kernel is complete but a
//   proxy step is open. kKernelRunning: some KernelCh child started but the kernel is not complete;
//   `running` lists the channels started and not stopped, `finished` counts those stopped.
//   kEnqueued: no KernelCh child.
// - proxy: of the open ProxyOp children, the open ProxyStep with the highest step (1-based), its
//   op's channel, peer, direction and step count, and the name of its last state ("" when none;
//   `state_name` names state numbers). Absent where no proxy step is open.
// - last_event_ns: the latest host time of any record of the operation and its descendants.
// - detail is filled only for an operation not kCompleted (the others need none).
// A derived AlltoAll (no event of its own) is kCompleted when it has a GPU span, else
// kCompletionUnknown. A copy-engine collective (CeColl) is kCompletionUnknown: NCCL records no GPU
// progress of its copies; last_event_ns covers its CeSync/CeBatch children.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "import/npkt/profiler_collectives.hpp"
#include "import/npkt/profiler_events.hpp"
#include "run/run.hpp"

namespace npkit {

struct OperationProgress {
  Progress state = Progress::kCompleted;
  InFlightDetail detail;  // instance and rank left for the caller
};

OperationProgress operation_progress(const ProfilerEvents& events, const ProfilerCollective& op,
                                     bool kernel_channels_captured,
                                     const std::function<std::string(std::uint32_t)>& state_name);

}  // namespace npkit

// import/npkt/proxy_step_breakdown.hpp — where one rank's NET proxy steps spend their time, cut
// from a capture's ProxyStep records into the run model's aggregate (run/proxy_steps.hpp).
// Contract:
// - Each ProxyStep with a stop contributes stop − start (a stop before the start counts 0). Its
//   state marks cut that span in record order: [start, first mark) is "other" (before any
//   state), then each state holds until the next mark or the stop; marks outside the span are
//   clamped into it, so a step's intervals always sum to its duration.
// - States map to phases: SendWait (9) -> net_send; RecvWait (10), RecvFlushWait (11) ->
//   net_recv; SendGPUWait (8), SendPeerWait (20), RecvGPUWait (12) -> sync; anything else
//   -> other. explained = (net_send + net_recv + sync) / step time.
// - Steps never stopped are counted, not timed: NCCL restarts recv steps and drops the first
//   handle (reference 3.4), so some are normal.
// - Ring AllReduce (the step's ProxyOp's parent is a Coll AllReduce with algo RING): a step's
//   ring position is (step / t) mod 2(n − 1), t = transfers per ring step (2 for SIMPLE, where
//   NCCL 2.28 moves a chunk of 4 NCCL steps in slices of 2; 1 for LL and LL128), n = nranks.
//   Positions below n − 1 are reduce_scatter, the rest all_gather (the first n − 1 sends of a
//   ring loop reduce, the last n − 1 forward the reduced chunks). Other steps count as
//   not_ring_allreduce.
#pragma once

#include "import/npkt/profiler_capture.hpp"
#include "run/proxy_steps.hpp"

namespace npkit {

ProxyStepBreakdown proxy_step_breakdown(const RankCapture& capture);

}  // namespace npkit

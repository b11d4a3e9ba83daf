// import/inspector/inspector_proxy_steps.hpp — an Inspector log's proxy steps (format v4.3,
// import/inspector/inspector_proxy_record.hpp) added into the run model's per-rank aggregate
// (run/proxy_steps.hpp), cut as a .npkt capture's steps are (import/npkt/proxy_step_breakdown.hpp).
// Contract:
// - A step with total_us counts as stopped: step time += total; each phase the writer timed goes
//   to its state and phase — send: gpu_produce (SendGPUWait) and peer_credit (SendPeerWait) to
//   sync, wire (SendWait) to net_send; recv: wire (RecvWait) and flush (RecvFlushWait) to
//   net_recv, gpu_consume (RecvGPUWait) to sync. What the timed phases leave of the total (before
//   the first state, or a phase the writer could not time) is other; phases that add up to more
//   than the total leave other at 0. A step without total_us never stopped: counted, not timed.
// - The log names no ring position: every step counts as not_ring_allreduce. Times are µs × 1000.
#pragma once

#include "import/inspector/inspector_proxy_record.hpp"
#include "run/proxy_steps.hpp"

namespace npkit {

void add_proxy_steps(ProxyStepBreakdown& b, const InspectorProxyTrace& t);

}  // namespace npkit

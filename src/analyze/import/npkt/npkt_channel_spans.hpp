// import/npkt/npkt_channel_spans.hpp — the channel spans (run/channel_span.hpp) of a .npkt
// communicator inside a time window.
// Contract:
// - Every span of the communicator's ranks that overlaps [lo_ns, hi_ns] (host time): valid
//   KernelCh events (stale and open ones left out; GPU time through the rank's clock fit, a rank
//   whose clock is unusable has none) as kGpu spans, and stopped ProxyOp events as kProxySend /
//   kProxyRecv. op: the Coll or P2p event each belongs to (a derived AlltoAll's members are their
//   Send/Recv); label "AllReduce seq 5", "Send peer 1 #3".
// - Ranks in the communicator's order, each rank's spans in event order.
#pragma once

#include <cstdint>
#include <vector>

#include "import/npkt/communicator_join.hpp"
#include "run/channel_span.hpp"

namespace npkit {

std::vector<ChannelSpan> npkt_channel_spans(const Communicator& comm, std::int64_t lo_ns,
                                            std::int64_t hi_ns);

}  // namespace npkit

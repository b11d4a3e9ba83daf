// The built-in phase rules. docs/phases.md explains each line; keep the two in step.
#include "run/phase_map.hpp"

namespace npkit {

std::string_view PhaseMap::builtin_text() {
  return R"(# pattern                                    phase             collective  algorithm
# Whole collectives: their own time outside any step is "other"; FUNC/ALGO enable per-collective
# bandwidth.
ALL_REDUCE_RING                                other             allreduce   ring
ALL_REDUCE_TREE_UPDOWN                         other             allreduce   tree
ALL_REDUCE_TREE_SPLIT                          other             allreduce   tree_split
ALL_GATHER_RING                                other             allgather   ring
REDUCE_SCATTER_RING                            other             reducescatter ring
BROADCAST_RING                                 other             broadcast   ring
KERNEL_ALLREDUCE                               other             allreduce   mscclpp
# Ring all-reduce steps (NPKit NCCL patch): the last reduce step also starts the all-gather.
ALL_REDUCE_RING_SEND                           reduce_scatter
ALL_REDUCE_RING_RECV_REDUCE_SEND               reduce_scatter
ALL_REDUCE_RING_DIRECT_RECV_REDUCE_COPY_SEND   reduce_scatter
ALL_REDUCE_RING_DIRECT_RECV_COPY_SEND          all_gather
ALL_REDUCE_RING_DIRECT_RECV                    all_gather
ALL_GATHER_RING_*                              all_gather
REDUCE_SCATTER_RING_*                          reduce_scatter
BROADCAST_RING_*                               broadcast
# Tree all-reduce.
ALL_REDUCE_TREE_UPDOWN_REDUCE                  reduce
ALL_REDUCE_TREE_UPDOWN_BROADCAST               broadcast
ALL_REDUCE_TREE_SPLIT_REDUCE_BROADCAST         reduce_broadcast
ALL_REDUCE_TREE_SPLIT_REDUCE                   reduce
ALL_REDUCE_TREE_SPLIT_BROADCAST                broadcast
# Point-to-point (send/recv, alltoall): sizes are per channel chunk, so no per-collective grouping.
SEND_RECV_SEND                                 p2p_send          sendrecv    p2p
SEND_RECV_RECV                                 p2p_recv          sendrecv    p2p
SEND_RECV_LOCAL_COPY                           local_copy        sendrecv    p2p
# Waiting for peers.
PRIM_*_WAIT_*                                  sync
EXECUTOR_WAIT                                  sync
EXECUTOR_RELAXED_WAIT                          sync
EXECUTOR_BARRIER                               sync
EXECUTOR_SEM_ACQUIRE                           sync
# Network proxy (CPU) events.
NET_SEND                                       net_send
NET_SEND_TEST                                  net_send
NET_TEST                                       net_send
NET_RECV                                       net_recv
NET_RECV_TEST                                  net_recv
CONN_*_WRITE                                   net_send
CONN_*_RECV_*                                  net_recv
NPKIT_INIT                                     init
# Everything else (primitives, data-process events) belongs to the phase around it.
*                                              inherit
)";
}

const PhaseMap& PhaseMap::builtin() {
  static const PhaseMap map = [] {
    auto parsed = PhaseMap::parse(builtin_text(), "built-in phase rules");
    return parsed ? *parsed : PhaseMap{};
  }();
  return map;
}

}  // namespace npkit

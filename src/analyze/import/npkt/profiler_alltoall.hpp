// import/npkt/profiler_alltoall.hpp — AlltoAll operations of one rank, recognised from grouped
// Send/Recv. NCCL runs AlltoAll as Send/Recv inside one group and emits no Coll event for it, so
// the only evidence is the P2p events, their P2pApi parents and the GroupApi above them. Contract:
// a GroupApi is an AlltoAll when it holds no CollApi and its P2p events are exactly one Send to and
// one Recv from every rank of the communicator, the rank itself included (ncclAlltoAll always adds
// them; without them a group is a plain exchange: at 2 ranks, a SendRecv), all with the same count
// and data type, for nranks >= 2. Each such group becomes one derived ProfilerCollective
// (func kAllToAll, event kNoEvent, seq = k-th AlltoAll of this rank in host start order, count =
// per-peer count, bytes = count × element size × nranks, host span = first P2p start .. last P2p
// stop, GPU span over all the group's KernelCh, group_api = the group, api_start_ns = its start)
// and its Send/Recv get in_alltoall = true. Anything else is left as plain Send/Recv; the scan says
// why nothing was found (no P2p events, P2p events without API parents, or no group of that
// shape). self_ops / self_ops_without_kernel_channels count the AlltoAll Send/Recv whose peer is
// the rank itself, and those of them with no KernelCh child (NCCL 2.28 runs the local copy
// without KernelCh events, so the GPU span leaves that copy out).
// alltoall_peer_traffic: per (peer, direction) over a rank's AlltoAll Send/Recv (in_alltoall),
// by peer then send before recv: operations, bytes (count × element size), and over the
// operations with a GPU span, their bytes, summed span time and bytes / time (GB/s).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/npkt_dump.hpp"
#include "import/npkt/profiler_collectives.hpp"
#include "import/npkt/profiler_events.hpp"
#include "run/alltoall_peers.hpp"

namespace npkit {

struct AlltoallScan {
  std::vector<ProfilerCollective> alltoalls;
  std::uint64_t p2p_events = 0;
  std::uint64_t p2p_without_group = 0;  // no P2pApi -> GroupApi ancestry (e.g. API v4)
  std::uint64_t groups_with_p2p = 0;
  std::uint64_t self_ops = 0;
  std::uint64_t self_ops_without_kernel_channels = 0;
  // Why no AlltoAll was recognised (empty when some were).
  std::string reason;
};

std::vector<AlltoallPeerTraffic> alltoall_peer_traffic(
    const std::vector<ProfilerCollective>& collectives, std::int32_t rank);

AlltoallScan find_alltoalls(const NpktDump& dump, const ProfilerEvents& events,
                            const HostGpuClock& clock, const KernelChannelCheck& check,
                            std::vector<ProfilerCollective>& collectives);

}  // namespace npkit

// run/alltoall_peers.hpp — one rank's AlltoAll traffic per (peer, direction): a per-rank aggregate
// of the run model (RunRank::alltoall_peers), filled by readers that see the Send/Recv inside an
// AlltoAll (.npkt profiler captures; import/npkt/profiler_alltoall.hpp says how).
// Contract: operations and bytes count every Send/Recv to or from the peer; timed, timed_bytes
// and time_ns those with a GPU span (time summed); gbps = timed_bytes / time_ns, 0 without one.
#pragma once

#include <cstdint>

namespace npkit {

struct AlltoallPeerTraffic {
  std::int32_t rank = 0;
  std::int32_t peer = 0;
  bool send = true;
  std::uint64_t operations = 0;
  std::uint64_t bytes = 0;
  std::uint64_t timed = 0;
  std::uint64_t timed_bytes = 0;
  std::int64_t time_ns = 0;  // summed GPU spans of the timed operations
  double gbps = 0;           // timed_bytes / time_ns; 0 without a timed operation
};

}  // namespace npkit

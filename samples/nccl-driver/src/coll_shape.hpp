// coll_shape.hpp — which collectives the driver runs and the nccl-tests byte conventions for them.
//
// Contract (pure functions, no CUDA, no NCCL):
// - A sweep size is the nccl-tests "-b/-e" byte size S requested for one row. shape_for() turns it
//   into the NCCL count argument and the send/receive byte counts exactly as nccl-tests does:
//   AllReduce, Broadcast and SendRecv: count = S / typesize (whole buffer).
//   AllGather, ReduceScatter, AlltoAll: per-rank count = floor(S / typesize / n), rounded down to a
//   multiple of 16 bytes; the row's size is count * typesize * n (may be slightly below S).
//   A shape whose count is 0 is not run (the row is skipped).
// - SendRecv is nccl-tests' sendrecv_perf: rank r sends S bytes to (r+1)%n and receives S bytes
//   from (r-1+n)%n in one group.
// - algbw = size / t (GB/s, 1 GB = 1e9 B); busbw = algbw * busbw_factor(): AllReduce 2(n-1)/n,
//   AllGather/ReduceScatter/AlltoAll (n-1)/n, Broadcast and SendRecv 1.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace npkit::driver {

enum class CollKind { kAllReduce, kAllGather, kReduceScatter, kAlltoAll, kBroadcast, kSendRecv };

// What --colls runs when not given: the five collectives, in this order.
const std::vector<CollKind>& default_colls();
// Every kind --colls accepts: the five and SendRecv.
const std::vector<CollKind>& known_colls();

// "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv".
std::string_view coll_name(CollKind kind);
// Parses one of the names above (case-insensitive); nullopt for anything else.
std::optional<CollKind> parse_coll(std::string_view name);

// The nccl-tests "redop" column: "sum" for AllReduce/ReduceScatter, "none" otherwise.
std::string_view redop_name(CollKind kind);
// The nccl-tests "root" column: 0 for Broadcast, -1 otherwise.
int root_rank(CollKind kind);

struct CollShape {
  std::size_t count = 0;       // the NCCL count argument of one call
  std::size_t send_bytes = 0;  // bytes read from the send buffer on each rank
  std::size_t recv_bytes = 0;  // bytes written to the receive buffer on each rank
  std::size_t size_bytes = 0;  // the row's size: max(send, recv), the S of algbw
};

// The nccl-tests shape of `kind` for requested size `bytes` on `nranks` ranks.
CollShape shape_for(CollKind kind, std::size_t bytes, std::size_t type_size, int nranks);

double busbw_factor(CollKind kind, int nranks);

// Sizes min, min*factor, ... up to and including max (nccl-tests -b/-e/-f). Empty if min > max.
// Requires min >= 1 and factor >= 2.
std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t factor);

}  // namespace npkit::driver

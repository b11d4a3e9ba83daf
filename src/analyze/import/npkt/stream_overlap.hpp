// import/npkt/stream_overlap.hpp — GPU spans that cannot be right. NCCL runs the kernels of one
// communicator one after another (they share its channels' connections), so on one rank two
// launches never run at the same time; where their GPU spans overlap, at least one holds
// timestamps of other work that the per-channel checks (profiler_kernel_channels.hpp) did not
// catch. Seen on real NCCL 2.30.7 AlltoAll at 4 and 8 ranks: back-to-back AlltoAlls a few µs
// apart whose spans covered the same 9 ms, against 14 µs the program's CUDA events measured.
// Contract:
// - A launch is the rank's operations under one GroupApi (group_api; they share a kernel): the
//   Coll and P2p operations not part of a derived AlltoAll, and the derived AlltoAll operations.
//   Operations without a GroupApi (profiler API v4) and those captured in a CUDA graph (replayed
//   later, so their launch order is unknown) take no part. A launch's span is the union of its
//   operations' valid-channel spans (the GPU span where there is one; an operation left untimed
//   by a stale channel still says when its valid channels ran); its launch time the earliest API
//   start of its operations.
// - In launch order, a launch whose span starts more than `tolerance_ns` before the latest end
//   of a launch before it overlaps that launch: both are marked. Every operation of a marked
//   launch, the Send/Recv of its AlltoAll included, loses its GPU span (has_gpu_span = false)
//   and gets stream_overlap = true: no time rather than a wrong one.
// - The result counts the operations that lost a GPU span so (a derived AlltoAll once, its
//   Send/Recv not) and names the first overlap that cost one: the earlier launch's first
//   operation and the later's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "import/npkt/profiler_collectives.hpp"

namespace npkit {

struct StreamOverlap {
  const ProfilerCollective* earlier = nullptr;
  const ProfilerCollective* later = nullptr;
  std::int64_t earlier_end_ns = 0;  // the earlier launch's span end (host clock)
  std::int64_t later_start_ns = 0;  // the later launch's span start
};

struct StreamOverlapCheck {
  std::uint64_t untimed = 0;
  std::optional<StreamOverlap> first;
};

StreamOverlapCheck untime_stream_overlaps(double tolerance_ns,
                                          std::vector<ProfilerCollective>& collectives,
                                          std::vector<ProfilerCollective>& alltoalls);

}  // namespace npkit

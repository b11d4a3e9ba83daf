// import/npkt/profiler_rank_summary.hpp — one rank's collectives by function.
// Contract: one row per NCCL function name present on the rank (derived AlltoAll included, the
// Send/Recv inside them not), in name order: operations, how many have a GPU span, their total
// and median GPU span (ns), their KernelCh events, how many of those are stale and how many
// operations have no GPU span because every KernelCh of theirs is stale.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/npkt/profiler_capture.hpp"

namespace npkit {

struct FuncSummary {
  std::string func;
  std::uint64_t count = 0;
  std::uint64_t timed = 0;
  std::int64_t total_ns = 0;
  double median_ns = 0;
  std::uint64_t kernel_channels = 0;
  std::uint64_t stale_channels = 0;
  std::uint64_t untimed_stale = 0;  // operations with a stale channel: untimed
};

std::vector<FuncSummary> summarize_by_func(const RankCapture& capture);

}  // namespace npkit

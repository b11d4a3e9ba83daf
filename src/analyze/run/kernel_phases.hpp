// run/kernel_phases.hpp — NCCL's own phases of a collective's kernel on one rank (NCCL profiler
// API v7 KernelPhase events: initial_sync, compute, final_sync), as the run model keeps them.
// Contract: the three times tile the span from the first channel's begin to the last channel's end
// (the member's GPU span where those stamps are its KernelCh's): initial_sync runs from the first
// channel's begin to the first start of compute on any channel, compute from there to the last
// end of compute on any channel, final_sync from there to the last channel's end (a channel
// without a phase has it zero long there). Each is >= 0 ns; channels counts the channels the
// phases came from.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace npkit {

inline constexpr std::size_t kKernelPhaseCount = 3;
// NCCL's names of phase ids 0, 1, 2 (src/plugin/profiler.cc, NCCL 2.31.2).
inline constexpr std::array<std::string_view, kKernelPhaseCount> kKernelPhaseNames = {
    "initial_sync", "compute", "final_sync"};

struct KernelPhaseTimes {
  std::array<std::int64_t, kKernelPhaseCount> ns{};  // by phase id
  std::uint32_t channels = 0;

  std::int64_t initial_sync_ns() const { return ns[0]; }
  std::int64_t compute_ns() const { return ns[1]; }
  std::int64_t final_sync_ns() const { return ns[2]; }
};

}  // namespace npkit

// import/npkt/profiler_kernel_phases.hpp — NCCL's kernel phases of one operation on one rank, from
// the KernelPhase events (profiler API v7, format minor 4) below its KernelCh events.
// Contract:
// - NCCL 2.31 stamps four instants per channel and work item: begin, after the opening sync,
//   before the closing sync, end; phase i (0 initial_sync, 1 compute, 2 final_sync) runs from
//   instant i to instant i + 1 and is not sent when it lasts 0 ns. So a channel's instants follow
//   from the phases it has: begin = the first phase's start, end = the last phase's stop, the
//   inner instants the compute phase's start and stop, or, without compute, the stop of
//   initial_sync (else the start of final_sync) for both.
// - A phase counts when its id is 0..2 and it has a stop time (the value of state 31 with args);
//   the first of an id per channel wins.
// - kernel_phase_times: nullopt unless the clock is usable and every KernelCh in
//   `kernel_channels` has at least one counted phase. Otherwise the times of run/kernel_phases.hpp
//   over those channels: initial_sync = first compute start − first begin, compute = last
//   compute end − first compute start, final_sync = last end − last compute end, each converted
//   to host time first and floored at 0.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "import/npkt/host_gpu_clock.hpp"
#include "import/npkt/profiler_events.hpp"
#include "run/kernel_phases.hpp"

namespace npkit {

// The GPU stop timestamp of a KernelPhase (the last state 31 with args), 0 when there is none.
std::uint64_t kernel_phase_stop(const ProfilerEvents& events, std::uint32_t kernel_phase);

std::optional<KernelPhaseTimes> kernel_phase_times(const ProfilerEvents& events,
                                                   const HostGpuClock& clock,
                                                   std::span<const std::uint32_t> kernel_channels);

}  // namespace npkit

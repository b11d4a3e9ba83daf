// analysis/phases/kernel_phase_summary.hpp — NCCL's own kernel phases (initial_sync, compute,
// final_sync: run/kernel_phases.hpp) summed per rank of a communicator, for `report`.
// Contract:
// - One row per rank of the communicator that has at least one timed member with kernel phases
//   (per (tag, rank) when `by_tag`, tags in increasing order), by rank: operations = those
//   members, ns = their phase times summed by phase id, gpu_ns = their GPU spans summed (which the
//   three phases add up to where NCCL's begin and end stamps are the KernelCh's), without = the
//   rank's timed members with no kernel phases (a channel without KernelPhase events, e.g. a
//   point-to-point batch).
// - No row at all when no member of the communicator has kernel phases.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "run/run.hpp"

namespace npkit {

struct KernelPhaseRow {
  std::int32_t rank = 0;
  std::uint64_t tag = 0;  // with by_tag; else 0
  std::uint64_t operations = 0;
  std::uint64_t without = 0;
  std::array<std::int64_t, kKernelPhaseCount> ns{};
  std::int64_t gpu_ns = 0;
};

std::vector<KernelPhaseRow> kernel_phase_rows(const RunCommunicator& comm, bool by_tag);

}  // namespace npkit

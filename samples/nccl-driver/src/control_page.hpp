// control_page.hpp — the memory the driver's processes share: one anonymous MAP_SHARED mapping made
// by the parent before it forks, so every rank sees the same page at the same address.
//
// Contract:
// - Holds the CUDA device count (found by a probe process, so the parent never initialises CUDA),
//   the NCCL unique id (published by rank 0), a barrier, an abort flag, and per-rank slots
//   through which rank 0 gathers times, wrong-value counts, launch-cost samples and device names.
//   Slot r is written only by rank r; rank 0 reads the slots only after a barrier that follows the
//   writes. A slot's fault_fired is set by its rank when it injects its --fault; the parent reads
//   it when the rank ends.
// - barrier() and wait_for_unique_id() poll (sleeping between polls) and return false as soon as
//   the abort flag is set (by the parent when a rank fails, or by a failing rank itself), so a
//   rank waiting for a dead peer outside NCCL stops instead of hanging.
// - The atomics are lock-free, hence address-free: they work across processes.
// - Plain POSIX: no CUDA or NCCL header (the unique id travels as its 128 raw bytes).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "options.hpp"

namespace npkit::driver {

// NCCL_UNIQUE_ID_BYTES: the size of an ncclUniqueId (static_asserted where NCCL is included).
inline constexpr std::size_t kUniqueIdBytes = 128;
using UniqueIdBytes = std::array<unsigned char, kUniqueIdBytes>;

struct RankSlot {
  double time_us = 0.0;    // elapsed / iters of the current row
  std::int64_t wrong = 0;  // wrong values of the current row's check
  std::int32_t device = -1;
  std::int32_t pid = 0;
  std::atomic<std::int32_t> fault_fired{0};
  char pci_bus_id[32] = {};
  char device_name[256] = {};
  double cost_us[kMaxCostCalls] = {};  // --launch-cost: this rank's times of the current size
};

struct ControlPage {
  std::atomic<std::int32_t> abort{0};
  std::atomic<std::int32_t> device_count{-1};  // written by the device-count probe process
  std::atomic<std::int32_t> unique_id_ready{0};
  std::atomic<std::uint32_t> barrier_arrived{0};
  std::atomic<std::uint32_t> barrier_generation{0};
  UniqueIdBytes unique_id = {};
  RankSlot ranks[kMaxRanks];
};

static_assert(std::atomic<std::int32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// Maps and constructs the shared page; nullptr with *error set on failure. The mapping lives until
// the process exits.
ControlPage* map_control_page(std::string* error);

// Waits until all `nranks` ranks have called it. False if the run was aborted meanwhile.
bool barrier(ControlPage* page, int nranks);

// Rank 0: stores the id and releases the other ranks. Others: wait for it; false if aborted.
void publish_unique_id(ControlPage* page, const UniqueIdBytes& id);
bool wait_for_unique_id(ControlPage* page, UniqueIdBytes* id);

}  // namespace npkit::driver

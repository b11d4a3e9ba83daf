// nccl_plugin/chain_handles.hpp — the handles NCCL holds while a second profiler plugin is
// chained (chained_plugin.hpp), and the table that remembers the chained plugin's handle of each.
//
// Handles (64-bit values, laid out like recorder/event_handle.hpp, with another tag nibble):
// - paired (tag 0xB): one of our handles with its tag 0xA replaced; our handle is always
//   recovered from the value itself (paired_to_ours), the chained plugin's from the communicator's
//   table under our event id.
// - chain-only (tag 0xC): context slot and a key of the communicator's chain-only table,
//   for events the chained plugin has a handle of and we have none with an event id (not
//   recorded by us, or dropped).
// No canonical x86-64/AArch64 address has either tag; decode_chain_handle() of anything else,
// NULL and our own handles included, reports kNone.
//
// HandleTable: a fixed number of entries indexed by key modulo kEntries, each remembering
// {key, our handle, their handle, stopped}. put() overwrites the entry, so an event's entry lives
// until kEntries later keys of the same table reuse it; find() of an overwritten key reports
// nothing. Lock-free; a reader re-checks the key after reading the entry, so it never returns a
// mix of two events (two put()s racing for one entry, kEntries keys apart, are not guarded).
// mark_stopped() is true only for the first caller with the current key.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "recorder/event_handle.hpp"

namespace npkit::capture {

inline constexpr uint64_t kPairedTag = 0xBull;
inline constexpr uint64_t kChainOnlyTag = 0xCull;

enum class ChainHandleKind { kNone, kPaired, kChainOnly };

struct DecodedChainHandle {
  ChainHandleKind kind = ChainHandleKind::kNone;
  uint16_t slot = 0;
  uint64_t key = 0;  // paired: our event id; chain-only: the chain-only table's key
};

inline void* paired_handle(const void* ours) noexcept {
  const uint64_t bits = reinterpret_cast<uintptr_t>(ours);
  const uint64_t low = bits & ((uint64_t{1} << kHandleTagShift) - 1);
  return reinterpret_cast<void*>(static_cast<uintptr_t>((kPairedTag << kHandleTagShift) | low));
}

inline void* paired_to_ours(const void* paired) noexcept {
  const uint64_t bits = reinterpret_cast<uintptr_t>(paired);
  const uint64_t low = bits & ((uint64_t{1} << kHandleTagShift) - 1);
  return reinterpret_cast<void*>(static_cast<uintptr_t>((kHandleTag << kHandleTagShift) | low));
}

inline void* chain_only_handle(uint16_t slot, uint64_t key) noexcept {
  const uint64_t low = handle_bits(0, slot, key) & ((uint64_t{1} << kHandleTagShift) - 1);
  return reinterpret_cast<void*>(static_cast<uintptr_t>((kChainOnlyTag << kHandleTagShift) | low));
}

inline DecodedChainHandle decode_chain_handle(const void* handle) noexcept {
  const uint64_t bits = reinterpret_cast<uintptr_t>(handle);
  const uint64_t tag = bits >> kHandleTagShift;
  DecodedChainHandle out;
  if (tag == kPairedTag) {
    out.kind = ChainHandleKind::kPaired;
  } else if (tag == kChainOnlyTag) {
    out.kind = ChainHandleKind::kChainOnly;
  } else {
    return out;
  }
  out.slot = static_cast<uint16_t>(bits >> kHandleSlotShift);
  out.key = bits & kMaxEventId;
  return out;
}

class HandleTable {
 public:
  static constexpr uint64_t kEntries = uint64_t{1} << 15;

  struct Found {
    bool found = false;
    bool stopped = false;
    void* ours = nullptr;
    void* theirs = nullptr;
  };

  HandleTable() : entries_(new Entry[kEntries]) {}

  // `key` in [1, kMaxEventId].
  void put(uint64_t key, void* ours, void* theirs) noexcept {
    Entry& entry = entries_[key & (kEntries - 1)];
    entry.word.store(0, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    entry.ours.store(ours, std::memory_order_relaxed);
    entry.theirs.store(theirs, std::memory_order_relaxed);
    entry.word.store(key << 1, std::memory_order_release);
  }

  Found find(uint64_t key) const noexcept {
    const Entry& entry = entries_[key & (kEntries - 1)];
    const uint64_t word = entry.word.load(std::memory_order_acquire);
    Found out;
    if (word >> 1 != key || key == 0) return out;
    out.ours = entry.ours.load(std::memory_order_relaxed);
    out.theirs = entry.theirs.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const uint64_t again = entry.word.load(std::memory_order_relaxed);
    if (again >> 1 != key) return Found{};
    out.found = true;
    out.stopped = (again & 1) != 0;
    return out;
  }

  bool mark_stopped(uint64_t key) noexcept {
    uint64_t expected = key << 1;
    return entries_[key & (kEntries - 1)].word.compare_exchange_strong(
        expected, expected | 1, std::memory_order_acq_rel, std::memory_order_relaxed);
  }

 private:
  struct Entry {
    std::atomic<uint64_t> word{0};  // key << 1 | stopped; 0: empty
    std::atomic<void*> ours{nullptr};
    std::atomic<void*> theirs{nullptr};
  };
  std::unique_ptr<Entry[]> entries_;
};

}  // namespace npkit::capture

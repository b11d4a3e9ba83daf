// recorder/thread_registry.hpp — the process's threads that record events: slot -> OS thread id
// and name, so a record carries a 16-bit slot instead of both.
//
// Contract:
// - register_current_thread() gives the calling thread a new slot (0, 1, 2, ...) and stores its
//   gettid() and its pthread name as they are at that moment. Lock-free (one fetch_add); two
//   system calls (gettid, and prctl inside pthread_getname_np), once per thread.
// - Past kCapacity threads, register_current_thread() returns kUnregisteredSlot, which entry()
//   never lists.
// - set_hook(): the hook is called with a new thread's entry by that thread, after entry() lists
//   it and before register_current_thread() returns its slot.
// - entry() is false for a slot not (yet) registered; it never blocks.
// - current_thread_slot() registers the calling thread in the process-wide table on its first
//   call and then answers from a thread-local cache (no call, no atomic). The table is
//   constant-initialised and trivially destructible.
#pragma once

#include <atomic>
#include <cstdint>

#include "npkit/format.hpp"

namespace npkit::capture {

inline constexpr uint16_t kUnregisteredSlot = 0xFFFF;

class ThreadRegistry {
 public:
  static constexpr uint32_t kCapacity = 8192;

  constexpr ThreadRegistry() = default;
  ThreadRegistry(const ThreadRegistry&) = delete;
  ThreadRegistry& operator=(const ThreadRegistry&) = delete;

  using Hook = void (*)(const format::ThreadEntry& entry);

  uint16_t register_current_thread() noexcept;
  void set_hook(Hook hook) noexcept { hook_.store(hook, std::memory_order_release); }
  bool entry(uint16_t slot, format::ThreadEntry* out) const noexcept;

 private:
  struct Entry {
    std::atomic<uint32_t> ready{0};
    int32_t os_tid = 0;
    char name[16] = {};
  };

  std::atomic<uint32_t> next_{0};
  std::atomic<Hook> hook_{nullptr};
  Entry entries_[kCapacity];
};

ThreadRegistry& process_thread_registry() noexcept;

// The calling thread's slot in process_thread_registry().
uint16_t current_thread_slot() noexcept;

}  // namespace npkit::capture

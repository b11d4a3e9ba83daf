// recorder/string_interner.hpp — small integer ids for the static strings NCCL hands out
// (func, datatype, algo, proto), keyed by pointer.
//
// Contract:
// - intern(NULL) is 0 ("none"); otherwise the id (1..kCapacity) is the same for every call with
//   the same pointer, from any thread, for the life of the table. Ids depend on the pointer, not
//   on the text: two pointers to equal text get two ids.
// - Lock-free apart from the hook: the first caller for a pointer claims a slot with a CAS on its
// key and copies the
//   text (at most kMaxTextBytes bytes) into a fixed arena, once; later calls are two loads. No
//   allocation; a thread that finds a slot claimed but its text not yet copied yields until it is.
// - When the slots or the arena run out, new pointers get 0 (slots) or an empty text (arena).
// - set_hook(): the hook is called once per new string (id, copied text), from the thread that
//   interned it, after snapshot() lists it and before any intern() call returns its id.
// - snapshot() lists (id, text) of every interned string, ascending ids.
// - Constant-initialised and trivially destructible: usable from static storage at any time,
//   including during process exit.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npkit::capture {

class StringInterner {
 public:
  static constexpr uint32_t kCapacity = 4096;  // a power of two, < 65536
  static constexpr uint32_t kArenaBytes = 1u << 16;
  static constexpr uint32_t kMaxTextBytes = 255;

  constexpr StringInterner() = default;
  StringInterner(const StringInterner&) = delete;
  StringInterner& operator=(const StringInterner&) = delete;

  using Hook = void (*)(uint16_t id, const char* text);

  uint16_t intern(const char* text) noexcept;
  void set_hook(Hook hook) noexcept { hook_.store(hook, std::memory_order_release); }
  std::vector<std::pair<uint16_t, std::string>> snapshot() const;

 private:
  struct Slot {
    std::atomic<const char*> key{nullptr};
    std::atomic<const char*> copy{nullptr};  // set once the text is in the arena
    std::atomic<uint32_t> announced{0};      // set once the hook returned
  };

  const char* copy_text(const char* text) noexcept;

  Slot slots_[kCapacity];
  std::atomic<Hook> hook_{nullptr};
  std::atomic<uint32_t> arena_used_{0};
  char arena_[kArenaBytes] = {};
};

// The process-wide table every dump's Strings section comes from.
StringInterner& process_string_interner() noexcept;

}  // namespace npkit::capture

#include "recorder/string_interner.hpp"

#include <sched.h>

#include <cstring>

namespace npkit::capture {
namespace {

StringInterner g_process_interner;

uint32_t pointer_hash(const char* text) {
  const uint64_t bits = reinterpret_cast<uintptr_t>(text);
  return static_cast<uint32_t>((bits * 0x9E3779B97F4A7C15ull) >> 40);
}

}  // namespace

const char* StringInterner::copy_text(const char* text) noexcept {
  const size_t length = strnlen(text, kMaxTextBytes);
  const uint32_t start =
      arena_used_.fetch_add(static_cast<uint32_t>(length + 1), std::memory_order_relaxed);
  if (start > kArenaBytes || length + 1 > kArenaBytes - start) return "";
  std::memcpy(arena_ + start, text, length);
  arena_[start + length] = '\0';
  return arena_ + start;
}

uint16_t StringInterner::intern(const char* text) noexcept {
  if (text == nullptr) return 0;
  const uint32_t home = pointer_hash(text);
  for (uint32_t probe = 0; probe < kCapacity; ++probe) {
    const uint32_t index = (home + probe) & (kCapacity - 1);
    Slot& slot = slots_[index];
    const char* key = slot.key.load(std::memory_order_acquire);
    if (key == nullptr) {
      if (slot.key.compare_exchange_strong(key, text, std::memory_order_acq_rel)) {
        const char* copy = copy_text(text);
        slot.copy.store(copy, std::memory_order_release);
        const uint16_t id = static_cast<uint16_t>(index + 1);
        if (Hook hook = hook_.load(std::memory_order_acquire)) hook(id, copy);
        slot.announced.store(1, std::memory_order_release);
        return id;
      }
      // Lost the race: `key` now holds the winner's pointer.
    }
    if (key == text) {
      while (slot.announced.load(std::memory_order_acquire) == 0) sched_yield();
      return static_cast<uint16_t>(index + 1);
    }
  }
  return 0;
}

std::vector<std::pair<uint16_t, std::string>> StringInterner::snapshot() const {
  std::vector<std::pair<uint16_t, std::string>> out;
  for (uint32_t index = 0; index < kCapacity; ++index) {
    const char* copy = slots_[index].copy.load(std::memory_order_acquire);
    if (copy != nullptr) out.emplace_back(static_cast<uint16_t>(index + 1), copy);
  }
  return out;
}

StringInterner& process_string_interner() noexcept {
  return g_process_interner;
}

}  // namespace npkit::capture

// recorder/event_handle.hpp — the event handles NCCL stores and passes back: encoded integers,
// never pointers, so a stale or foreign handle can be recognised without dereferencing anything.
//
// Layout of the 64-bit value (the void* NCCL holds):
//   bits 60..63  tag nibble 0xA   — no canonical x86-64/AArch64 user or kernel address has it
//   bits 56..59  event type        — format::EventType (0..11): stop/state records need it and
//                                    NCCL's state arguments are read according to it
//   bits 40..55  context slot      — index in the process-wide ContextRegistry
//   bits  0..39  event id          — 1 + the record index claimed for the event's start record
// Contract: encode_handle(type, slot, id) with type < 16 and 1 <= id <= kMaxEventId gives a
// non-NULL value that decode_handle() maps back to the same fields; decode_handle() of NULL, of a
// pointer or of any value without the tag reports `ours == false`. Pure functions, no state.
#pragma once

#include <cstdint>

namespace npkit::capture {

inline constexpr uint64_t kHandleTag = 0xAull;
inline constexpr int kHandleTagShift = 60;
inline constexpr int kHandleTypeShift = 56;
inline constexpr int kHandleSlotShift = 40;
inline constexpr uint64_t kMaxEventId = (uint64_t{1} << kHandleSlotShift) - 1;

struct DecodedHandle {
  bool ours = false;  // false: NULL, a pointer, or anything this plugin did not hand out
  uint8_t type = 0;   // format::EventType
  uint16_t slot = 0;  // ContextRegistry slot
  uint64_t event_id = 0;
};

inline void* encode_handle(uint8_t type, uint16_t slot, uint64_t event_id) noexcept {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(
      (kHandleTag << kHandleTagShift) | (uint64_t{type & 0xFu} << kHandleTypeShift) |
      (uint64_t{slot} << kHandleSlotShift) | (event_id & kMaxEventId)));
}

inline DecodedHandle decode_handle(const void* handle) noexcept {
  const uint64_t bits = reinterpret_cast<uintptr_t>(handle);
  DecodedHandle out;
  if ((bits >> kHandleTagShift) != kHandleTag) return out;
  out.ours = true;
  out.type = static_cast<uint8_t>((bits >> kHandleTypeShift) & 0xFu);
  out.slot = static_cast<uint16_t>(bits >> kHandleSlotShift);
  out.event_id = bits & kMaxEventId;
  return out;
}

}  // namespace npkit::capture

// recorder/event_handle.hpp — the event handles NCCL stores and passes back: encoded integers,
// never pointers, so a stale handle or a value that is no handle can be recognised without
// dereferencing anything. (A handle of this plugin in another process looks like ours: the
// recorder never reads the parent of another process's ProxyOp.)
//
// Layout of the 64-bit value (the void* NCCL holds):
//   bits 60..63  tag nibble 0xA   — no canonical x86-64/AArch64 user or kernel address has it
//   bits 56..59  event type        — format::EventType (0..11): stop/state records need it and
//                                    NCCL's state arguments are read according to it
//   bits 40..55  context slot      — index in the process-wide ContextRegistry
//   bits  0..39  event id          — 1 + the record index claimed for the event's start record;
//                                    kDroppedEventId (0) in a dropped handle
// Contract: encode_handle(type, slot, id) with type < 16 and id <= kMaxEventId gives a non-NULL
// value that decode_handle() maps back to the same fields; decode_handle() of NULL, of a pointer
// or of any value without the tag reports `ours == false`. Pure functions, no state.
// A dropped handle (dropped_handle(), `dropped` when decoded) is ours but names no record: the
// answer to a start that recorded nothing and whose children must record nothing either (see
// event_recorder.hpp); its slot is the context that refused the start.
#pragma once

#include <cstdint>

namespace npkit::capture {

inline constexpr uint64_t kHandleTag = 0xAull;
inline constexpr int kHandleTagShift = 60;
inline constexpr int kHandleTypeShift = 56;
inline constexpr int kHandleSlotShift = 40;
inline constexpr uint64_t kMaxEventId = (uint64_t{1} << kHandleSlotShift) - 1;
inline constexpr uint64_t kDroppedEventId = 0;  // record ids start at 1

struct DecodedHandle {
  bool ours = false;     // false: NULL, a pointer, or anything this plugin did not hand out
  bool dropped = false;  // ours, with kDroppedEventId: names no record
  uint8_t type = 0;      // format::EventType
  uint16_t slot = 0;     // ContextRegistry slot
  uint64_t event_id = 0;
};

constexpr uint64_t handle_bits(uint8_t type, uint16_t slot, uint64_t event_id) noexcept {
  return (kHandleTag << kHandleTagShift) | (uint64_t{type & 0xFu} << kHandleTypeShift) |
         (uint64_t{slot} << kHandleSlotShift) | (event_id & kMaxEventId);
}

inline void* encode_handle(uint8_t type, uint16_t slot, uint64_t event_id) noexcept {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(handle_bits(type, slot, event_id)));
}

inline void* dropped_handle(uint8_t type, uint16_t slot) noexcept {
  return encode_handle(type, slot, kDroppedEventId);
}

inline DecodedHandle decode_handle(const void* handle) noexcept {
  const uint64_t bits = reinterpret_cast<uintptr_t>(handle);
  DecodedHandle out;
  if ((bits >> kHandleTagShift) != kHandleTag) return out;
  out.ours = true;
  out.type = static_cast<uint8_t>((bits >> kHandleTypeShift) & 0xFu);
  out.slot = static_cast<uint16_t>(bits >> kHandleSlotShift);
  out.event_id = bits & kMaxEventId;
  out.dropped = out.event_id == kDroppedEventId;
  return out;
}

// A dropped handle is non-NULL (a NULL handle becomes its children's NULL parent in NCCL) and
// carries the tag, whatever its type and slot; no record id is the dropped id.
static_assert(handle_bits(0, 0, kDroppedEventId) != 0);
static_assert(handle_bits(0, 0, kDroppedEventId) >> kHandleTagShift == kHandleTag);
static_assert((handle_bits(15, 0xFFFF, kDroppedEventId) & kMaxEventId) == kDroppedEventId);
static_assert(kDroppedEventId == 0 && (handle_bits(0, 0, 1) & kMaxEventId) == 1);

}  // namespace npkit::capture

// recorder/context_registry.hpp — the process-wide table of capture contexts, indexed by the
// 16-bit slot that every event handle carries.
//
// Contract:
// - Slot 0 (kDetachedSlot) holds the detached context (PXN ProxyOps of other processes, and
//   their descendants), installed at most once. Communicators get slots 1, 2, ... in
//   registration order; a slot is never reused within the process, so a stale handle can never
//   reach a newer communicator's records.
// - add()/set_detached() publish a fully built context with release order; at() is one acquire
//   load (event path) and is NULL for a slot never filled.
// - find() tells whether an address NCCL passed as a context is one of this registry's
//   communicator contexts by comparing addresses only, never reading through it (under PXN it
//   may be another process's pointer). Event path: lock-free, one load when `hint` (a slot from
//   a handle) matches, otherwise one per communicator slot filled so far.
// - Contexts are owned by the registry forever (never freed, see capture_context.hpp).
// - Constant-initialised and trivially destructible: safe to use during process exit.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "recorder/capture_context.hpp"

namespace npkit::capture {

class ContextRegistry {
 public:
  static constexpr uint32_t kSlots = 1u << 16;
  static constexpr uint16_t kDetachedSlot = 0;

  constexpr ContextRegistry() = default;
  ContextRegistry(const ContextRegistry&) = delete;
  ContextRegistry& operator=(const ContextRegistry&) = delete;

  // Sets context->slot to the next unused slot and publishes it; false when none is left.
  bool add(CaptureContext* context) noexcept;
  // Publishes `context` in kDetachedSlot; false when a detached context is already there.
  bool set_detached(CaptureContext* context) noexcept;

  CaptureContext* at(uint16_t slot) const noexcept {
    return slots_[slot].load(std::memory_order_acquire);
  }
  // The communicator context at address `context` (slot `hint` tried first), or NULL; the
  // detached context is never NCCL's context and is not searched.
  CaptureContext* find(const void* context, uint16_t hint) const noexcept;
  // Every published context, in slot order (the detached one first when present).
  std::vector<CaptureContext*> all() const;

 private:
  std::atomic<uint32_t> added_{0};  // all-zero object: static storage in .bss
  std::atomic<CaptureContext*> slots_[kSlots] = {};
};

ContextRegistry& process_context_registry() noexcept;

}  // namespace npkit::capture

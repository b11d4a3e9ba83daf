#include "recorder/context_registry.hpp"

#include <algorithm>

namespace npkit::capture {
namespace {

ContextRegistry g_process_contexts;

}  // namespace

bool ContextRegistry::add(CaptureContext* context) noexcept {
  const uint32_t slot = added_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (slot >= kSlots) return false;
  context->slot = static_cast<uint16_t>(slot);
  slots_[slot].store(context, std::memory_order_release);
  return true;
}

bool ContextRegistry::set_detached(CaptureContext* context) noexcept {
  context->slot = kDetachedSlot;
  CaptureContext* expected = nullptr;
  return slots_[kDetachedSlot].compare_exchange_strong(expected, context,
                                                       std::memory_order_acq_rel);
}

CaptureContext* ContextRegistry::find(const void* context, uint16_t hint) const noexcept {
  if (context == nullptr) return nullptr;
  if (hint != kDetachedSlot && at(hint) == context) return at(hint);
  const uint32_t end = std::min(added_.load(std::memory_order_acquire) + 1, kSlots);
  for (uint32_t slot = 1; slot < end; ++slot) {
    CaptureContext* candidate = at(static_cast<uint16_t>(slot));
    if (candidate == context) return candidate;
  }
  return nullptr;
}

std::vector<CaptureContext*> ContextRegistry::all() const {
  std::vector<CaptureContext*> out;
  const uint32_t end = added_.load(std::memory_order_acquire) + 1;
  for (uint32_t slot = 0; slot < end && slot < kSlots; ++slot) {
    if (CaptureContext* context = at(static_cast<uint16_t>(slot))) out.push_back(context);
  }
  return out;
}

ContextRegistry& process_context_registry() noexcept {
  return g_process_contexts;
}

}  // namespace npkit::capture

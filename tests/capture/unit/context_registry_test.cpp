// The context registry's address lookup: an address NCCL passed as a context is recognised by
// comparison only (under PXN it may be another process's pointer, never to be read).
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "recorder/capture_context.hpp"
#include "recorder/context_registry.hpp"

using npkit::capture::CaptureContext;
using npkit::capture::ContextRegistry;

TEST_CASE("context registry: find() knows its communicator contexts by address only", "[capture]") {
  auto registry = std::make_unique<ContextRegistry>();
  auto detached = std::make_unique<CaptureContext>();
  auto a = std::make_unique<CaptureContext>();
  auto b = std::make_unique<CaptureContext>();
  REQUIRE(registry->set_detached(detached.get()));
  REQUIRE(registry->add(a.get()));
  REQUIRE(registry->add(b.get()));

  CHECK(registry->find(a.get(), a->slot) == a.get());  // the hint matches
  CHECK(registry->find(b.get(), a->slot) == b.get());  // a wrong hint: searched
  CHECK(registry->find(b.get(), 4000) == b.get());     // a hint of an empty slot
  CHECK(registry->find(nullptr, a->slot) == nullptr);
  // The detached context is never NCCL's context.
  CHECK(registry->find(detached.get(), ContextRegistry::kDetachedSlot) == nullptr);
  // Addresses that must not be read: never dereferenced, not found.
  CHECK(registry->find(reinterpret_cast<const void*>(uintptr_t{0x10}), 1) == nullptr);
  CaptureContext not_registered;
  CHECK(registry->find(&not_registered, 2) == nullptr);
}

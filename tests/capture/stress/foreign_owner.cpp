#include "capture/stress/foreign_owner.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include <catch2/catch.hpp>

#include "capture/plugin/comm_driver.hpp"
#include "recorder/capture_context.hpp"

namespace npkit::test {
namespace {

// The watched bytes lie inside the context object.
static_assert(sizeof(capture::CaptureContext) >= kWatchedBytes);

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kSanitizerAllocator = true;
#else
constexpr bool kSanitizerAllocator = false;
#endif
#else
constexpr bool kSanitizerAllocator = false;
#endif

}  // namespace

ForeignOwner open_foreign_owner(const std::string& library_dir, uint64_t comm_hash) {
  ForeignOwner owner;
  owner.lib = open_plugin_copy(library_dir);
  INFO(owner.lib.error);
  REQUIRE(owner.lib.error.empty());
  owner.pid = ::getpid();
  int mask = 0;
  abi::Result result = abi::kSuccess;
  // No logger: its messages would be allocated on the owner's thread and kept by the test's log.
  std::thread([&] {
    result = owner.lib.v5->init(&owner.context, comm_hash, &mask, "pxn-owner", 1, 2, 0, nullptr);
  }).join();
  REQUIRE(result == abi::kSuccess);
  REQUIRE(owner.context != nullptr);
  abi::EventDescrV5 coll = coll_descr(nullptr, 0, 1, "AllReduce", 1024, 0, "ncclFloat32", 2, 8,
                                      "RING", "SIMPLE", nullptr);
  REQUIRE(owner.lib.v5->startEvent(owner.context, &owner.coll, &coll) == abi::kSuccess);
  REQUIRE(owner.coll != nullptr);
  return owner;
}

void finalize_foreign_owner(const ForeignOwner& owner) {
  CHECK(owner.lib.v5->stopEvent(owner.coll) == abi::kSuccess);
  CHECK(owner.lib.v5->finalize(owner.context) == abi::kSuccess);
}

ForeignContextGuard::ForeignContextGuard(const void* context)
    : context_(static_cast<const unsigned char*>(context)) {
  std::memcpy(kept_, context_, kWatchedBytes);
  if (kSanitizerAllocator) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t address = reinterpret_cast<uintptr_t>(context);
  begin_ = address & ~(page - 1);
  length_ = ((address + kWatchedBytes + page - 1) & ~(page - 1)) - begin_;
  protected_ = ::mprotect(reinterpret_cast<void*>(begin_), length_, PROT_NONE) == 0;
  ok_ = protected_;
}

bool ForeignContextGuard::end() {
  if (ended_) return true;
  ended_ = true;
  if (protected_) ::mprotect(reinterpret_cast<void*>(begin_), length_, PROT_READ | PROT_WRITE);
  return std::memcmp(kept_, context_, kWatchedBytes) == 0;
}

ForeignContextGuard::~ForeignContextGuard() {
  end();
}

}  // namespace npkit::test

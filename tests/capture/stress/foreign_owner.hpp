// foreign_owner.hpp — the other process of a PXN test. Under PXN, NCCL's proxy thread passes the
// plugin the context and parentObj of the process that created the ProxyOp: that process's
// pointers. The owner is a communicator of the test process; a child forked afterwards receives
// its values as another process's, and ForeignContextGuard makes that context untouchable there.
//
// Contract:
// - open_foreign_owner() opens a fresh plugin copy in `library_dir` and inits one communicator
//   (capture on, settings from the environment) on a thread of its own, so that with glibc's
//   malloc the context lives in that thread's arena, on pages that the main thread and a child
//   forked from it never allocate from; then starts one Coll on it (a ProxyOp's parentObj in
//   NCCL). REQUIREs success.
// - finalize_foreign_owner() finalizes the owner's communicator (its dump goes to the dump
//   directory of the environment); call it before that directory goes away.
// - OwnerArenaHold (in the child, constructed before any thread starts there): after fork(),
//   glibc puts every malloc arena but the forking thread's on its free list, the owner thread's
//   too, and a thread started later (the child plugin's buffer extender) takes its arena from
//   there. The owner's arena header and free chunks can share a page with the context, so that
//   thread would fault on the guarded page. The hold attaches that arena to an idle thread of its
//   own until destroyed, so no other thread allocates from it. pinned() says whether the context's
//   pages are kept from every other thread's allocations: false under a sanitizer, without glibc,
//   or when the context lies in the main arena (the child's main thread allocates from it).
// - ForeignContextGuard (in the child), from construction to end():
//   * when the hold is pinned, the pages holding the context's first kWatchedBytes are PROT_NONE,
//     so any read or write through the context kills the child with SIGSEGV; end() makes them
//     readable and writable again. protects() says whether they were made PROT_NONE.
//   * always, those bytes are kept: end() returns false when they changed (a write through the
//     context). ok() is false when mprotect failed. The destructor calls end() if needed.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "capture/plugin/plugin_library.hpp"

namespace npkit::test {

struct ForeignOwner {
  PluginLibrary lib;
  void* context = nullptr;  // the owner's context: a heap address of its plugin copy
  void* coll = nullptr;     // a Coll handle of the owner
  pid_t pid = 0;
};

ForeignOwner open_foreign_owner(const std::string& library_dir, uint64_t comm_hash);
void finalize_foreign_owner(const ForeignOwner& owner);

inline constexpr size_t kWatchedBytes = 256;

class OwnerArenaHold {
 public:
  explicit OwnerArenaHold(const void* context);
  ~OwnerArenaHold();
  OwnerArenaHold(const OwnerArenaHold&) = delete;
  OwnerArenaHold& operator=(const OwnerArenaHold&) = delete;

  bool pinned() const { return pinned_; }

 private:
  struct Holder;
  Holder* holder_ = nullptr;
  bool pinned_ = false;
};

class ForeignContextGuard {
 public:
  ForeignContextGuard(const void* context, const OwnerArenaHold& hold);
  ~ForeignContextGuard();
  ForeignContextGuard(const ForeignContextGuard&) = delete;
  ForeignContextGuard& operator=(const ForeignContextGuard&) = delete;

  bool ok() const { return ok_; }
  bool protects() const { return protected_; }
  bool end();

 private:
  const unsigned char* context_;
  unsigned char kept_[kWatchedBytes];
  uintptr_t begin_ = 0;
  size_t length_ = 0;
  bool protected_ = false;
  bool ok_ = true;
  bool ended_ = false;
};

}  // namespace npkit::test

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
// - ForeignContextGuard (in the child), from construction to end():
//   * without a sanitizer, the pages holding the context's first kWatchedBytes are PROT_NONE,
//     so any read or write through the context kills the child with SIGSEGV; end() makes them
//     readable and writable again. (Sanitizer allocators share pages between threads: there the
//     child's own objects may sit on those pages, so they stay accessible.)
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

class ForeignContextGuard {
 public:
  explicit ForeignContextGuard(const void* context);
  ~ForeignContextGuard();
  ForeignContextGuard(const ForeignContextGuard&) = delete;
  ForeignContextGuard& operator=(const ForeignContextGuard&) = delete;

  bool ok() const { return ok_; }
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

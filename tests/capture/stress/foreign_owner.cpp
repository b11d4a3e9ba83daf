#include "capture/stress/foreign_owner.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

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

#if defined(__GLIBC__)
constexpr bool kGlibcMalloc = !kSanitizerAllocator;
#else
constexpr bool kGlibcMalloc = false;
#endif

// glibc's malloc (malloc/malloc.c, malloc/arena.c): the word before a block holds its chunk's size
// with bit 1 set for a chunk mapped on its own and bit 2 for a chunk of a thread arena. A thread
// arena's heaps are aligned to their largest size (2 × 32 MiB on 64-bit targets) and each begins
// with the address of its arena.
constexpr uintptr_t kMmappedChunk = 0x2;
constexpr uintptr_t kThreadArenaChunk = 0x4;
constexpr uintptr_t kThreadHeapSize = 2 * 4 * 1024 * 1024 * sizeof(long);

enum class BlockHome { kOwnPages, kMainArena, kThreadArena };

BlockHome home_of(const void* block) {
  // The chunk's header, reached by address: it lies outside the block the compiler knows of.
  const uintptr_t header = reinterpret_cast<uintptr_t>(block) - sizeof(uintptr_t);
  uintptr_t size_word = 0;
  std::memcpy(&size_word, reinterpret_cast<const void*>(header), sizeof(size_word));
  if ((size_word & kMmappedChunk) != 0) return BlockHome::kOwnPages;
  return (size_word & kThreadArenaChunk) != 0 ? BlockHome::kThreadArena : BlockHome::kMainArena;
}

// Only for a block of a thread arena.
const void* thread_arena_of(const void* block) {
  const uintptr_t heap = reinterpret_cast<uintptr_t>(block) & ~(kThreadHeapSize - 1);
  const void* arena = nullptr;
  std::memcpy(&arena, reinterpret_cast<const void*>(heap), sizeof(arena));
  return arena;
}

constexpr int kMaxArenaCandidates = 64;

}  // namespace

// A thread that allocates once, which attaches it to an arena, and then idles until released.
struct OwnerArenaHold::Holder {
  std::mutex mutex;
  std::condition_variable wake;
  bool attached = false;
  bool released = false;
  const void* arena = nullptr;  // NULL: not a thread arena
  std::thread thread;

  Holder() : thread([this] { run(); }) {}
  ~Holder() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      released = true;
    }
    wake.notify_all();
    thread.join();
  }

  const void* wait_for_arena() {
    std::unique_lock<std::mutex> lock(mutex);
    wake.wait(lock, [this] { return attached; });
    return arena;
  }

 private:
  void run() {
    void* block = std::malloc(1);
    std::unique_lock<std::mutex> lock(mutex);
    if (block != nullptr && home_of(block) == BlockHome::kThreadArena) {
      arena = thread_arena_of(block);
    }
    attached = true;
    wake.notify_all();
    wake.wait(lock, [this] { return released; });
    lock.unlock();
    std::free(block);
  }
};

OwnerArenaHold::OwnerArenaHold(const void* context) {
  if (!kGlibcMalloc) return;
  switch (home_of(context)) {
    case BlockHome::kOwnPages:
      pinned_ = true;
      return;
    case BlockHome::kMainArena:
      return;
    case BlockHome::kThreadArena:
      break;
  }
  const void* owner_arena = thread_arena_of(context);
  // Each candidate stays attached while the next one starts, so each takes another arena from
  // the free list; those that did not get the owner's give theirs back when destroyed.
  std::vector<std::unique_ptr<Holder>> others;
  for (int i = 0; i < kMaxArenaCandidates && holder_ == nullptr; ++i) {
    auto candidate = std::make_unique<Holder>();
    if (candidate->wait_for_arena() == owner_arena) {
      holder_ = candidate.release();
      pinned_ = true;
    } else {
      others.push_back(std::move(candidate));
    }
  }
}

OwnerArenaHold::~OwnerArenaHold() {
  delete holder_;
}

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

ForeignContextGuard::ForeignContextGuard(const void* context, const OwnerArenaHold& hold)
    : context_(static_cast<const unsigned char*>(context)) {
  std::memcpy(kept_, context_, kWatchedBytes);
  if (!hold.pinned()) return;
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

// The PXN tests' guard must fault only on the plugin's reads: threads that the child starts while
// the owner's context is PROT_NONE must allocate and free without touching those pages
// (foreign_owner.hpp, OwnerArenaHold).
#include "capture/stress/foreign_owner.hpp"

#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/plugin_env.hpp"
#include "capture/stress/child_process.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

constexpr int kChildThreads = 8;

// Allocates and frees blocks of every small size, then idles until `released`.
void allocate_then_idle(std::mutex& mutex, std::condition_variable& wake, const bool& released) {
  std::vector<void*> blocks;
  for (size_t size = 16; size <= 8192; size += 16) blocks.push_back(std::malloc(size));
  for (void* block : blocks) std::free(block);
  std::unique_lock<std::mutex> lock(mutex);
  wake.wait(lock, [&] { return released; });
}

}  // namespace

TEST_CASE(
    "foreign owner: threads started in the child under the guard allocate without touching the "
    "owner's context",
    "[plugin][stress]") {
  PluginEnv env;
  TempDir owner_lib_dir;
  const ForeignOwner owner = open_foreign_owner(owner_lib_dir.path(), 0x9e000000000000f1ull);
  const ChildOutcome child = run_in_child([&](ChildReport& report) {
    const OwnerArenaHold hold(owner.context);
    ForeignContextGuard guard(owner.context, hold);
    if (!guard.ok()) report.fail("mprotect of the owner's context failed");
    report.note(guard.protects() ? "guarded" : "not guarded");
    std::mutex mutex;
    std::condition_variable wake;
    bool released = false;
    // Each thread stays while the next starts, so each takes another arena.
    std::vector<std::thread> threads;
    for (int i = 0; i < kChildThreads; ++i) {
      threads.emplace_back(allocate_then_idle, std::ref(mutex), std::ref(wake),
                           std::cref(released));
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      released = true;
    }
    wake.notify_all();
    for (std::thread& thread : threads) thread.join();
    if (!guard.end()) report.fail("the owner's context changed");
  });
  finalize_foreign_owner(owner);
  INFO(child.text());
  CHECK(child.signal == 0);
  CHECK(child.exited);
  CHECK(child.exit_code == 0);
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // The owner's init ran on a thread of its own: its context is not in the main arena.
  CHECK(child.lines.front() == "guarded");
#endif
}

}  // namespace npkit::test

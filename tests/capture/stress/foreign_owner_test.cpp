// The PXN tests' guard must fault only on the plugin's reads: threads that the child starts while
// the owner's context is PROT_NONE must allocate and free without touching those pages
// (foreign_owner.hpp, OwnerArenaHold).
#include "capture/stress/foreign_owner.hpp"

#include <malloc.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "capture/plugin/plugin_env.hpp"
#include "capture/stress/child_process.hpp"
#include "support/temp_dir.hpp"

namespace npkit::test {
namespace {

// How many malloc arenas the process has, the main one included (glibc's malloc_info lists one
// <heap> per arena); 0 when it cannot say.
std::size_t malloc_arenas() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = ::open_memstream(&text, &size);
  if (out == nullptr) return 0;
  ::malloc_info(0, out);
  std::fclose(out);
  std::size_t arenas = 0;
  for (std::string_view rest(text, size); !rest.empty();) {
    const std::size_t at = rest.find("<heap nr=");
    if (at == std::string_view::npos) break;
    ++arenas;
    rest.remove_prefix(at + 1);
  }
  std::free(text);
  return arenas;
}

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
    // As many threads at once as there are arenas on glibc's free list (all but the main one and
    // the owner's, which the hold keeps): together they take every one of them, and none needs
    // an arena in use (glibc hands those out only once the free list is empty and the process
    // has its maximum number of arenas). Counted before the guard: malloc_info visits every
    // arena, the owner's too.
    const std::size_t arenas = malloc_arenas();
    const std::size_t count = arenas > 2 ? arenas - 2 : 1;
    ForeignContextGuard guard(owner.context, hold);
    if (!guard.ok()) report.fail("mprotect of the owner's context failed");
    report.note(guard.protects() ? "guarded" : "not guarded");
    report.note(std::to_string(arenas) + " arenas, " + std::to_string(count) + " threads");
    std::mutex mutex;
    std::condition_variable wake;
    bool released = false;
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < count; ++i) {
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

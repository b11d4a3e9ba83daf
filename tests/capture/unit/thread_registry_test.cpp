// Thread table: one slot per thread with its OS thread id and name.
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "recorder/thread_registry.hpp"

using npkit::capture::ThreadRegistry;

TEST_CASE("thread registry: every thread gets its own slot with its tid and name",
          "[capture][threads]") {
  auto registry = std::make_unique<ThreadRegistry>();
  constexpr int kThreads = 6;
  std::vector<uint16_t> slots(kThreads);
  std::vector<int32_t> tids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string name = "npkit-test-" + std::to_string(t);
      pthread_setname_np(pthread_self(), name.c_str());
      tids[t] = static_cast<int32_t>(syscall(SYS_gettid));
      slots[t] = registry->register_current_thread();
    });
  }
  for (auto& thread : threads) thread.join();

  CHECK(std::set<uint16_t>(slots.begin(), slots.end()) == std::set<uint16_t>{0, 1, 2, 3, 4, 5});
  for (int t = 0; t < kThreads; ++t) {
    npkit::format::ThreadEntry entry{};
    REQUIRE(registry->entry(slots[t], &entry));
    CHECK(entry.slot == slots[t]);
    CHECK(entry.os_tid == tids[t]);
    CHECK(std::string(entry.name) == "npkit-test-" + std::to_string(t));
  }
  npkit::format::ThreadEntry unused{};
  CHECK_FALSE(registry->entry(kThreads, &unused));
  CHECK_FALSE(registry->entry(npkit::capture::kUnregisteredSlot, &unused));
}

TEST_CASE("thread registry: the process-wide slot of a thread is stable", "[capture]") {
  const uint16_t first = npkit::capture::current_thread_slot();
  CHECK(npkit::capture::current_thread_slot() == first);
  uint16_t other = first;
  std::thread([&] { other = npkit::capture::current_thread_slot(); }).join();
  CHECK(other != first);
  npkit::format::ThreadEntry entry{};
  REQUIRE(npkit::capture::process_thread_registry().entry(first, &entry));
  CHECK(entry.os_tid == static_cast<int32_t>(syscall(SYS_gettid)));
}

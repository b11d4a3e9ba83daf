#include "recorder/thread_registry.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

namespace npkit::capture {
namespace {

ThreadRegistry g_process_threads;
thread_local int32_t t_slot = -1;

}  // namespace

uint16_t ThreadRegistry::register_current_thread() noexcept {
  const uint32_t slot = next_.fetch_add(1, std::memory_order_relaxed);
  if (slot >= kCapacity) return kUnregisteredSlot;
  Entry& entry = entries_[slot];
  entry.os_tid = static_cast<int32_t>(syscall(SYS_gettid));
  char name[16] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof(name)) != 0) name[0] = '\0';
  std::memcpy(entry.name, name, sizeof(name));
  entry.ready.store(1, std::memory_order_release);
  if (Hook hook = hook_.load(std::memory_order_acquire)) {
    format::ThreadEntry listed{};
    if (this->entry(static_cast<uint16_t>(slot), &listed)) hook(listed);
  }
  return static_cast<uint16_t>(slot);
}

bool ThreadRegistry::entry(uint16_t slot, format::ThreadEntry* out) const noexcept {
  if (slot >= kCapacity) return false;
  const Entry& entry = entries_[slot];
  if (entry.ready.load(std::memory_order_acquire) == 0) return false;
  out->slot = slot;
  out->os_tid = entry.os_tid;
  std::memcpy(out->name, entry.name, sizeof(out->name));
  return true;
}

ThreadRegistry& process_thread_registry() noexcept {
  return g_process_threads;
}

uint16_t current_thread_slot() noexcept {
  if (t_slot < 0) t_slot = g_process_threads.register_current_thread();
  return static_cast<uint16_t>(t_slot);
}

}  // namespace npkit::capture

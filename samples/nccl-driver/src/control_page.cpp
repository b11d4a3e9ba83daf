#include "control_page.hpp"

#include <sys/mman.h>
#include <time.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace npkit::driver {
namespace {

void pause_briefly() {
  const timespec interval{0, 20 * 1000};  // 20 us: cheap on the CPU, short against NCCL launches
  nanosleep(&interval, nullptr);
}

bool aborted(const ControlPage* page) {
  return page->abort.load(std::memory_order_acquire) != 0;
}

}  // namespace

ControlPage* map_control_page(std::string* error) {
  void* memory =
      mmap(nullptr, sizeof(ControlPage), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    *error = std::string("mmap of the shared control page failed: ") + std::strerror(errno);
    return nullptr;
  }
  return new (memory) ControlPage();
}

bool barrier(ControlPage* page, int nranks) {
  const std::uint32_t generation = page->barrier_generation.load(std::memory_order_acquire);
  const std::uint32_t arrived = page->barrier_arrived.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (arrived == static_cast<std::uint32_t>(nranks)) {
    page->barrier_arrived.store(0, std::memory_order_relaxed);
    page->barrier_generation.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }
  while (page->barrier_generation.load(std::memory_order_acquire) == generation) {
    if (aborted(page)) return false;
    pause_briefly();
  }
  return true;
}

void publish_unique_id(ControlPage* page, const UniqueIdBytes& id) {
  page->unique_id = id;
  page->unique_id_ready.store(1, std::memory_order_release);
}

bool wait_for_unique_id(ControlPage* page, UniqueIdBytes* id) {
  while (page->unique_id_ready.load(std::memory_order_acquire) == 0) {
    if (aborted(page)) return false;
    pause_briefly();
  }
  *id = page->unique_id;
  return true;
}

}  // namespace npkit::driver

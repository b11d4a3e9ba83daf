#include "recorder/record_buffer.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "recorder/live_extender.hpp"

namespace npkit::capture {
namespace {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Maps `bytes` of zeroed, unreserved memory; buffers of at least one huge page start on a huge
// page boundary and ask for transparent huge pages (2 MiB pages: one page fault per 32,768
// records instead of one per 64, which otherwise dominates the cost of a record). Untouched
// huge pages still cost nothing. Returns MAP_FAILED on failure.
void* map_records(size_t bytes) {
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  if (bytes < kHugePageBytes) return mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  void* raw = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (raw == MAP_FAILED) return MAP_FAILED;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const size_t tail = (start + bytes + kHugePageBytes) - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // a hint: errors are fine
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

RecordBuffer::~RecordBuffer() {
  if (live_ != nullptr) unwatch_live_buffer(this);
  if (live_ != nullptr) {
    live_->unmap();
  } else if (records_ != nullptr) {
    munmap(records_, mapped_bytes_);
  }
}

bool RecordBuffer::reserve(uint64_t capacity, std::string* why_not) {
  const size_t bytes = static_cast<size_t>(capacity) * sizeof(format::ProfilerRecord);
  void* memory = map_records(bytes);
  if (memory == MAP_FAILED) {
    *why_not = "mmap of " + std::to_string(bytes) +
               " bytes for the record buffer failed: " + std::strerror(errno);
    return false;
  }
  records_ = static_cast<format::ProfilerRecord*>(memory);
  capacity_ = capacity;
  mapped_bytes_ = bytes;
  ready_.store(capacity, std::memory_order_release);
  return true;
}

bool RecordBuffer::reserve_live(std::unique_ptr<LiveFile> live, uint64_t capacity,
                                std::string* why_not) {
  if (!live->extend(std::min(capacity, kLiveChunkRecords), why_not)) return false;
  records_ = live->records();
  capacity_ = capacity;
  mapped_bytes_ = static_cast<size_t>(capacity) * sizeof(format::ProfilerRecord);
  ready_.store(std::min(capacity, kLiveChunkRecords), std::memory_order_release);
  live_ = std::move(live);
  watch_live_buffer(this);
  return true;
}

bool RecordBuffer::extend_to(uint64_t end) noexcept {
  end = std::min(end, capacity_);
  const uint64_t ready = ready_.load(std::memory_order_relaxed);
  if (end <= ready) return true;
  if (live_ == nullptr || live_stopped_) return false;
  try {
    std::string why_not;
    if (live_->extend(end, &why_not)) {
      ready_.store(end, std::memory_order_release);
      return true;
    }
    // The file cannot grow: the rest of the buffer becomes anonymous memory (ready is a whole
    // number of chunks, so of pages), and the live file stops here.
    live_stopped_ = true;
    live_stop_reason_ = "stopped at record " + std::to_string(ready) + ": " + why_not;
    if (!live_->detach_from(ready)) return false;
  } catch (...) {  // std::bad_alloc building the reason: the buffer stays as it is
    live_stopped_ = true;
    return false;
  }
  ready_.store(capacity_, std::memory_order_release);
  return true;
}

bool RecordBuffer::wait_ready(uint64_t index) noexcept {
  std::lock_guard<std::mutex> lock(live_mutex_);
  const uint64_t chunk_end = (index / kLiveChunkRecords + 1) * kLiveChunkRecords;
  return extend_to(chunk_end) && index < ready_.load(std::memory_order_relaxed);
}

void RecordBuffer::extend_ahead_of_writers() noexcept {
  const uint64_t claimed = next_.load(std::memory_order_relaxed);
  if (live_ == nullptr || claimed >= kClosedMark) return;
  const uint64_t wanted = (claimed / kLiveChunkRecords + 2) * kLiveChunkRecords;
  if (std::min(wanted, capacity_) <= ready_.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(live_mutex_);
  extend_to(wanted);
}

void RecordBuffer::end_live_file(bool keep_file) {
  if (live_ != nullptr) live_->remove(keep_file);
}

bool RecordBuffer::close(std::chrono::nanoseconds wait_budget, Closed* out) {
  const uint64_t previous = next_.exchange(kClosedMark, std::memory_order_acq_rel);
  if (previous >= kClosedMark) return false;
  if (live_ != nullptr) unwatch_live_buffer(this);
  out->records = records_;
  out->count = previous < capacity_ ? previous : capacity_;
  if (live_ != nullptr) {
    // Claimed records past the extended end are memory past the end of the file until a waiting
    // producer extends it: extend it here, so that reading them cannot fault.
    std::lock_guard<std::mutex> lock(live_mutex_);
    const uint64_t chunks = (out->count + kLiveChunkRecords - 1) / kLiveChunkRecords;
    extend_to(std::min(capacity_, chunks * kLiveChunkRecords));
    out->count = std::min(out->count, ready_.load(std::memory_order_relaxed));
  }
  out->attempted = previous;
  out->dropped = previous - out->count;
  out->incomplete.clear();

  const auto deadline = std::chrono::steady_clock::now() + wait_budget;
  bool out_of_time = false;
  for (uint64_t i = 0; i < out->count; ++i) {
    while (__atomic_load_n(&records_[i].kind, __ATOMIC_ACQUIRE) == 0) {
      if (out_of_time || std::chrono::steady_clock::now() >= deadline) {
        out_of_time = true;
        out->incomplete.push_back(i);
        break;
      }
      sched_yield();
    }
  }
  return true;
}

uint64_t RecordBuffer::claimed() const noexcept {
  const uint64_t next = next_.load(std::memory_order_relaxed);
  return next < kClosedMark ? next : 0;
}

uint64_t RecordBuffer::claims_after_close() const noexcept {
  const uint64_t next = next_.load(std::memory_order_relaxed);
  return next >= kClosedMark ? next - kClosedMark : 0;
}

bool RecordBuffer::release(const Closed& closed) {
  if (!closed.incomplete.empty() || records_ == nullptr) return false;
  if (live_ != nullptr) {
    live_->unmap();
  } else {
    munmap(records_, mapped_bytes_);
  }
  records_ = nullptr;
  return true;
}

}  // namespace npkit::capture

#include "recorder/record_buffer.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

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
  if (records_ != nullptr) munmap(records_, mapped_bytes_);
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
  return true;
}

bool RecordBuffer::close(std::chrono::nanoseconds wait_budget, Closed* out) {
  const uint64_t previous = next_.exchange(kClosedMark, std::memory_order_acq_rel);
  if (previous >= kClosedMark) return false;
  out->records = records_;
  out->count = previous < capacity_ ? previous : capacity_;
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
  munmap(records_, mapped_bytes_);
  records_ = nullptr;
  return true;
}

}  // namespace npkit::capture

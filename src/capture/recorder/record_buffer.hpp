// recorder/record_buffer.hpp — one communicator's array of format::ProfilerRecord, appended to by
// any number of threads without locks, closed once for the dump.
//
// Contract:
// - reserve() maps `capacity` records with mmap (MAP_NORESERVE: untouched pages cost nothing;
//   buffers of 2 MiB or more use transparent huge pages where the kernel offers them).
// - Append (event path, no lock, no allocation, no system call):
//     idx = claim();  // one relaxed fetch_add on `next`
//     if (ProfilerRecord* r = at(idx)) { fill every field but kind; publish(r, kind); }
//   claim() >= kClosedMark means the buffer was closed (the callback came after the dump);
//   at() is NULL for indexes past the capacity (the record is dropped, its index still counts).
//   publish() stores `kind` last with release order, so a reader that sees kind != 0 sees the
//   whole record.
// - claim_refused() counts a callback that must write nothing, as one claim, but only once no
//   claim can get a record any more (claims past the capacity, or closed): it then shows in the
//   dump's counters like any dropped or late record; otherwise it counts nothing and says so.
// - close() swaps `next` for kClosedMark (at most once: later calls see nothing), then waits,
//   yielding, up to `wait_budget` in total for every claimed record to be published. Records
//   still unpublished are listed as incomplete; their memory may still be written by a stalled
//   producer, so release() unmaps only a buffer that had no incomplete record.
// - The destructor unmaps the buffer (after release() or when nothing was incomplete).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "npkit/format.hpp"

namespace npkit::capture {

class RecordBuffer {
 public:
  static constexpr uint64_t kClosedMark = uint64_t{1} << 62;

  RecordBuffer() = default;
  ~RecordBuffer();
  RecordBuffer(const RecordBuffer&) = delete;
  RecordBuffer& operator=(const RecordBuffer&) = delete;

  // Maps room for `capacity` records; false with the reason when mmap fails.
  bool reserve(uint64_t capacity, std::string* why_not);

  uint64_t claim() noexcept { return next_.fetch_add(1, std::memory_order_relaxed); }
  // Event path; true when counted. `next` only grows, so a check that found no record left stays
  // true at the fetch_add.
  bool claim_refused() noexcept {
    if (next_.load(std::memory_order_relaxed) < capacity_) return false;
    next_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  format::ProfilerRecord* at(uint64_t index) noexcept {
    return index < capacity_ ? &records_[index] : nullptr;
  }
  static void publish(format::ProfilerRecord* record, uint8_t kind) noexcept {
    __atomic_store_n(&record->kind, kind, __ATOMIC_RELEASE);
  }

  struct Closed {
    const format::ProfilerRecord* records = nullptr;
    uint64_t count = 0;                // records [0, count) are in the buffer
    uint64_t attempted = 0;            // claims before the close (written + dropped)
    uint64_t dropped = 0;              // claims past the capacity
    std::vector<uint64_t> incomplete;  // ascending indexes still unpublished after the wait
  };
  // Closes the buffer; returns false (and leaves *out alone) when it was already closed.
  bool close(std::chrono::nanoseconds wait_budget, Closed* out);

  // Claims made so far while open (0 once closed), and claims made after close().
  uint64_t claimed() const noexcept;
  uint64_t claims_after_close() const noexcept;
  uint64_t capacity() const noexcept { return capacity_; }

  // Unmaps the records when `closed` lists no incomplete record; true if it did.
  bool release(const Closed& closed);

 private:
  alignas(64) std::atomic<uint64_t> next_{0};
  alignas(64) format::ProfilerRecord* records_ = nullptr;
  uint64_t capacity_ = 0;
  size_t mapped_bytes_ = 0;
};

}  // namespace npkit::capture

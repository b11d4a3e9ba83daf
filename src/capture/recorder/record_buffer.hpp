// recorder/record_buffer.hpp — one communicator's array of format::ProfilerRecord, appended to by
// any number of threads without locks, closed once for the dump.
//
// Contract:
// - reserve() maps `capacity` records with mmap (MAP_NORESERVE: untouched pages cost nothing;
//   buffers of 2 MiB or more use transparent huge pages where the kernel offers them).
// - Append (event path, no lock, no allocation, no system call):
//     idx = claim();
//     if (ProfilerRecord* r = at(idx)) { fill every field but kind; publish(r, kind); }
//   Each thread claims from a segment of records of its own (kMaxSegmentRecords, or fewer so
//   that a buffer has at least kMinSegments; a thread-local cache of kThreadLanes buffers per
//   thread), so threads do not contend on one counter: a claim
//   is one store to the segment's use count (seq_cst) and one load of the shared segment cursor;
//   taking a new segment is one relaxed fetch_add. A thread that records into more than
//   kThreadLanes buffers in turn leaves the rest of a segment unused at each switch, and once
//   every segment is handed out, the rest of the segments of threads that stopped writing stay
//   unused: drops may start up to one segment per thread before the capacity.
//   claim() >= kClosedMark means the buffer was closed (the callback came after the dump);
//   past the capacity claim() gives indexes >= capacity() (unique, for event ids), and at() is
//   NULL for them (the record is dropped and counted). publish() stores `kind` last with release
//   order, so a reader that sees kind != 0 sees the whole record.
// - claim_refused() counts a callback that must write nothing, as one claim, but only once no
//   claim can get a new segment any more (all handed out, or closed): it then shows in the
//   dump's counters like any dropped or late record; otherwise it counts nothing and says so.
// - close() closes the segment cursor (at most once: later calls see nothing), then waits,
//   yielding, up to `wait_budget` in total for every claimed record to be published; a claim
//   racing with the close either sees it (and takes nothing) or is seen by it. Closed lists the
//   claimed records as index ranges, one per used segment in segment order. Records still
//   unpublished are listed as incomplete; their memory may still be written by a stalled
//   producer, so release() unmaps only a buffer that had no incomplete record.
// - Records are made ready a chunk (kLiveChunkRecords) at a time, ahead of the writers, by
//   recorder/buffer_extender.hpp's thread (extend_ahead_of_writers), so that page faults stay off
//   the event path: anonymous buffers are faulted in (MADV_POPULATE_WRITE where the kernel has it),
//   live ones (reserve_live) also get their file's blocks. at() of an index past the ready end
//   (the writers outran that thread) makes it ready itself, the first thread there for all, and
//   doubles how far ahead the thread keeps this buffer (2 chunks, up to kMaxLookaheadChunks).
// - Live buffers: the records are a recorder/live_file.hpp mapping. When the file cannot
//   grow (disk full, file size limit), the rest of the buffer becomes anonymous memory: every
//   record still reaches the dump written at the end, only the live file stops growing;
//   live_stop_reason() then says why, live_records_end() where, and the hook installed with
//   set_live_stop_warning() (the plugin's NCCL logger) is called once with a warning saying
//   both, at run time. So at() costs a compare and a rarely-taken branch.
// - The destructor unmaps the buffer (after release() or when nothing was incomplete).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "npkit/format.hpp"
#include "recorder/live_file.hpp"

namespace npkit::capture {

class RecordBuffer {
 public:
  static constexpr uint64_t kClosedMark = uint64_t{1} << 62;

  RecordBuffer() = default;
  ~RecordBuffer();
  RecordBuffer(const RecordBuffer&) = delete;
  RecordBuffer& operator=(const RecordBuffer&) = delete;

  static constexpr uint64_t kLiveChunkRecords = uint64_t{1} << 15;  // 2 MiB of records
  static constexpr uint64_t kMaxLookaheadChunks = 32;

  // Maps room for `capacity` records; false with the reason when mmap fails.
  bool reserve(uint64_t capacity, std::string* why_not);
  // Takes `live`'s records as the buffer and extends the file by its first chunk; false with the
  // reason (the buffer stays unreserved) when even that fails.
  bool reserve_live(std::unique_ptr<LiveFile> live, uint64_t capacity, std::string* why_not);

  static constexpr uint64_t kMaxSegmentRecords = 512;
  static constexpr uint64_t kMinSegments = 64;
  static constexpr unsigned kThreadLanes = 16;
  static constexpr unsigned kDropStripes = 16;

  uint64_t claim() noexcept;
  // Event path; true when counted.
  bool claim_refused() noexcept;
  format::ProfilerRecord* at(uint64_t index) noexcept {
    if (index >= capacity_) return nullptr;
    if (index >= ready_.load(std::memory_order_acquire) && !wait_ready(index)) return nullptr;
    return &records_[index];
  }
  static void publish(format::ProfilerRecord* record, uint8_t kind) noexcept {
    __atomic_store_n(&record->kind, kind, __ATOMIC_RELEASE);
  }

  struct Range {
    uint64_t begin = 0;
    uint64_t end = 0;
  };
  struct Closed {
    const format::ProfilerRecord* records = nullptr;
    std::vector<Range> ranges;         // the claimed records, by segment
    uint64_t count = 0;                // records in `ranges`
    uint64_t attempted = 0;            // claims before the close (written + dropped)
    uint64_t dropped = 0;              // claims past the capacity
    std::vector<uint64_t> incomplete;  // ascending indexes still unpublished after the wait
  };
  // Closes the buffer; returns false (and leaves *out alone) when it was already closed.
  bool close(std::chrono::nanoseconds wait_budget, Closed* out);

  // Claims made so far while open (0 once closed; a sum over the segments: not for the event
  // path), and claims made after close().
  uint64_t claimed() const noexcept;
  uint64_t claims_after_close() const noexcept;
  uint64_t capacity() const noexcept { return capacity_; }
  uint64_t segment_records() const noexcept { return uint64_t{1} << segment_shift_; }

  // Unmaps the records when `closed` lists no incomplete record; true if it did.
  bool release(const Closed& closed);

  // The live file, NULL for an anonymous buffer or after forget_live_file().
  LiveFile* live_file() const noexcept { return live_.get(); }
  // Why the live file stopped growing ("" while it grows with the buffer); read it after close().
  const std::string& live_stop_reason() const noexcept { return live_stop_reason_; }
  // Records [0, live_records_end()) have room in the live file: the capacity while it grows.
  uint64_t live_records_end() const;
  // The process-wide hook that hears "the live file stopped growing" warnings; NULL: none.
  static void set_live_stop_warning(void (*warn)(const std::string& text)) noexcept;
  // The live file after the dump: removed (kept when `keep_file`), its mapping kept for release().
  void end_live_file(bool keep_file);
  // In a forked child: the buffer belongs to the parent; nothing more is recorded into it here.
  void abandon_in_child() noexcept { next_.store(kClosedMark, std::memory_order_seq_cst); }
  // Makes records ready to at least one chunk past the claims so far.
  void extend_ahead_of_writers() noexcept;

 private:
  struct alignas(64) SegmentUse {
    std::atomic<uint64_t> used{0};  // records claimed in the segment, written by its owner only
  };

  bool map_segment_uses(std::string* why_not);
  bool wait_ready(uint64_t index) noexcept;
  // Under live_mutex_: makes records [0, end) writable; false when no record past ready_ can be.
  bool extend_to(uint64_t end) noexcept;

  alignas(64) std::atomic<uint64_t> next_{0};  // first record of the next segment; kClosedMark+
  alignas(64) format::ProfilerRecord* records_ = nullptr;
  uint64_t capacity_ = 0;
  std::atomic<uint64_t> ready_{0};             // records [0, ready_) may be written
  std::atomic<uint64_t> lookahead_chunks_{2};  // kept ready past the claims
  uint64_t id_ = 0;                            // this buffer in the threads' lane caches
  uint32_t segment_shift_ = 0;                 // records per segment = 1 << segment_shift_
  SegmentUse* uses_ = nullptr;
  uint64_t segment_count_ = 0;
  size_t mapped_bytes_ = 0;
  // Claims past the capacity, counted per stripe of threads so that threads dropping at once do
  // not contend on one counter (drop_stripe()).
  struct alignas(64) DropStripe {
    std::atomic<uint64_t> count{0};
  };
  uint64_t count_drop() noexcept;  // the dropped claim's index (>= capacity_, unique)
  uint64_t dropped() const noexcept;
  DropStripe drops_[kDropStripes];
  alignas(64) std::atomic<uint64_t> after_close_{0};
  std::unique_ptr<LiveFile> live_;
  mutable std::mutex live_mutex_;
  bool live_stopped_ = false;  // under live_mutex_
  uint64_t live_end_ = 0;      // under live_mutex_: ready_ when the live file stopped
  std::string live_stop_reason_;
};

}  // namespace npkit::capture

#include "recorder/record_buffer.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "recorder/buffer_extender.hpp"

namespace npkit::capture {
namespace {

constexpr size_t kHugePageBytes = size_t{2} << 20;

std::atomic<void (*)(const std::string&)> g_live_stop_warning{nullptr};

// Tells set_live_stop_warning()'s hook, if any, that a live file stopped growing.
void tell_live_stop(const std::string& reason) noexcept {
  auto* warn = g_live_stop_warning.load(std::memory_order_acquire);
  if (warn == nullptr) return;
  try {
    warn("the live file " + reason +
         "; later records are kept in memory until the dump is written, and are lost if the "
         "process dies first");
  } catch (...) {  // std::bad_alloc: no warning, the capture goes on
  }
}
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite =
    23;  // Linux 5.14; older kernels answer EINVAL (pages then fault on use)
#endif

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

// Each thread's claim positions in the buffers it records into: owner 0 is a free lane; the lane
// used longest ago is the one reused (a buffer that is gone leaves its lane behind).
struct Lane {
  uint64_t owner = 0;
  uint64_t next = 0;
  uint64_t end = 0;
  uint64_t used = 0;  // t_lane_clock at the last claim
};
thread_local Lane t_lanes[RecordBuffer::kThreadLanes];
thread_local uint64_t t_lane_clock = 0;

std::atomic<uint64_t> g_next_buffer_id{1};

std::atomic<unsigned> g_next_drop_stripe{0};
thread_local unsigned t_drop_stripe = ~0u;

unsigned drop_stripe() noexcept {
  if (t_drop_stripe == ~0u) t_drop_stripe = g_next_drop_stripe.fetch_add(1);
  return t_drop_stripe % RecordBuffer::kDropStripes;
}

Lane& lane_for(uint64_t owner) noexcept {
  Lane* lane = &t_lanes[owner % RecordBuffer::kThreadLanes];
  if (lane->owner != owner) {
    Lane* oldest = lane;
    for (Lane& other : t_lanes) {
      if (other.owner == owner) {
        lane = &other;
        break;
      }
      if (other.used < oldest->used) oldest = &other;
    }
    if (lane->owner != owner) {
      lane = oldest;
      *lane = Lane{owner, 0, 0, 0};
    }
  }
  lane->used = ++t_lane_clock;
  return *lane;
}

}  // namespace

RecordBuffer::~RecordBuffer() {
  if (uses_ != nullptr) munmap(uses_, segment_count_ * sizeof(SegmentUse));
  if (records_ != nullptr || live_ != nullptr) unwatch_buffer(this);
  if (live_ != nullptr) {
    live_->unmap();
  } else if (records_ != nullptr) {
    munmap(records_, mapped_bytes_);
  }
}

bool RecordBuffer::map_segment_uses(std::string* why_not) {
  segment_shift_ = 0;
  while ((uint64_t{2} << segment_shift_) <= kMaxSegmentRecords &&
         (capacity_ >> (segment_shift_ + 1)) >= kMinSegments) {
    ++segment_shift_;
  }
  segment_count_ = (capacity_ + segment_records() - 1) / segment_records();
  void* memory = mmap(nullptr, segment_count_ * sizeof(SegmentUse), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    *why_not =
        "mmap of the record buffer's segment table failed: " + std::string(std::strerror(errno));
    segment_count_ = 0;
    return false;
  }
  uses_ = static_cast<SegmentUse*>(memory);  // zero pages: every use count starts at 0
  id_ = g_next_buffer_id.fetch_add(1, std::memory_order_relaxed);
  return true;
}

uint64_t RecordBuffer::claim() noexcept {
  Lane& lane = lane_for(id_);
  if (lane.next == lane.end) {
    // A full buffer stops moving the shared cursor: drops then only read it.
    const uint64_t seen = next_.load(std::memory_order_relaxed);
    if (seen >= capacity_ && seen < kClosedMark) return count_drop();
    const uint64_t first = next_.fetch_add(segment_records(), std::memory_order_relaxed);
    if (first >= kClosedMark) {
      after_close_.fetch_add(1, std::memory_order_relaxed);
      return kClosedMark;
    }
    if (first >= capacity_) return count_drop();
    lane.next = first;
    lane.end = std::min(first + segment_records(), capacity_);
  }
  const uint64_t index = lane.next++;
  const uint64_t in_segment = index & (segment_records() - 1);
  SegmentUse& use = uses_[index >> segment_shift_];
  // With close()'s exchange on next_ (both seq_cst): either this claim sees the close, or the
  // close sees this claim's count.
  use.used.store(in_segment + 1, std::memory_order_seq_cst);
  if (next_.load(std::memory_order_seq_cst) >= kClosedMark) {
    use.used.store(in_segment, std::memory_order_seq_cst);
    lane.next = index;
    after_close_.fetch_add(1, std::memory_order_relaxed);
    return kClosedMark;
  }
  return index;
}

bool RecordBuffer::claim_refused() noexcept {
  const uint64_t next = next_.load(std::memory_order_relaxed);
  if (next >= kClosedMark) {
    after_close_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  if (next < capacity_) return false;
  count_drop();
  return true;
}

uint64_t RecordBuffer::count_drop() noexcept {
  const unsigned stripe = drop_stripe();
  const uint64_t k = drops_[stripe].count.fetch_add(1, std::memory_order_relaxed);
  return capacity_ + k * kDropStripes + stripe;
}

uint64_t RecordBuffer::dropped() const noexcept {
  uint64_t total = 0;
  for (const DropStripe& stripe : drops_) total += stripe.count.load(std::memory_order_relaxed);
  return total;
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
  if (!map_segment_uses(why_not)) {
    munmap(records_, mapped_bytes_);
    records_ = nullptr;
    return false;
  }
  ready_.store(0, std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(live_mutex_);
    extend_to(kLiveChunkRecords);
  }
  watch_buffer(this);
  return true;
}

bool RecordBuffer::reserve_live(std::unique_ptr<LiveFile> live, uint64_t capacity,
                                std::string* why_not) {
  if (!live->extend(std::min(capacity, kLiveChunkRecords), why_not)) return false;
  capacity_ = capacity;
  if (!map_segment_uses(why_not)) return false;
  records_ = live->records();
  mapped_bytes_ = static_cast<size_t>(capacity) * sizeof(format::ProfilerRecord);
  ready_.store(std::min(capacity, kLiveChunkRecords), std::memory_order_release);
  live_ = std::move(live);
  watch_buffer(this);
  return true;
}

bool RecordBuffer::extend_to(uint64_t end) noexcept {
  end = std::min(end, capacity_);
  const uint64_t ready = ready_.load(std::memory_order_relaxed);
  if (end <= ready) return true;
  if (live_ == nullptr) {
    // Anonymous memory is always writable: fault it in ahead (a hint; errors are fine).
    madvise(records_ + ready, (end - ready) * sizeof(format::ProfilerRecord), kPopulateWrite);
    ready_.store(end, std::memory_order_release);
    return true;
  }
  if (live_stopped_) return false;
  try {
    std::string why_not;
    if (live_->extend(end, &why_not)) {
      ready_.store(end, std::memory_order_release);
      return true;
    }
    // The file cannot grow: the rest of the buffer becomes anonymous memory (ready is a whole
    // number of chunks, so of pages), and the live file stops here.
    live_stopped_ = true;
    live_end_ = ready;
    live_stop_reason_ = "stopped at record " + std::to_string(ready) + ": " + why_not;
    if (!live_->detach_from(ready)) return false;
  } catch (...) {  // std::bad_alloc building the reason: the buffer stays as it is
    live_stopped_ = true;
    live_end_ = ready;
    return false;
  }
  ready_.store(capacity_, std::memory_order_release);
  tell_live_stop(live_stop_reason_);
  return true;
}

bool RecordBuffer::wait_ready(uint64_t index) noexcept {
  uint64_t lookahead = lookahead_chunks_.load(std::memory_order_relaxed);
  if (lookahead < kMaxLookaheadChunks) {
    lookahead_chunks_.compare_exchange_strong(lookahead, lookahead * 2, std::memory_order_relaxed);
  }
  std::lock_guard<std::mutex> lock(live_mutex_);
  const uint64_t chunk_end = (index / kLiveChunkRecords + 1) * kLiveChunkRecords;
  return extend_to(chunk_end) && index < ready_.load(std::memory_order_relaxed);
}

void RecordBuffer::extend_ahead_of_writers() noexcept {
  const uint64_t claimed = next_.load(std::memory_order_relaxed);  // segments handed out
  if (claimed >= kClosedMark) return;
  const uint64_t wanted =
      (claimed / kLiveChunkRecords + lookahead_chunks_.load(std::memory_order_relaxed)) *
      kLiveChunkRecords;
  if (std::min(wanted, capacity_) <= ready_.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(live_mutex_);
  extend_to(wanted);
}

uint64_t RecordBuffer::live_records_end() const {
  std::lock_guard<std::mutex> lock(live_mutex_);
  return live_stopped_ ? live_end_ : capacity_;
}

void RecordBuffer::set_live_stop_warning(void (*warn)(const std::string& text)) noexcept {
  g_live_stop_warning.store(warn, std::memory_order_release);
}

void RecordBuffer::end_live_file(bool keep_file) {
  if (live_ != nullptr) live_->remove(keep_file);
}

bool RecordBuffer::close(std::chrono::nanoseconds wait_budget, Closed* out) {
  const uint64_t handed = next_.exchange(kClosedMark, std::memory_order_seq_cst);
  if (handed >= kClosedMark) return false;
  unwatch_buffer(this);
  const uint64_t segment_records = this->segment_records();
  uint64_t segments = std::min(handed / segment_records, segment_count_);
  if (live_ != nullptr) {
    // Claimed records past the extended end are memory past the end of the file until a waiting
    // producer extends it: extend it here, so that reading them cannot fault.
    std::lock_guard<std::mutex> lock(live_mutex_);
    const uint64_t records = std::min(capacity_, segments * segment_records);
    const uint64_t chunks = (records + kLiveChunkRecords - 1) / kLiveChunkRecords;
    extend_to(std::min(capacity_, chunks * kLiveChunkRecords));
    const uint64_t ready = ready_.load(std::memory_order_relaxed);
    segments = std::min(segments, (ready + segment_records - 1) / segment_records);
  }
  out->records = records_;
  out->ranges.clear();
  out->incomplete.clear();
  out->count = 0;

  const auto deadline = std::chrono::steady_clock::now() + wait_budget;
  bool out_of_time = false;
  for (uint64_t segment = 0; segment < segments; ++segment) {
    const std::atomic<uint64_t>& used = uses_[segment].used;
    const uint64_t first = segment * segment_records;
    const uint64_t claimed = used.load(std::memory_order_seq_cst);
    std::vector<uint64_t> unpublished;
    for (uint64_t i = 0; i < claimed; ++i) {
      // A claim that saw the close takes its count back: then nothing is coming.
      while (__atomic_load_n(&records_[first + i].kind, __ATOMIC_ACQUIRE) == 0 &&
             used.load(std::memory_order_acquire) > i) {
        if (out_of_time || std::chrono::steady_clock::now() >= deadline) {
          out_of_time = true;
          unpublished.push_back(first + i);
          break;
        }
        sched_yield();
      }
    }
    // Claims the count read first missed came after the close and are being taken back: a count
    // above it is never kept (a taken-back claim can also lower it).
    const uint64_t end = first + std::min(claimed, used.load(std::memory_order_acquire));
    for (uint64_t index : unpublished) {
      if (index < end) out->incomplete.push_back(index);
    }
    if (end > first) out->ranges.push_back({first, end});
    out->count += end - first;
  }
  out->dropped = dropped();
  out->attempted = out->count + out->dropped;
  return true;
}

uint64_t RecordBuffer::claimed() const noexcept {
  const uint64_t handed = next_.load(std::memory_order_relaxed);
  if (handed >= kClosedMark) return 0;
  uint64_t claimed = dropped();
  const uint64_t segments = std::min(handed >> segment_shift_, segment_count_);
  for (uint64_t segment = 0; segment < segments; ++segment) {
    claimed += uses_[segment].used.load(std::memory_order_relaxed);
  }
  return claimed;
}

uint64_t RecordBuffer::claims_after_close() const noexcept {
  return after_close_.load(std::memory_order_relaxed);
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

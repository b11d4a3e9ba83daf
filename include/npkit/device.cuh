// npkit/device.cuh — NPKit-style events recorded inside CUDA kernels: the recorder handle a kernel
// takes by value, the block and warp event cursors a kernel declares from it, and the
// NPKIT_EVENT_* macros that append format::EventRecord entries to per-block or per-warp buffers in
// device memory. The host side (allocation, collection, clock calibration, the dump file) is
// npkit/host.hpp; docs/capture.md shows both in use.
//
// Contract:
// - Without NPKIT_ENABLE defined, every event macro expands to ((void)0): its arguments are not
//   evaluated and the kernel holds no recorder code (no timer read, no load, no store).
//   NPKIT_BLOCK_RECORDER / NPKIT_WARP_RECORDER then declare an empty object (the handle is not
//   evaluated), so functions taking a cursor compile in both builds.
// - With NPKIT_ENABLE, an event site of NAME is compiled in when any of these is defined as 1 (or
//   defined empty): NPKIT_ENABLE_ALL_EVENTS; NPKIT_ENABLE_EVENT_<NAME> (one event: ENTRY and EXIT
//   together); NPKIT_ENABLE_<GROUP>, where the event's header defines NPKIT_EVENT_<NAME>_GROUP as
//   GROUP (e.g. ALL_REDUCE, ALL_TO_ALL). Otherwise the site expands to ((void)0).
//   NPKIT_EVENT_IS_ENABLED(NAME) is that decision as 0 or 1, usable in #if.
// - Ids: NPKIT_EVENT_ENTRY(rec, NAME, ...) records NPKIT_EVENT_<NAME>_ENTRY, NPKIT_EVENT_EXIT
//   records NPKIT_EVENT_<NAME>_EXIT, NPKIT_EVENT_INSTANT records NPKIT_EVENT_<NAME>; the id macros
//   come from npkit/events.hpp (NPKit's NCCL table) or from the user's own header (user range,
//   named on the host with NPKIT_NAME_EVENT_PAIR / NPKIT_NAME_EVENT_INSTANT).
// - Block events (NPKIT_EVENT_*): the block's thread with linear index 0 records, into the buffer
//   of the block's linear index; every other thread does nothing. Warp events (NPKIT_WARP_EVENT_*):
//   lane 0 of every warp (warp = linear thread index / 32) records into its warp's buffer.
// - Two ways to record, with the same result in memory once a kernel ends. `rec` in an event
//   macro is either the handle (DeviceRecorder) or a cursor of the same kind (BlockEventCursor for
//   NPKIT_EVENT_*, WarpEventCursor for NPKIT_WARP_EVENT_*; the other kind does not compile):
//   - handle: every event loads its buffer's state word and stores it back (a dependent global
//     load, an L2 round trip on the recording thread, per event);
//   - cursor: NPKIT_BLOCK_RECORDER(name, rec) / NPKIT_WARP_RECORDER(name, rec) declare `name`,
//     which loads the recording thread's state word once, keeps it in a register (an event costs a
//     timer read and three stores), and stores it back when `name` goes out of scope (early
//     returns included). While a cursor lives, its buffer must get no event through the handle or
//     another cursor (the last one stored wins); a cursor is not copyable.
// - Buffer b holds records[b * capacity, (b + 1) * capacity). Its state word states[b] counts in
//   its low 56 bits every record attempted since the last reset; bits 56 and 57 say which clocks
//   wrote it (kStateClockGlobalTimer, kStateClockCycles). A record is stored only while attempted <
//   capacity: written = min(attempted, capacity), dropped = attempted - written. Nothing is ever
//   written past a buffer's end. One thread writes a buffer, so there are no atomics.
// - An event of a block (or warp) beyond the recorder's buffers is not stored: it adds 1 to
//   *unbuffered (atomicAdd; a cursor adds its count once, when it goes out of scope). A zero
//   (default) handle counts nothing and stores nothing.
// - Timestamps: %globaltimer (ns, one time base for all GPUs of a host) by default; with
//   NPKIT_CLOCK_CYCLES defined, clock64() cycles of the SM (the host measures their rate).
// - A buffer collects across kernel launches until the host resets it.
// Header-only; needs only CUDA and npkit/format.hpp (C++17). In host-only code the handle type,
// store_event() and BufferCursor are usable; the cursors and event functions exist only under
// nvcc.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npkit/format.hpp"

#if defined(__CUDACC__)
#define NPKIT_HOST_DEVICE __host__ __device__
#else
#define NPKIT_HOST_DEVICE
#endif

namespace npkit {

// What a kernel receives (by value) to record events. Made by DeviceEventRecorder (host.hpp).
struct DeviceRecorder {
  format::EventRecord* records = nullptr;    // buffers * capacity records
  unsigned long long* states = nullptr;      // one state word per buffer (see the contract)
  unsigned long long* unbuffered = nullptr;  // events of blocks or warps without a buffer
  uint32_t capacity = 0;                     // records per buffer
  uint32_t block_buffers = 0;    // buffers 0 .. block_buffers-1: one per block (0: none)
  uint32_t warp_blocks = 0;      // blocks that have warp buffers
  uint32_t warps_per_block = 0;  // warp buffers per block, after the block buffers
};
static_assert(std::is_trivially_copyable_v<DeviceRecorder>);
static_assert(sizeof(DeviceRecorder) == 40);  // tests/cuda/check_cu.sh finds the parameter by it

// State word layout (DeviceRecorder::states).
inline constexpr unsigned long long kStateAttemptedMask = (1ull << 56) - 1;
inline constexpr unsigned long long kStateClockGlobalTimer = 1ull << 56;
inline constexpr unsigned long long kStateClockCycles = 1ull << 57;

// Whether this translation unit records events at all (internal linkage: translation units of
// one program may differ).
#if defined(NPKIT_ENABLE)
constexpr bool kEventsCompiledIn = true;
#else
constexpr bool kEventsCompiledIn = false;
#endif

namespace device_detail {

// One buffer as its only writer sees it: open() loads the state word once; append() stores a
// record while one fits and counts every append in a register (no load, no dependence on earlier
// appends but the slot pointer); close() stores the state word back: the loaded count plus the
// appends, with `clock_bit` when there were any.
struct BufferCursor {
  format::EventRecord* next;       // where the next record goes
  unsigned long long* state_word;  // the buffer's state word
  unsigned long long state;        // its value at open()
  unsigned long long appended;     // appends since open()
  uint32_t left;                   // records that still fit

  NPKIT_HOST_DEVICE void open(const DeviceRecorder& rec, uint32_t buffer) {
    state_word = rec.states + buffer;
    state = *state_word;
    appended = 0;
    const unsigned long long attempted = state & kStateAttemptedMask;
    const uint32_t written =
        attempted < rec.capacity ? static_cast<uint32_t>(attempted) : rec.capacity;
    left = rec.capacity - written;
    next = rec.records + static_cast<uint64_t>(buffer) * rec.capacity + written;
  }

  NPKIT_HOST_DEVICE void append(uint64_t timestamp, uint16_t id, uint64_t size, uint32_t user) {
    if (left != 0) {
#if defined(__CUDA_ARCH__)
      // Three 8-byte stores: user (offset 16), id (20) and reserved (22) share the last word.
      uint64_t* words = reinterpret_cast<uint64_t*>(next);
      words[0] = timestamp;
      words[1] = size;
      words[2] = static_cast<uint64_t>(user) | (static_cast<uint64_t>(id) << 32);
#else
      next->timestamp = timestamp;
      next->size = size;
      next->user = user;
      next->id = id;
      next->reserved = 0;
#endif
      ++next;
      --left;
    }
    ++appended;
  }

  NPKIT_HOST_DEVICE void close(unsigned long long clock_bit) const {
    if (appended != 0) *state_word = (state | clock_bit) + appended;
  }
};

// Appends one record to buffer `buffer` (the caller checked buffer < the number of buffers): the
// handle form, a whole open / append / close per event.
NPKIT_HOST_DEVICE inline void store_event(const DeviceRecorder& rec, uint32_t buffer,
                                          uint64_t timestamp, unsigned long long clock_bit,
                                          uint16_t id, uint64_t size, uint32_t user) {
  BufferCursor cursor;
  cursor.open(rec, buffer);
  cursor.append(timestamp, id, size, user);
  cursor.close(clock_bit);
}

// What depends on NPKIT_CLOCK_CYCLES lives in an inline namespace named after the clock, so
// translation units built with and without it never share a definition (also with -rdc).
#if defined(NPKIT_CLOCK_CYCLES)
#define NPKIT_DETAIL_CLOCK_NAMESPACE clock_cycles
#else
#define NPKIT_DETAIL_CLOCK_NAMESPACE clock_globaltimer
#endif
inline namespace NPKIT_DETAIL_CLOCK_NAMESPACE {

#if defined(NPKIT_CLOCK_CYCLES)
constexpr unsigned long long kCompiledClockBit = kStateClockCycles;
#else
constexpr unsigned long long kCompiledClockBit = kStateClockGlobalTimer;
#endif

#if defined(__CUDACC__)

__device__ __forceinline__ uint64_t read_clock() {
#if defined(NPKIT_CLOCK_CYCLES)
  return static_cast<uint64_t>(clock64());
#else
  uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
#endif
}

__device__ __forceinline__ uint32_t linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ __forceinline__ uint32_t linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ void count_unbuffered(const DeviceRecorder& rec) {
  if (rec.unbuffered != nullptr) atomicAdd(rec.unbuffered, 1ull);
}

__device__ __forceinline__ void block_event(const DeviceRecorder& rec, uint16_t id, uint64_t size,
                                            uint32_t user) {
  if (linear_thread() != 0) return;
  const uint64_t now = read_clock();
  const uint32_t block = linear_block();
  if (block >= rec.block_buffers) {
    count_unbuffered(rec);
    return;
  }
  store_event(rec, block, now, kCompiledClockBit, id, size, user);
}

__device__ __forceinline__ void warp_event(const DeviceRecorder& rec, uint16_t id, uint64_t size,
                                           uint32_t user) {
  const uint32_t thread = linear_thread();
  if ((thread & 31u) != 0) return;
  const uint64_t now = read_clock();
  const uint32_t block = linear_block();
  const uint32_t warp = thread >> 5;
  if (block >= rec.warp_blocks || warp >= rec.warps_per_block) {
    count_unbuffered(rec);
    return;
  }
  store_event(rec, rec.block_buffers + block * rec.warps_per_block + warp, now, kCompiledClockBit,
              id, size, user);
}

#endif  // __CUDACC__

}  // namespace NPKIT_DETAIL_CLOCK_NAMESPACE
}  // namespace device_detail

#if defined(__CUDACC__)
// The cursors differ with NPKIT_ENABLE and NPKIT_CLOCK_CYCLES: one inline namespace per
// combination, so translation units built differently never share a definition.
#if !defined(NPKIT_ENABLE)
#define NPKIT_DETAIL_CURSOR_NAMESPACE cursors_compiled_out
#elif defined(NPKIT_CLOCK_CYCLES)
#define NPKIT_DETAIL_CURSOR_NAMESPACE cursors_clock_cycles
#else
#define NPKIT_DETAIL_CURSOR_NAMESPACE cursors_clock_globaltimer
#endif

#if defined(NPKIT_ENABLE)
namespace device_detail {
inline namespace NPKIT_DETAIL_CURSOR_NAMESPACE {

// What a cursor does in its thread: record into one buffer (its state in registers until the
// cursor ends), count the events of a block or warp without a buffer, or nothing.
class ThreadCursor {
 public:
  ThreadCursor(const ThreadCursor&) = delete;
  ThreadCursor& operator=(const ThreadCursor&) = delete;

  __device__ __forceinline__ void record(uint16_t id, uint64_t size, uint32_t user) {
    if (recording_) buffer_.append(read_clock(), id, size, user);
  }

 protected:
  __device__ __forceinline__ ThreadCursor() {}
  __device__ __forceinline__ ~ThreadCursor() {
    if (!recording_) return;
    if (unbuffered_ == nullptr) {
      buffer_.close(kCompiledClockBit);
    } else if (buffer_.appended != 0) {
      atomicAdd(unbuffered_, buffer_.appended);
    }
  }
  __device__ __forceinline__ void open_buffer(const DeviceRecorder& rec, uint32_t buffer) {
    recording_ = true;
    buffer_.open(rec, buffer);
  }
  // Events only counted (a zero handle's are dropped): nothing fits, no state word.
  __device__ __forceinline__ void open_unbuffered(const DeviceRecorder& rec) {
    if (rec.unbuffered == nullptr) return;
    recording_ = true;
    unbuffered_ = rec.unbuffered;
    buffer_.appended = 0;
    buffer_.left = 0;
  }

 private:
  bool recording_ = false;
  unsigned long long* unbuffered_ = nullptr;  // set: count into it instead of a buffer
  BufferCursor buffer_;
};

}  // namespace NPKIT_DETAIL_CURSOR_NAMESPACE
}  // namespace device_detail

inline namespace NPKIT_DETAIL_CURSOR_NAMESPACE {

// Declared by NPKIT_BLOCK_RECORDER: thread 0 of the block records into the block's buffer.
class BlockEventCursor : public device_detail::ThreadCursor {
 public:
  __device__ __forceinline__ explicit BlockEventCursor(const DeviceRecorder& rec) {
    if (device_detail::linear_thread() != 0) return;
    const uint32_t block = device_detail::linear_block();
    if (block < rec.block_buffers) {
      open_buffer(rec, block);
    } else {
      open_unbuffered(rec);
    }
  }
};

// Declared by NPKIT_WARP_RECORDER: lane 0 of every warp records into its warp's buffer.
class WarpEventCursor : public device_detail::ThreadCursor {
 public:
  __device__ __forceinline__ explicit WarpEventCursor(const DeviceRecorder& rec) {
    const uint32_t thread = device_detail::linear_thread();
    if ((thread & 31u) != 0) return;
    const uint32_t block = device_detail::linear_block();
    const uint32_t warp = thread >> 5;
    if (block < rec.warp_blocks && warp < rec.warps_per_block) {
      open_buffer(rec, rec.block_buffers + block * rec.warps_per_block + warp);
    } else {
      open_unbuffered(rec);
    }
  }
};

}  // namespace NPKIT_DETAIL_CURSOR_NAMESPACE

namespace device_detail {
inline namespace NPKIT_DETAIL_CURSOR_NAMESPACE {

__device__ __forceinline__ void block_event(BlockEventCursor& cursor, uint16_t id, uint64_t size,
                                            uint32_t user) {
  cursor.record(id, size, user);
}

__device__ __forceinline__ void warp_event(WarpEventCursor& cursor, uint16_t id, uint64_t size,
                                           uint32_t user) {
  cursor.record(id, size, user);
}

}  // namespace NPKIT_DETAIL_CURSOR_NAMESPACE
}  // namespace device_detail

#else  // NPKIT_ENABLE

// Without NPKIT_ENABLE a cursor holds nothing and no event macro uses it.
inline namespace NPKIT_DETAIL_CURSOR_NAMESPACE {
struct BlockEventCursor {};
struct WarpEventCursor {};
}  // namespace NPKIT_DETAIL_CURSOR_NAMESPACE

#endif  // NPKIT_ENABLE
#endif  // __CUDACC__
}  // namespace npkit

// ---- Compile-time selection (preprocessor) ---------------------------------------------------
#define NPKIT_PP_CAT(a, b) NPKIT_PP_CAT_I(a, b)
#define NPKIT_PP_CAT_I(a, b) a##b
#define NPKIT_PP_SECOND(a, b, ...) b
#define NPKIT_PP_IS_PROBE(...) NPKIT_PP_SECOND(__VA_ARGS__, 0, 0)
#define NPKIT_PP_PROBE_ONE_1_ ~, 1
#define NPKIT_PP_PROBE_ONE__ ~, 1
// 1 when `x` expands to 1 or to nothing, else 0 (also for a name that is not a macro).
#define NPKIT_PP_IS_ONE(x) NPKIT_PP_IS_PROBE(NPKIT_PP_CAT(NPKIT_PP_PROBE_ONE_, NPKIT_PP_CAT(x, _)))
#define NPKIT_PP_OR3(a, b, c) NPKIT_PP_CAT(NPKIT_PP_OR3_, NPKIT_PP_CAT(a, NPKIT_PP_CAT(b, c)))
#define NPKIT_PP_OR3_000 0
#define NPKIT_PP_OR3_001 1
#define NPKIT_PP_OR3_010 1
#define NPKIT_PP_OR3_011 1
#define NPKIT_PP_OR3_100 1
#define NPKIT_PP_OR3_101 1
#define NPKIT_PP_OR3_110 1
#define NPKIT_PP_OR3_111 1
#define NPKIT_PP_IF(condition) NPKIT_PP_CAT(NPKIT_PP_IF_, condition)
#define NPKIT_PP_IF_1(then, otherwise) then
#define NPKIT_PP_IF_0(then, otherwise) otherwise

#if defined(NPKIT_ENABLE)
#define NPKIT_BLOCK_RECORDER(name, rec) ::npkit::BlockEventCursor name(rec)
#define NPKIT_WARP_RECORDER(name, rec) ::npkit::WarpEventCursor name(rec)
// Names are pasted here, in the macros users call, so an event NAME that is also a macro stays a
// name.
#define NPKIT_EVENT_IS_ENABLED(NAME) \
  NPKIT_DETAIL_SELECTED(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP)
#define NPKIT_DETAIL_SELECTED(event_switch, group)                                      \
  NPKIT_PP_OR3(NPKIT_PP_IS_ONE(NPKIT_ENABLE_ALL_EVENTS), NPKIT_PP_IS_ONE(event_switch), \
               NPKIT_PP_IS_ONE(NPKIT_PP_CAT(NPKIT_ENABLE_, group)))
#define NPKIT_DETAIL_SITE(event_switch, group, function, rec, id, size, user) \
  NPKIT_PP_IF(NPKIT_DETAIL_SELECTED(event_switch, group))                     \
  (::npkit::device_detail::function((rec), (id), (size), (user)), ((void)0))

#define NPKIT_EVENT_ENTRY(rec, NAME, size, user)                                             \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, block_event, rec, \
                    NPKIT_EVENT_##NAME##_ENTRY, size, user)
#define NPKIT_EVENT_EXIT(rec, NAME, size, user)                                              \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, block_event, rec, \
                    NPKIT_EVENT_##NAME##_EXIT, size, user)
#define NPKIT_EVENT_INSTANT(rec, NAME, size, user)                                           \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, block_event, rec, \
                    NPKIT_EVENT_##NAME, size, user)
#define NPKIT_WARP_EVENT_ENTRY(rec, NAME, size, user)                                       \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, warp_event, rec, \
                    NPKIT_EVENT_##NAME##_ENTRY, size, user)
#define NPKIT_WARP_EVENT_EXIT(rec, NAME, size, user)                                        \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, warp_event, rec, \
                    NPKIT_EVENT_##NAME##_EXIT, size, user)
#define NPKIT_WARP_EVENT_INSTANT(rec, NAME, size, user)                                     \
  NPKIT_DETAIL_SITE(NPKIT_ENABLE_EVENT_##NAME, NPKIT_EVENT_##NAME##_GROUP, warp_event, rec, \
                    NPKIT_EVENT_##NAME, size, user)
#else
#define NPKIT_BLOCK_RECORDER(name, rec) [[maybe_unused]] ::npkit::BlockEventCursor name
#define NPKIT_WARP_RECORDER(name, rec) [[maybe_unused]] ::npkit::WarpEventCursor name
#define NPKIT_EVENT_IS_ENABLED(NAME) 0
#define NPKIT_EVENT_ENTRY(rec, NAME, size, user) ((void)0)
#define NPKIT_EVENT_EXIT(rec, NAME, size, user) ((void)0)
#define NPKIT_EVENT_INSTANT(rec, NAME, size, user) ((void)0)
#define NPKIT_WARP_EVENT_ENTRY(rec, NAME, size, user) ((void)0)
#define NPKIT_WARP_EVENT_EXIT(rec, NAME, size, user) ((void)0)
#define NPKIT_WARP_EVENT_INSTANT(rec, NAME, size, user) ((void)0)
#endif

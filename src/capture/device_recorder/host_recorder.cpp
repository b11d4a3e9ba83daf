// HostRecorder: per-thread event streams of a CPU program (npkit/host.hpp). Each stream has one
// writer, its thread; a stream's record count is published with release order after the record,
// so capture() reads complete records only.
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

#include "device_recorder/recorder_memory.hpp"
#include "npkit/host.hpp"
#include "recorder/host_clock.hpp"
#include "recorder/thread_registry.hpp"

namespace npkit {
namespace {

constexpr int32_t kNoStreamYet = -1;
constexpr int32_t kNoStreamLeft = -2;

}  // namespace

struct HostRecorder::State {
  struct Stream {
    std::atomic<uint32_t> ready{0};    // os_tid and name are set
    std::atomic<uint64_t> written{0};  // records stored (the owner publishes with release)
    std::atomic<uint64_t> dropped{0};  // written only by the owner
    int32_t os_tid = 0;
    char name[16] = {};
  };

  State(uint32_t threads, uint64_t records_per_thread)
      : max_threads(threads),
        capacity(records_per_thread),
        streams(new Stream[threads]),
        stream_of_thread(new std::atomic<int32_t>[capture::ThreadRegistry::kCapacity]) {
    for (uint32_t slot = 0; slot < capture::ThreadRegistry::kCapacity; ++slot) {
      stream_of_thread[slot].store(kNoStreamYet, std::memory_order_relaxed);
    }
  }
  ~State() {
    if (records != nullptr) munmap(records, mapped_bytes);
  }

  // The calling thread's first event: a stream of its own, or kNoStreamLeft.
  int32_t claim_stream(uint16_t slot) {
    const uint32_t index = next_stream.fetch_add(1, std::memory_order_relaxed);
    if (index >= max_threads) {
      stream_of_thread[slot].store(kNoStreamLeft, std::memory_order_relaxed);
      return kNoStreamLeft;
    }
    Stream& stream = streams[index];
    format::ThreadEntry thread{};
    if (capture::process_thread_registry().entry(slot, &thread)) {
      stream.os_tid = thread.os_tid;
      std::memcpy(stream.name, thread.name, sizeof(stream.name));
    }
    stream.ready.store(1, std::memory_order_release);
    stream_of_thread[slot].store(static_cast<int32_t>(index), std::memory_order_relaxed);
    return static_cast<int32_t>(index);
  }

  const uint32_t max_threads;
  const uint64_t capacity;  // records per stream
  uint64_t buffer_size_mb = 0;
  int64_t created_ns = 0;
  format::EventRecord* records = nullptr;  // max_threads * capacity, mapped
  size_t mapped_bytes = 0;
  std::unique_ptr<Stream[]> streams;
  std::unique_ptr<std::atomic<int32_t>[]> stream_of_thread;  // by thread registry slot
  std::atomic<uint32_t> next_stream{0};
  std::atomic<uint64_t> without_stream{0};
};

std::unique_ptr<HostRecorder> HostRecorder::create(const Options& options, std::string* error) {
  if (options.max_threads == 0) {
    *error = "HostRecorder: max_threads must be at least 1";
    return nullptr;
  }
  std::vector<std::string> warnings;
  const uint64_t mb = capture::buffer_size_mb_from_environment(&warnings);
  const uint64_t per_thread = options.records_per_thread != 0
                                  ? options.records_per_thread
                                  : capture::records_per_buffer(mb, options.max_threads);
  auto state = std::make_unique<State>(options.max_threads, per_thread);
  state->buffer_size_mb = mb;
  state->mapped_bytes =
      static_cast<size_t>(options.max_threads) * per_thread * sizeof(format::EventRecord);
  // Untouched pages cost nothing (MAP_NORESERVE); a thread's records fill its stream in order.
  void* memory = mmap(nullptr, state->mapped_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    *error = "HostRecorder: mmap of " + std::to_string(state->mapped_bytes) +
             " bytes failed: " + std::strerror(errno);
    return nullptr;
  }
  state->records = static_cast<format::EventRecord*>(memory);
  state->created_ns = capture::host_now_ns();
  return std::unique_ptr<HostRecorder>(new HostRecorder(std::move(state)));
}

HostRecorder::HostRecorder(std::unique_ptr<State> state) : state_(std::move(state)) {}

HostRecorder::~HostRecorder() = default;

void HostRecorder::record(uint16_t id, uint64_t size, uint32_t user) noexcept {
  State& state = *state_;
  const int64_t now = capture::host_now_ns();
  const uint16_t slot = capture::current_thread_slot();
  if (slot >= capture::ThreadRegistry::kCapacity) {
    state.without_stream.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  int32_t index = state.stream_of_thread[slot].load(std::memory_order_relaxed);
  if (index == kNoStreamYet) index = state.claim_stream(slot);
  if (index < 0) {
    state.without_stream.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  State::Stream& stream = state.streams[index];
  const uint64_t written = stream.written.load(std::memory_order_relaxed);
  if (written >= state.capacity) {
    stream.dropped.store(stream.dropped.load(std::memory_order_relaxed) + 1,
                         std::memory_order_relaxed);
    return;
  }
  format::EventRecord& record =
      state.records[static_cast<uint64_t>(index) * state.capacity + written];
  record.timestamp = static_cast<uint64_t>(now);
  record.size = size;
  record.user = user;
  record.id = id;
  record.reserved = 0;
  stream.written.store(written + 1, std::memory_order_release);
}

HostCapture HostRecorder::capture() const {
  const State& state = *state_;
  HostCapture out;
  out.created_ns = state.created_ns;
  out.buffer_size_mb = state.buffer_size_mb;
  out.events_without_stream = state.without_stream.load(std::memory_order_relaxed);
  const uint32_t claimed = state.next_stream.load(std::memory_order_acquire);
  const uint32_t streams = claimed < state.max_threads ? claimed : state.max_threads;
  for (uint32_t index = 0; index < streams; ++index) {
    const State::Stream& stream = state.streams[index];
    if (stream.ready.load(std::memory_order_acquire) == 0) continue;  // being claimed right now
    const uint64_t written = stream.written.load(std::memory_order_acquire);
    CapturedStream captured;
    captured.info.source = format::kStreamHostThread;
    captured.info.clock = format::kStreamClockHost;
    captured.info.cuda_device = -1;
    captured.info.records_written = written;
    captured.info.records_dropped = stream.dropped.load(std::memory_order_relaxed);
    captured.info.capacity = state.capacity;
    captured.info.os_tid = stream.os_tid;
    captured.name.assign(stream.name, strnlen(stream.name, sizeof(stream.name)));
    if (captured.name.empty()) captured.name = "thread " + std::to_string(stream.os_tid);
    const format::EventRecord* first =
        state.records + static_cast<uint64_t>(index) * state.capacity;
    captured.records.assign(first, first + written);
    out.streams.push_back(std::move(captured));
  }
  return out;
}

}  // namespace npkit

// npkit/host.hpp — the host side of the event recorders: device buffers for kernels instrumented
// with npkit/device.cuh (allocation, reset, collection, GPU clock calibration), events recorded
// from CPU threads, event names, and the dump file of one rank (format v1.1, .npkt) that
// npkit-analyze reads. docs/capture.md ("Instrument your own kernel") shows a complete use.
//
// Contract:
// - EventNameTable names user events (ids kFirstUserEventId..kLastUserEventId, events.hpp); ids of
//   NPKit's NCCL table are named from events.hpp when they occur, and an id nobody named is
//   written as the instant "UNNAMED_0x<id>". ENTRY names end in "_ENTRY", EXIT names in "_EXIT".
// - DeviceEventRecorder (library npkit_device_recorder, CUDA runtime): create() allocates on one
//   GPU the buffers of `blocks` blocks (and `warps_per_block` warps of each), zeroed, takes a
//   host/GPU clock sample and measures the clock64 rate (a one-thread kernel reads %globaltimer
//   and clock64 over kCycleRateWindowNs). Records per buffer: Options::records_per_buffer, else
//   NPKIT_BUFFER_SIZE_MB (MiB for all of the recorder's buffers together, default 64) split evenly.
//   handle() is what kernels take. reset() zeroes every buffer's counters. capture() waits for the
//   GPU (cudaDeviceSynchronize), copies counters and records, takes a second clock sample and rate
//   measurement, and fails if a buffer mixes %globaltimer and clock64 records. Every call makes
//   the recorder's device current for its duration and restores the caller's.
// - HostRecorder: record() appends one event of the calling thread to that thread's stream with
//   no lock, no allocation and no system call (a thread's first event registers it: gettid and
//   its name, once); it never blocks, and a full stream counts drops. Records per thread:
//   Options::records_per_thread, else NPKIT_BUFFER_SIZE_MB split over max_threads. capture() may
//   run while threads record: it sees, per stream, a prefix of complete records.
// - write_event_dump() writes npkit_<group hash>_rank<rank>.npkt into `directory` ("" means
//   NPKIT_DUMP_DIR, else "npkit-dump"; created with its parents), atomically (a new file of an
//   unpredictable temporary name, published without replacing anything: when the name is taken,
//   by a file or a link, the dump takes a fresh name and a warning on stderr says what was there;
//   *path gets the name used), with the sections Communicator, Metadata, ClockSamples (when there
//   are samples), Strings (stream names), EventNames, Streams, EventRecords. All GPU captures of
//   one file must come from one device. On failure: false and *error says why.
// C++17; usable from CUDA translation units.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "npkit/device.cuh"
#include "npkit/format.hpp"

namespace npkit {

inline constexpr uint64_t kCycleRateWindowNs = 5'000'000;

// ---- Event names -------------------------------------------------------------------------------

class EventNameTable {
 public:
  struct Entry {
    uint16_t id;
    format::EventKind kind;
    std::string name;
    std::string phase;  // phase hint ("reduce_scatter", "all_gather", "sync", ...); "" for none
  };

  // Names one user event. False (and *error, nothing added) for an id outside the user range, an
  // id already named otherwise, an empty name, or a name whose suffix does not match the kind.
  // Naming an id again exactly as before is accepted.
  bool add(uint16_t id, format::EventKind kind, const std::string& name, const std::string& phase,
           std::string* error);
  // Names NAME_ENTRY and NAME_EXIT (both or neither).
  bool add_pair(uint16_t entry_id, uint16_t exit_id, const std::string& name,
                const std::string& phase, std::string* error);
  const Entry* find(uint16_t id) const;
  const std::vector<Entry>& entries() const { return entries_; }  // ascending ids

 private:
  std::string refusal(uint16_t id, format::EventKind kind, const std::string& name,
                      const std::string& phase) const;
  void insert(uint16_t id, format::EventKind kind, const std::string& name,
              const std::string& phase);

  std::vector<Entry> entries_;
};

// NPKIT_NAME_EVENT_PAIR(table, MY_PHASE, "reduce_scatter", &error) names the ids
// NPKIT_EVENT_MY_PHASE_ENTRY / _EXIT "MY_PHASE_ENTRY" / "MY_PHASE_EXIT".
#define NPKIT_NAME_EVENT_PAIR(table, NAME, phase, error) \
  (table).add_pair(NPKIT_EVENT_##NAME##_ENTRY, NPKIT_EVENT_##NAME##_EXIT, #NAME, (phase), (error))
#define NPKIT_NAME_EVENT_INSTANT(table, NAME, phase, error) \
  (table).add(NPKIT_EVENT_##NAME, ::npkit::format::kEventInstant, #NAME, (phase), (error))

// ---- What the recorders captured ---------------------------------------------------------------

struct CapturedStream {
  format::StreamInfo info{};  // name_string and first_record are assigned when a file is written
  std::string name;           // kernel label (GPU) or thread name (host)
  std::vector<format::EventRecord> records;  // info.records_written records, in order
};

struct GpuCapture {
  int cuda_device = -1;
  int64_t created_ns = 0;       // host clock when the recorder was created
  uint64_t buffer_size_mb = 0;  // NPKIT_BUFFER_SIZE_MB in effect
  uint64_t records_per_buffer = 0;
  std::vector<CapturedStream> streams;  // buffers that saw at least one event, block then warp
  uint64_t events_without_buffer = 0;   // events of blocks or warps beyond the buffers
  std::vector<format::ClockSample> clock_samples;          // at creation and at capture
  std::vector<std::pair<std::string, std::string>> facts;  // gpu.* and clock.* metadata
  std::vector<std::pair<std::string, std::string>> notes;  // (what is missing, why)
};

struct HostCapture {
  int64_t created_ns = 0;
  uint64_t buffer_size_mb = 0;
  std::vector<CapturedStream> streams;  // one per thread that recorded, in order of first event
  uint64_t events_without_stream = 0;   // events of threads beyond max_threads
};

// ---- Device recorder (library npkit_device_recorder) -------------------------------------------

class DeviceEventRecorder {
 public:
  struct Options {
    int cuda_device = -1;             // -1: the calling thread's current device
    uint32_t blocks = 0;              // blocks of the instrumented launches (linear index)
    bool block_buffers = true;        // one buffer per block (NPKIT_EVENT_*)
    uint32_t warps_per_block = 0;     // one buffer per warp of each block (NPKIT_WARP_EVENT_*)
    uint64_t records_per_buffer = 0;  // 0: from NPKIT_BUFFER_SIZE_MB
    std::string name = "kernel";      // names the GPU streams in the dump
  };

  static std::unique_ptr<DeviceEventRecorder> create(const Options& options, std::string* error);
  ~DeviceEventRecorder();
  DeviceEventRecorder(const DeviceEventRecorder&) = delete;
  DeviceEventRecorder& operator=(const DeviceEventRecorder&) = delete;

  const DeviceRecorder& handle() const { return handle_; }
  uint64_t records_per_buffer() const { return handle_.capacity; }
  bool reset(std::string* error);
  bool capture(GpuCapture* out, std::string* error);

 private:
  DeviceEventRecorder() = default;
  uint32_t buffer_count() const;

  DeviceRecorder handle_{};
  Options options_;
  int device_ = -1;
  GpuCapture at_creation_;  // facts, notes and the sample taken by create()
  uint64_t cycles_per_second_at_creation_ = 0;
};

// ---- Host recorder -----------------------------------------------------------------------------

class HostRecorder {
 public:
  struct Options {
    uint32_t max_threads = 16;        // threads that get a stream
    uint64_t records_per_thread = 0;  // 0: from NPKIT_BUFFER_SIZE_MB
  };

  static std::unique_ptr<HostRecorder> create(const Options& options, std::string* error);
  ~HostRecorder();
  HostRecorder(const HostRecorder&) = delete;
  HostRecorder& operator=(const HostRecorder&) = delete;

  // One event of the calling thread, stamped with the host clock (CLOCK_REALTIME ns).
  void record(uint16_t id, uint64_t size = 0, uint32_t user = 0) noexcept;
  HostCapture capture() const;

 private:
  struct State;
  explicit HostRecorder(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// ---- The dump of one rank ----------------------------------------------------------------------

struct RankIdentity {
  uint64_t group_hash = 0;  // the same on every rank of the group (CommunicatorInfo::comm_hash)
  int32_t rank = 0;
  int32_t nranks = 1;
  int32_t nnodes = 1;
  std::string group_name;  // metadata comm_name; "" leaves it out
};

struct RankEvents {
  RankIdentity identity;
  const EventNameTable* names = nullptr;  // nullptr: no user names
  std::vector<GpuCapture> gpus;
  std::vector<HostCapture> hosts;
};

// Writes the file; *path (may be null) gets its full name.
bool write_event_dump(const std::string& directory, const RankEvents& events, std::string* path,
                      std::string* error);

}  // namespace npkit

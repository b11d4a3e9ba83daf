#include "rank_run.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "check_pattern.hpp"
#include "device_count.hpp"
#include "device_errors.hpp"
#include "report.hpp"

namespace npkit::driver {
namespace {

// Host staging granularity for filling and checking device buffers.
constexpr std::size_t kStagingFloats = std::size_t{1} << 20;

static_assert(sizeof(ncclUniqueId) == kUniqueIdBytes);

std::string mode_text(const Options& options) {
  if (options.loop_calls > 0) {
    return "loop of " + std::to_string(options.loop_calls) + " synchronized " +
           std::string(coll_name(options.colls.front())) + " calls of " +
           std::to_string(options.min_bytes) + " B";
  }
  if (options.launch_cost_calls > 0) {
    return "launch cost of " + std::string(coll_name(options.colls.front())) + ", " +
           std::to_string(options.launch_cost_calls) + " synchronized calls per size";
  }
  return "sweep";
}

}  // namespace

RankRun::RankRun(int rank, int nranks, const Options& options, ControlPage* page)
    : rank_(rank),
      nranks_(nranks),
      options_(options),
      page_(page),
      faulty_(options.fault && options.fault->rank == rank) {}

RankRun::~RankRun() {
  watchdog_.reset();
  if (csv_ != nullptr) std::fclose(csv_);
}

void RankRun::open_logs(const std::string& csv_header) {
  std::string error;
  if (!options_.calls_log_dir.empty()) {
    if (!calls_log_.open(calls_log_path(options_.calls_log_dir, rank_), &error) ||
        !events_log_.open(events_log_path(options_.calls_log_dir, rank_), &error)) {
      throw DriverError(error);
    }
    if (!calls_log_.write(call_log_header())) throw DriverError("writing the calls log failed");
  }
  if (rank_ == 0 && !options_.csv_path.empty()) {
    csv_ = std::fopen(options_.csv_path.c_str(), "w");
    if (csv_ == nullptr) {
      throw DriverError("cannot write " + options_.csv_path + ": " + std::strerror(errno));
    }
    csv(csv_header);
  }
}

void RankRun::event(const std::string& text) const {
  events_log_.write(event_line(realtime_now_ns(), "rank" + std::to_string(rank_), text));
}

void RankRun::print(const std::string& text) const {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void RankRun::csv(const std::string& text) const {
  if (csv_ == nullptr) return;
  if (std::fputs(text.c_str(), csv_) < 0 || std::fflush(csv_) != 0) {
    throw DriverError("writing " + options_.csv_path + " failed: " + std::strerror(errno));
  }
}

void RankRun::barrier() const {
  if (!npkit::driver::barrier(page_, nranks_)) throw DriverError("stopping: another rank failed");
}

void RankRun::record_device(int device) {
  RankSlot& own = slot();
  own.device = device;
  own.pid = static_cast<std::int32_t>(getpid());
  DRIVER_CUDA(cudaDeviceGetPCIBusId(own.pci_bus_id, sizeof own.pci_bus_id, device));
  cudaDeviceProp properties{};
  DRIVER_CUDA(cudaGetDeviceProperties(&properties, device));
  std::snprintf(own.device_name, sizeof own.device_name, "%s", properties.name);
}

void RankRun::print_preamble() const {
  int version = 0;
  DRIVER_NCCL(ncclGetVersion(&version), nullptr);
  char text[512];
  std::snprintf(text, sizeof text,
                "# npkit-nccl-driver: %d ranks, NCCL %d.%d.%d, %s, sizes %zu..%zu B (x%zu), "
                "warmup %d, iters %d, check %s%s\n",
                nranks_, version / 10000, version % 10000 / 100, version % 100, kTypeName,
                options_.min_bytes, options_.max_bytes, options_.step_factor, options_.warmup,
                options_.iters, options_.check ? "on" : "off",
                options_.destroy ? "" : ", no ncclCommDestroy");
  std::string lines = text;
  lines += "# mode: " + mode_text(options_) + "\n";
  if (options_.one_gpu) {
    lines +=
        "# one GPU: every rank on CUDA device 0 with NCCL_HOSTID=onegpu-host-<rank> set in its "
        "own process (each rank a host of its own to NCCL)\n";
  }
  if (options_.fault) lines += "# fault: " + describe_fault(*options_.fault) + "\n";
  if (options_.watchdog_s > 0) {
    lines += "# watchdog: ncclCommAbort when a call has not completed " +
             std::to_string(options_.watchdog_s) + " s after it returned\n";
  }
  if (!options_.calls_log_dir.empty()) lines += "# calls log: " + options_.calls_log_dir + "\n";
  for (int rank = 0; rank < nranks_; ++rank) {
    const RankSlot& other = slot_of(rank);
    std::snprintf(text, sizeof text, "#  Rank %2d Pid %7d device %2d [%s] %s\n", rank, other.pid,
                  other.device, other.pci_bus_id, other.device_name);
    lines += text;
  }
  print(lines + "#\n");
}

void RankRun::join_communicator() {
  ncclUniqueId id{};
  UniqueIdBytes bytes{};
  if (rank_ == 0) {
    DRIVER_NCCL(ncclGetUniqueId(&id), nullptr);
    std::memcpy(bytes.data(), &id, sizeof id);
    publish_unique_id(page_, bytes);
  } else if (wait_for_unique_id(page_, &bytes)) {
    std::memcpy(&id, bytes.data(), sizeof id);
  } else {
    throw DriverError("stopping: another rank failed before the NCCL unique id was published");
  }
  DRIVER_NCCL(ncclCommInitRank(&comm_, nranks_, id, rank_), comm_);
}

void RankRun::fill_send_buffer(std::size_t bytes) {
  const std::vector<float> staging(kStagingFloats, static_cast<float>(rank_ + 1));
  auto* device = static_cast<char*>(send_);
  for (std::size_t offset = 0; offset < bytes;) {
    const std::size_t chunk = std::min(bytes - offset, kStagingFloats * sizeof(float));
    DRIVER_CUDA(cudaMemcpy(device + offset, staging.data(), chunk, cudaMemcpyHostToDevice));
    offset += chunk;
  }
}

void RankRun::setup(std::size_t buffer_bytes) {
  const int device = options_.one_gpu ? 0 : rank_;
  const int devices = visible_device_count();
  if (device >= devices) {
    throw DriverError("needs CUDA device " + std::to_string(device) + " but only " +
                      std::to_string(devices) + " are visible");
  }
  DRIVER_CUDA(cudaSetDevice(device));
  record_device(device);
  join_communicator();
  event("comm_ready nranks=" + std::to_string(nranks_));
  DRIVER_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  DRIVER_CUDA(cudaMalloc(&send_, buffer_bytes));
  DRIVER_CUDA(cudaMalloc(&recv_, buffer_bytes));
  DRIVER_CUDA(cudaMemset(recv_, 0, buffer_bytes));
  fill_send_buffer(buffer_bytes);
  if (options_.watchdog_s > 0) {
    watchdog_ = std::make_unique<Watchdog>(options_.watchdog_s, rank_, comm_,
                                           [this](const std::string& text) { event(text); });
  }
  barrier();
  if (rank_ == 0) print_preamble();
}

void RankRun::launch(CollKind kind, const CollShape& shape) {
  const std::size_t count = shape.count;
  switch (kind) {
    case CollKind::kAllReduce:
      DRIVER_NCCL(ncclAllReduce(send_, recv_, count, ncclFloat, ncclSum, comm_, stream_), comm_);
      return;
    case CollKind::kAllGather:
      DRIVER_NCCL(ncclAllGather(send_, recv_, count, ncclFloat, comm_, stream_), comm_);
      return;
    case CollKind::kReduceScatter:
      DRIVER_NCCL(ncclReduceScatter(send_, recv_, count, ncclFloat, ncclSum, comm_, stream_),
                  comm_);
      return;
    case CollKind::kAlltoAll:
      DRIVER_NCCL(ncclAlltoAll(send_, recv_, count, ncclFloat, comm_, stream_), comm_);
      return;
    case CollKind::kBroadcast:
      DRIVER_NCCL(ncclBroadcast(send_, recv_, count, ncclFloat, root_rank(kind), comm_, stream_),
                  comm_);
      return;
    case CollKind::kSendRecv: {
      const int to = (rank_ + 1) % nranks_;
      const int from = (rank_ - 1 + nranks_) % nranks_;
      DRIVER_NCCL(ncclGroupStart(), comm_);
      DRIVER_NCCL(ncclSend(send_, count, ncclFloat, to, comm_, stream_), comm_);
      DRIVER_NCCL(ncclRecv(recv_, count, ncclFloat, from, comm_, stream_), comm_);
      DRIVER_NCCL(ncclGroupEnd(), comm_);
      return;
    }
  }
}

void RankRun::apply_fault_before(long long call, CollKind* kind, CollShape* shape) {
  const std::string at = " call=" + std::to_string(call);
  switch (options_.fault->kind) {
    case FaultKind::kKill:
      return;
    case FaultKind::kExit:
      event("fault_exit" + at + ": exiting with status 0 before the call, no ncclCommDestroy");
      std::fprintf(stderr, "npkit-nccl-driver: rank %d: fault: exiting before call %lld\n", rank_,
                   call);
      slot().fault_fired.store(1, std::memory_order_release);
      throw FaultExit{};
    case FaultKind::kSkip:
      event("fault_skip" + at + ": no call from here on; sleeping until killed");
      std::fprintf(stderr,
                   "npkit-nccl-driver: rank %d: fault: skipping call %lld and every later call\n",
                   rank_, call);
      slot().fault_fired.store(1, std::memory_order_release);
      for (;;) pause();
    case FaultKind::kMismatch: {
      const std::size_t count = shape->count / static_cast<std::size_t>(nranks_);
      if (count == 0) throw DriverError("--fault mismatch: the call's count is below nranks");
      event("fault_mismatch" + at + ": ncclAllGather count=" + std::to_string(count) +
            " instead of " + std::string(coll_name(*kind)) +
            " count=" + std::to_string(shape->count));
      std::fprintf(stderr,
                   "npkit-nccl-driver: rank %d: fault: call %lld is a mismatched AllGather\n",
                   rank_, call);
      slot().fault_fired.store(1, std::memory_order_release);
      *kind = CollKind::kAllGather;
      shape->count = count;
      shape->send_bytes = count * kTypeSize;
      shape->recv_bytes = count * kTypeSize * static_cast<std::size_t>(nranks_);
      shape->size_bytes = shape->recv_bytes;
      return;
    }
  }
}

std::pair<cudaEvent_t, cudaEvent_t> RankRun::take_events() {
  if (!free_events_.empty()) {
    const auto events = free_events_.back();
    free_events_.pop_back();
    return events;
  }
  std::pair<cudaEvent_t, cudaEvent_t> events{nullptr, nullptr};
  DRIVER_CUDA(cudaEventCreate(&events.first));
  DRIVER_CUDA(cudaEventCreate(&events.second));
  return events;
}

double RankRun::call(CollKind kind, const CollShape& shape, CallPhase phase) {
  const long long index = next_call_++;
  const bool fault_now = faulty_ && options_.fault->call == index;
  CollShape made = shape;
  if (fault_now) apply_fault_before(index, &kind, &made);
  PendingCall pending;
  const bool logged = calls_log_.is_open();
  if (logged) {
    pending.events = take_events();
    DRIVER_CUDA(cudaEventRecord(pending.events.first, stream_));
  }
  const auto start = std::chrono::steady_clock::now();
  pending.row.host_call_ns = realtime_now_ns();
  launch(kind, made);
  pending.row.host_return_ns = realtime_now_ns();
  const auto returned = std::chrono::steady_clock::now();
  if (logged) DRIVER_CUDA(cudaEventRecord(pending.events.second, stream_));
  if (watchdog_) watchdog_->arm(index);
  pending.row.rank = rank_;
  pending.row.call = index;
  pending.row.coll = coll_name(kind);
  pending.row.size_bytes = made.size_bytes;
  pending.row.count = made.count;
  pending.row.phase = phase;
  if (logged) {
    if (!calls_log_.write(call_log_row(pending.row))) {
      throw DriverError("writing the calls log failed: " + std::string(std::strerror(errno)));
    }
    pending_.push_back(pending);
  }
  if (fault_now && options_.fault->kind == FaultKind::kKill) {
    event("fault_kill call=" + std::to_string(index) +
          ": SIGKILL right after the call returned, before any stream synchronize (its kernel "
          "may not have finished)");
    std::fprintf(stderr, "npkit-nccl-driver: rank %d: fault: SIGKILL after call %lld returned\n",
                 rank_, index);
    slot().fault_fired.store(1, std::memory_order_release);
    kill(getpid(), SIGKILL);
  }
  return std::chrono::duration<double, std::micro>(returned - start).count();
}

std::chrono::steady_clock::time_point RankRun::synchronize() {
  const cudaError_t synced = cudaStreamSynchronize(stream_);
  // ncclCommAbort from the watchdog ends the kernel, and the synchronize returns: this thread
  // must not touch the communicator again (its next call would crash inside NCCL). It waits for
  // the watchdog thread to end the process.
  if (watchdog_ && watchdog_->aborting()) Watchdog::wait_for_exit();
  DRIVER_CUDA(synced);
  const auto done = std::chrono::steady_clock::now();
  if (watchdog_) watchdog_->disarm();
  for (PendingCall& pending : pending_) {
    float ms = 0.0f;
    DRIVER_CUDA(cudaEventElapsedTime(&ms, pending.events.first, pending.events.second));
    pending.row.gpu_us = static_cast<double>(ms) * 1000.0;
    if (!calls_log_.write(call_log_row(pending.row))) {
      throw DriverError("writing the calls log failed: " + std::string(std::strerror(errno)));
    }
    free_events_.push_back(pending.events);
  }
  pending_.clear();
  return done;
}

std::int64_t RankRun::checked_call(CollKind kind, const CollShape& shape) {
  const std::size_t elements = received_elements(shape);
  DRIVER_CUDA(cudaMemsetAsync(recv_, 0, elements * sizeof(float), stream_));
  call(kind, shape, CallPhase::kCheck);
  synchronize();
  std::vector<float> staging(std::min(elements, kStagingFloats));
  const auto* device = static_cast<const float*>(recv_);
  std::int64_t wrong = 0;
  for (std::size_t first = 0; first < elements;) {
    const std::size_t n = std::min(elements - first, kStagingFloats);
    DRIVER_CUDA(
        cudaMemcpy(staging.data(), device + first, n * sizeof(float), cudaMemcpyDeviceToHost));
    wrong += count_wrong(kind, rank_, nranks_, shape.count, first, staging.data(), n);
    first += n;
  }
  return wrong;
}

void RankRun::teardown() {
  watchdog_.reset();
  for (const auto& events : free_events_) {
    DRIVER_CUDA(cudaEventDestroy(events.first));
    DRIVER_CUDA(cudaEventDestroy(events.second));
  }
  free_events_.clear();
  DRIVER_CUDA(cudaFree(send_));
  DRIVER_CUDA(cudaFree(recv_));
  DRIVER_CUDA(cudaStreamDestroy(stream_));
  if (!options_.destroy) {
    event("destroy_skipped (--no-destroy)");
    return;
  }
  event("destroy_called");
  DRIVER_NCCL(ncclCommDestroy(comm_), nullptr);
  event("destroy_done");
}

}  // namespace npkit::driver

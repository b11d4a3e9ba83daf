#include <cuda_runtime.h>

#include <algorithm>
#include <memory>

#include "collective_events.hpp"
#include "collective_kernels.cuh"
#include "rank_runner.hpp"

namespace device_collectives {
namespace {

// The peer waits' clock64 budget: at most 3 GHz, so the real timeout is at least timeout_s.
constexpr double kTimeoutCyclesPerSecond = 3e9;

class RankRunner {
 public:
  RankRunner(int rank, RunShared* shared)
      : rank_(rank), shared_(*shared), options_(shared->options), n_(shared->nranks) {}
  RankRunner(const RankRunner&) = delete;
  RankRunner& operator=(const RankRunner&) = delete;
  ~RankRunner() { release(); }

  void run() {
    if (!setup() || !shared_.barrier.arrive_and_wait() || !connect()) return;
    for (size_t index = 0; index < shared_.plan.size(); ++index) {
      if (!measure(index)) return;
    }
    if (recorder_ != nullptr) dump();
  }

 private:
  // False after recording what failed and aborting the other ranks.
  bool check(cudaError_t status, const char* what) {
    if (status == cudaSuccess) return true;
    return fail(std::string(what) + ": " + cudaGetErrorString(status));
  }
  bool fail(const std::string& why) {
    shared_.errors[rank_] = "rank " + std::to_string(rank_) + ": " + why;
    shared_.barrier.abort();
    return false;
  }

  bool setup() {
    if (!check(cudaSetDevice(rank_), "cudaSetDevice")) return false;
    for (int peer = 0; peer < n_; ++peer) {
      if (peer == rank_) continue;
      int can_access = 0;
      if (!check(cudaDeviceCanAccessPeer(&can_access, rank_, peer), "cudaDeviceCanAccessPeer")) {
        return false;
      }
      if (!can_access) {
        return fail("GPU " + std::to_string(rank_) + " has no peer access to GPU " +
                    std::to_string(peer));
      }
      const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();  // clears it
      } else if (!check(status, "cudaDeviceEnablePeerAccess")) {
        return false;
      }
    }
    int sms = 0;
    int per_sm = 0;
    if (!check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, rank_),
               "cudaDeviceGetAttribute") ||
        !check(resident_blocks_per_sm(options_.threads, &per_sm), "cudaOccupancy")) {
      return false;
    }
    if (options_.blocks > sms * per_sm) {
      return fail("--blocks " + std::to_string(options_.blocks) + ": at most " +
                  std::to_string(sms * per_sm) + " blocks of " + std::to_string(options_.threads) +
                  " threads are resident at once on GPU " + std::to_string(rank_) +
                  ", and every block waits for its peers");
    }
    uint64_t bytes = 16;
    for (const PlannedMeasurement& m : shared_.plan) bytes = std::max(bytes, m.size_bytes);
    const size_t blocks = static_cast<size_t>(options_.blocks);
    RankPointers& mine = shared_.pointers[rank_];
    if (!check(cudaMalloc(&mine.in, bytes), "cudaMalloc") ||
        !check(cudaMalloc(&mine.out, bytes), "cudaMalloc") ||
        !check(cudaMalloc(&mine.send, bytes), "cudaMalloc") ||
        !check(cudaMalloc(&mine.recv, bytes), "cudaMalloc") ||
        !check(cudaMalloc(&mine.progress, blocks * sizeof(uint64_t)), "cudaMalloc") ||
        !check(cudaMalloc(&mine.flags, blocks * 2 * n_ * sizeof(uint64_t)), "cudaMalloc") ||
        !check(cudaMalloc(&error_, sizeof(int)), "cudaMalloc") ||
        !check(cudaMalloc(&wrong_, sizeof(unsigned long long)), "cudaMalloc") ||
        !check(cudaMalloc(&recv_of_rank_, n_ * sizeof(float4*)), "cudaMalloc") ||
        !check(cudaMalloc(&flags_of_rank_, n_ * sizeof(uint64_t*)), "cudaMalloc") ||
        !check(cudaMemset(mine.progress, 0, blocks * sizeof(uint64_t)), "cudaMemset") ||
        !check(cudaMemset(mine.flags, 0, blocks * 2 * n_ * sizeof(uint64_t)), "cudaMemset") ||
        !check(cudaMemset(error_, 0, sizeof(int)), "cudaMemset") ||
        !check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate") ||
        !check(cudaEventCreate(&start_), "cudaEventCreate") ||
        !check(cudaEventCreate(&stop_), "cudaEventCreate") ||
        !check(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) {
      return false;
    }
    if (npkit::kEventsCompiledIn) {
      std::string error;
      npkit::DeviceEventRecorder::Options recorder_options;
      recorder_options.cuda_device = rank_;
      recorder_options.blocks = static_cast<uint32_t>(options_.blocks);
      recorder_options.name = "device-collectives";
      recorder_ = npkit::DeviceEventRecorder::create(recorder_options, &error);
      if (recorder_ == nullptr) return fail(error);
      host_ = npkit::HostRecorder::create({1, 0}, &error);
      if (host_ == nullptr) return fail(error);
      handle_ = recorder_->handle();
    }
    return true;
  }

  // Peer addresses, once every rank has published its own.
  bool connect() {
    std::vector<float4*> recv(n_);
    std::vector<uint64_t*> flags(n_);
    for (int r = 0; r < n_; ++r) {
      recv[r] = reinterpret_cast<float4*>(shared_.pointers[r].recv);
      flags[r] = shared_.pointers[r].flags;
    }
    return check(
               cudaMemcpy(recv_of_rank_, recv.data(), n_ * sizeof(float4*), cudaMemcpyHostToDevice),
               "cudaMemcpy") &&
           check(cudaMemcpy(flags_of_rank_, flags.data(), n_ * sizeof(uint64_t*),
                            cudaMemcpyHostToDevice),
                 "cudaMemcpy");
  }

  cudaError_t launch(const PlannedMeasurement& m) {
    const RankPointers& mine = shared_.pointers[rank_];
    const long long timeout_cycles =
        static_cast<long long>(options_.timeout_s * kTimeoutCyclesPerSecond);
    if (m.coll == "allreduce") {
      const RankPointers& left = shared_.pointers[(rank_ + n_ - 1) % n_];
      const RankPointers& right = shared_.pointers[(rank_ + 1) % n_];
      AllReduceArgs args{reinterpret_cast<const float4*>(mine.in),
                         reinterpret_cast<float4*>(mine.out),
                         reinterpret_cast<const float4*>(left.in),
                         reinterpret_cast<const float4*>(left.out),
                         mine.progress,
                         left.progress,
                         right.progress,
                         error_,
                         m.elements4,
                         rank_,
                         n_,
                         ++allreduce_launches_,
                         timeout_cycles};
      return launch_ring_allreduce(handle_, args, options_.blocks, options_.threads, stream_);
    }
    AllToAllArgs args{reinterpret_cast<const float4*>(mine.send),
                      recv_of_rank_,
                      flags_of_rank_,
                      mine.flags,
                      error_,
                      m.elements4,
                      rank_,
                      n_,
                      ++alltoall_launches_,
                      timeout_cycles};
    return launch_all_to_all(handle_, args, options_.blocks, options_.threads, stream_);
  }

  void host_event(uint16_t id, uint64_t size, uint32_t user) {
    if (host_ != nullptr) host_->record(id, size, user);
  }

  bool measure(size_t index) {
    const PlannedMeasurement& m = shared_.plan[index];
    const RankPointers& mine = shared_.pointers[rank_];
    const bool allreduce = m.coll == "allreduce";
    const uint64_t count = allreduce ? m.count : 0;
    const uint64_t per_peer = allreduce ? 0 : m.count;
    if (!check(fill_inputs(mine.in, count, mine.send, per_peer, rank_, n_, stream_),
               "fill_inputs") ||
        !check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize") ||
        !shared_.barrier.arrive_and_wait()) {
      return false;
    }
    for (int i = 0; i < options_.warmup; ++i) {
      if (!check(launch(m), "kernel launch")) return false;
    }
    if (!check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize") ||
        !shared_.barrier.arrive_and_wait()) {
      return false;
    }
    host_event(NPKIT_EVENT_HOST_TIMED_LOOP_ENTRY, m.size_bytes, options_.iters);
    if (!check(cudaEventRecord(start_, stream_), "cudaEventRecord")) return false;
    for (int i = 0; i < options_.iters; ++i) {
      if (!check(launch(m), "kernel launch")) return false;
    }
    float elapsed_ms = 0;
    if (!check(cudaEventRecord(stop_, stream_), "cudaEventRecord") ||
        !check(cudaEventSynchronize(stop_), "cudaEventSynchronize") ||
        !check(cudaEventElapsedTime(&elapsed_ms, start_, stop_), "cudaEventElapsedTime")) {
      return false;
    }
    host_event(NPKIT_EVENT_HOST_TIMED_LOOP_EXIT, m.size_bytes, options_.iters);
    int timed_out = 0;
    if (!check(cudaMemcpy(&timed_out, error_, sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy")) {
      return false;
    }
    if (timed_out != 0) {
      return fail(m.coll + " " + std::to_string(m.size_bytes) + " B: a kernel waited more than " +
                  std::to_string(options_.timeout_s) + " s for a peer and gave up");
    }
    shared_.time_us[rank_][index] = elapsed_ms * 1000.0 / options_.iters;

    host_event(NPKIT_EVENT_HOST_VERIFY_ENTRY, m.size_bytes, 0);
    unsigned long long wrong = 0;
    if (!check(cudaMemsetAsync(wrong_, 0, sizeof(wrong), stream_), "cudaMemsetAsync") ||
        !check(allreduce ? count_wrong_allreduce(mine.out, m.count, n_, wrong_, stream_)
                         : count_wrong_all_to_all(mine.recv, m.count, rank_, n_, wrong_, stream_),
               "result check") ||
        !check(cudaMemcpyAsync(&wrong, wrong_, sizeof(wrong), cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync") ||
        !check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize")) {
      return false;
    }
    host_event(NPKIT_EVENT_HOST_VERIFY_EXIT, m.size_bytes, static_cast<uint32_t>(wrong != 0));
    shared_.wrong[rank_][index] = wrong;
    return shared_.barrier.arrive_and_wait();
  }

  void dump() {
    std::string error;
    npkit::RankEvents events;
    events.identity = {shared_.group_hash, rank_, n_, 1, "device-collectives"};
    events.names = &shared_.names;
    npkit::GpuCapture gpu;
    if (!recorder_->capture(&gpu, &error)) {
      fail(error);
      return;
    }
    uint64_t written = 0;
    uint64_t dropped = 0;
    for (const npkit::CapturedStream& stream : gpu.streams) {
      written += stream.info.records_written;
      dropped += stream.info.records_dropped;
    }
    shared_.recorder_notes[rank_] = "rank " + std::to_string(rank_) + ": " +
                                    std::to_string(gpu.streams.size()) + " GPU streams, " +
                                    std::to_string(written) + " records written, " +
                                    std::to_string(dropped) + " dropped, " +
                                    std::to_string(gpu.events_without_buffer) + " without a buffer";
    events.gpus.push_back(std::move(gpu));
    events.hosts.push_back(host_->capture());
    if (options_.dump_dir.empty()) return;
    if (!npkit::write_event_dump(options_.dump_dir, events, &shared_.dump_paths[rank_], &error)) {
      fail(error);
    }
  }

  void release() {
    recorder_.reset();
    RankPointers& mine = shared_.pointers[rank_];
    for (void* memory :
         {static_cast<void*>(mine.in), static_cast<void*>(mine.out), static_cast<void*>(mine.send),
          static_cast<void*>(mine.recv), static_cast<void*>(mine.progress),
          static_cast<void*>(mine.flags), static_cast<void*>(error_), static_cast<void*>(wrong_),
          static_cast<void*>(recv_of_rank_), static_cast<void*>(flags_of_rank_)}) {
      if (memory != nullptr) cudaFree(memory);
    }
    if (start_ != nullptr) cudaEventDestroy(start_);
    if (stop_ != nullptr) cudaEventDestroy(stop_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  const int rank_;
  RunShared& shared_;
  const Options& options_;
  const int n_;
  int* error_ = nullptr;
  unsigned long long* wrong_ = nullptr;
  float4** recv_of_rank_ = nullptr;
  uint64_t** flags_of_rank_ = nullptr;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  uint64_t allreduce_launches_ = 0;
  uint64_t alltoall_launches_ = 0;
  std::unique_ptr<npkit::DeviceEventRecorder> recorder_;
  std::unique_ptr<npkit::HostRecorder> host_;
  npkit::DeviceRecorder handle_{};
};

}  // namespace

void run_rank(int rank, RunShared* shared) {
  RankRunner runner(rank, shared);
  runner.run();
}

}  // namespace device_collectives

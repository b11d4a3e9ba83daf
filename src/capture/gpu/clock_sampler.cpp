// sample_gpu_clock: host CLOCK_REALTIME brackets around the probe kernel's %globaltimer reads.
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "gpu/clock_probe_kernel.hpp"
#include "gpu/clock_rounds.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_clock.hpp"

namespace npkit::capture {
namespace {

// The kernel's own limit, the host's wait: a kernel left without its next round stops by itself.
constexpr uint64_t kKernelTimeoutNs =
    std::chrono::duration_cast<std::chrono::nanoseconds>(kClockRoundsWait).count();

// What sampling needs from one CUDA context: the shared block, the kernel and a private stream.
// Kept for the life of the process and never released: freeing pinned memory or unloading a module
// may wait for every kernel on the device, and a communicator's init or finalize must never wait
// for another communicator's kernels (they may be waiting for this very rank). A probe whose rounds
// timed out is not synchronized either: its kernel exits on the abort word whenever it gets to run,
// and the probe is reused only once its stream reports the kernel finished.
class ContextProbe {
 public:
  explicit ContextProbe(const cuda::Driver& driver) : driver_(driver) {}
  ContextProbe(const ContextProbe&) = delete;
  ContextProbe& operator=(const ContextProbe&) = delete;

  // Allocates the block, loads the kernel and creates the stream; false with the reason.
  bool acquire(std::string* why_not) {
    void* host_block = nullptr;
    if (!succeeded(
            "cuMemHostAlloc",
            driver_.cuMemHostAlloc(&host_block, sizeof(ClockProbeBlock),
                                   cuda::kMemHostAllocPortable | cuda::kMemHostAllocDeviceMap),
            why_not)) {
      return false;
    }
    host_block_ = host_block;
    if (!succeeded("cuMemHostGetDevicePointer",
                   driver_.cuMemHostGetDevicePointer(&device_block_, host_block_, 0), why_not)) {
      return false;
    }
    cuda::Module module = nullptr;
    if (!succeeded("cuModuleLoadData", driver_.cuModuleLoadData(&module, kClockProbePtx),
                   why_not)) {
      return false;
    }
    if (!succeeded("cuModuleGetFunction",
                   driver_.cuModuleGetFunction(&kernel_, module, kClockProbeKernelName), why_not)) {
      return false;
    }
    cuda::Stream stream = nullptr;
    if (!succeeded("cuStreamCreate", driver_.cuStreamCreate(&stream, cuda::kStreamNonBlocking),
                   why_not)) {
      return false;
    }
    stream_ = stream;
    return true;
  }

  // One sampling: the previous kernel must have finished; rounds, then wait for the kernel's exit
  // (it has answered its last round, so that wait is short).
  bool sample(format::ClockSample* sample, std::string* why_not) {
    if (pending_ && driver_.cuStreamQuery(stream_) != cuda::kSuccess) {
      *why_not = "the previous clock probe kernel has not run yet (the GPU is busy)";
      return false;
    }
    pending_ = false;
    std::memset(host_block_, 0, sizeof(ClockProbeBlock));
    uint32_t rounds = kClockProbeRounds;
    uint64_t timeout_ns = kKernelTimeoutNs;
    void* params[] = {&device_block_, &rounds, &timeout_ns};
    if (!succeeded("cuLaunchKernel",
                   driver_.cuLaunchKernel(kernel_, 1, 1, 1, 1, 1, 1, 0, stream_, params, nullptr),
                   why_not)) {
      return false;
    }
    if (!run_clock_rounds(static_cast<volatile ClockProbeBlock*>(host_block_), kClockRoundsWait,
                          sample, why_not)) {
      pending_ = true;
      return false;
    }
    return succeeded("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_), why_not);
  }

 private:
  bool succeeded(const char* call, cuda::Result result, std::string* why_not) const {
    if (result == cuda::kSuccess) return true;
    *why_not = cuda::describe_failure(driver_, call, result);
    return false;
  }

  const cuda::Driver& driver_;
  void* host_block_ = nullptr;
  cuda::DevicePtr device_block_ = 0;
  cuda::Function kernel_ = nullptr;
  cuda::Stream stream_ = nullptr;
  bool pending_ = false;
};

// Probes by context. Deliberately never destroyed (no CUDA call may run at process exit); a probe
// that failed to acquire is dropped without releasing what it got, for the reason above.
struct ProbeCache {
  std::mutex mutex;
  std::vector<std::pair<cuda::Context, ContextProbe*>> probes;
};

ProbeCache& probe_cache() {
  static ProbeCache* cache = new ProbeCache;
  return *cache;
}

}  // namespace

bool sample_gpu_clock(format::ClockSampleTime when, format::ClockSample* out,
                      std::string* why_not) {
  std::string reason;
  const auto fail = [&](std::string text) {
    if (why_not != nullptr) *why_not = std::move(text);
    return false;
  };
  if (out == nullptr) return fail("no ClockSample to fill");
  const cuda::Driver* driver = cuda::cuda_driver(&reason);
  if (driver == nullptr) return fail(reason);
  const cuda::Context current = cuda::current_context(*driver, &reason);
  if (current == nullptr) return fail(reason);

  format::ClockSample sample{};
  {
    ProbeCache& cache = probe_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    ContextProbe* probe = nullptr;
    for (const auto& [context, cached] : cache.probes) {
      if (context == current) probe = cached;
    }
    if (probe == nullptr) {
      auto fresh = std::make_unique<ContextProbe>(*driver);
      if (!fresh->acquire(&reason)) {
        fresh.release();  // see ProbeCache
        return fail(reason);
      }
      probe = fresh.release();
      cache.probes.emplace_back(current, probe);
    }
    if (!probe->sample(&sample, &reason)) return fail(reason);
  }
  if (sample.gpu_ns == 0) return fail("GPU clock probe kernel wrote no %globaltimer value");
  sample.when = when;
  *out = sample;
  return true;
}

}  // namespace npkit::capture

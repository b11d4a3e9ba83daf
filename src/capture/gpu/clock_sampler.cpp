// sample_gpu_clock: host CLOCK_REALTIME brackets around the probe kernel's %globaltimer reads.
#include <chrono>
#include <cstring>
#include <utility>

#include "gpu/clock_probe_kernel.hpp"
#include "gpu/clock_rounds.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_clock.hpp"

namespace npkit::capture {
namespace {

// The kernel's own limit, the host's wait: a kernel left without its next round stops by itself.
constexpr uint64_t kKernelTimeoutNs =
    std::chrono::duration_cast<std::chrono::nanoseconds>(kClockRoundsWait).count();

// What one sampling needs from the driver; released in reverse order on every path, the stream
// synchronized first so the kernel has exited before its memory goes away.
class ProbeResources {
 public:
  explicit ProbeResources(const cuda::Driver& driver) : driver_(driver) {}
  ProbeResources(const ProbeResources&) = delete;
  ProbeResources& operator=(const ProbeResources&) = delete;
  ~ProbeResources() {
    if (stream_ != nullptr) {
      driver_.cuStreamSynchronize(stream_);
      driver_.cuStreamDestroy(stream_);
    }
    if (module_ != nullptr) driver_.cuModuleUnload(module_);
    if (host_block_ != nullptr) driver_.cuMemFreeHost(host_block_);
  }

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
    std::memset(host_block_, 0, sizeof(ClockProbeBlock));
    if (!succeeded("cuMemHostGetDevicePointer",
                   driver_.cuMemHostGetDevicePointer(&device_block_, host_block_, 0), why_not)) {
      return false;
    }
    cuda::Module module = nullptr;
    if (!succeeded("cuModuleLoadData", driver_.cuModuleLoadData(&module, kClockProbePtx),
                   why_not)) {
      return false;
    }
    module_ = module;
    if (!succeeded("cuModuleGetFunction",
                   driver_.cuModuleGetFunction(&kernel_, module_, kClockProbeKernelName),
                   why_not)) {
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

  bool launch(std::string* why_not) {
    uint32_t rounds = kClockProbeRounds;
    uint64_t timeout_ns = kKernelTimeoutNs;
    void* params[] = {&device_block_, &rounds, &timeout_ns};
    return succeeded("cuLaunchKernel",
                     driver_.cuLaunchKernel(kernel_, 1, 1, 1, 1, 1, 1, 0, stream_, params, nullptr),
                     why_not);
  }

  bool synchronize(std::string* why_not) {
    return succeeded("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_), why_not);
  }

  volatile ClockProbeBlock* block() const {
    return static_cast<volatile ClockProbeBlock*>(host_block_);
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
  cuda::Module module_ = nullptr;
  cuda::Function kernel_ = nullptr;
  cuda::Stream stream_ = nullptr;
};

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
  if (cuda::current_context(*driver, &reason) == nullptr) return fail(reason);

  format::ClockSample sample{};
  {
    ProbeResources probe(*driver);
    if (!probe.acquire(&reason) || !probe.launch(&reason) ||
        !run_clock_rounds(probe.block(), kClockRoundsWait, &sample, &reason) ||
        !probe.synchronize(&reason)) {
      return fail(reason);
    }
  }
  if (sample.gpu_ns == 0) return fail("GPU clock probe kernel wrote no %globaltimer value");
  sample.when = when;
  *out = sample;
  return true;
}

}  // namespace npkit::capture

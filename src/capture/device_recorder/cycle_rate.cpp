#include "device_recorder/cycle_rate.hpp"

#include <cstring>

#include "gpu/cuda_driver.hpp"

namespace npkit::capture {
namespace {

// What one measurement creates, released in reverse order whatever happens.
class Measurement {
 public:
  explicit Measurement(const cuda::Driver& driver) : driver_(driver) {}
  Measurement(const Measurement&) = delete;
  Measurement& operator=(const Measurement&) = delete;
  ~Measurement() {
    if (stream_ != nullptr) driver_.cuStreamDestroy(stream_);
    if (module_ != nullptr) driver_.cuModuleUnload(module_);
    if (host_block_ != nullptr) driver_.cuMemFreeHost(host_block_);
  }

  bool run(uint64_t window_ns, CycleRateBlock* out, std::string* why_not) {
    if (!ok("cuMemHostAlloc",
            driver_.cuMemHostAlloc(&host_block_, sizeof(CycleRateBlock),
                                   cuda::kMemHostAllocPortable | cuda::kMemHostAllocDeviceMap),
            why_not)) {
      return false;
    }
    std::memset(host_block_, 0, sizeof(CycleRateBlock));
    cuda::DevicePtr device_block = 0;
    cuda::Function kernel = nullptr;
    if (!ok("cuMemHostGetDevicePointer",
            driver_.cuMemHostGetDevicePointer(&device_block, host_block_, 0), why_not) ||
        !ok("cuModuleLoadData", driver_.cuModuleLoadData(&module_, kCycleRatePtx), why_not) ||
        !ok("cuModuleGetFunction",
            driver_.cuModuleGetFunction(&kernel, module_, kCycleRateKernelName), why_not) ||
        !ok("cuStreamCreate", driver_.cuStreamCreate(&stream_, cuda::kStreamNonBlocking),
            why_not)) {
      return false;
    }
    void* params[] = {&device_block, &window_ns};
    if (!ok("cuLaunchKernel",
            driver_.cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream_, params, nullptr),
            why_not) ||
        !ok("cuStreamSynchronize", driver_.cuStreamSynchronize(stream_), why_not)) {
      return false;
    }
    std::memcpy(out, host_block_, sizeof(CycleRateBlock));
    return true;
  }

 private:
  bool ok(const char* call, cuda::Result result, std::string* why_not) const {
    if (result == cuda::kSuccess) return true;
    *why_not = cuda::describe_failure(driver_, call, result);
    return false;
  }

  const cuda::Driver& driver_;
  void* host_block_ = nullptr;
  cuda::Module module_ = nullptr;
  cuda::Stream stream_ = nullptr;
};

}  // namespace

uint64_t cycles_per_second_from(const CycleRateBlock& block) {
  if (block.gpu_ns_end <= block.gpu_ns_start || block.cycles_end <= block.cycles_start) return 0;
  const double cycles = static_cast<double>(block.cycles_end - block.cycles_start);
  const double seconds = static_cast<double>(block.gpu_ns_end - block.gpu_ns_start) * 1e-9;
  return static_cast<uint64_t>(cycles / seconds);
}

bool measure_cycle_rate(uint64_t window_ns, uint64_t* cycles_per_second, std::string* why_not) {
  std::string reason;
  const cuda::Driver* driver = cuda::cuda_driver(&reason);
  if (driver == nullptr || cuda::current_context(*driver, &reason) == nullptr) {
    *why_not = reason;
    return false;
  }
  CycleRateBlock block{};
  {
    Measurement measurement(*driver);
    if (!measurement.run(window_ns, &block, why_not)) return false;
  }
  const uint64_t rate = cycles_per_second_from(block);
  if (rate == 0) {
    *why_not = "clock rate kernel: %globaltimer or clock64 did not advance";
    return false;
  }
  *cycles_per_second = rate;
  return true;
}

}  // namespace npkit::capture

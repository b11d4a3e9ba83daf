// npkit_gpu_probe — checks the capture side's GPU code on a machine with GPUs: for every visible
// device, its identity and five host/GPU clock samples one second apart, with the offset
// (gpu_ns - bracket midpoint), the bracket width and the drift between the first and last sample.
//
// Usage: npkit_gpu_probe (no arguments). Runs each device in its primary context and restores the
// thread's previous context afterwards. Exit status 0 only if at least one device was found and
// every identification and every sample succeeded; 1 otherwise. Prints one line per fact.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <thread>

#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_clock.hpp"

namespace {

namespace cuda = npkit::capture::cuda;
using npkit::format::ClockSample;

constexpr int kSamples = 5;
constexpr std::chrono::seconds kSampleSpacing{1};

int64_t midpoint_ns(const ClockSample& s) {
  return s.host_before_ns + (s.host_after_ns - s.host_before_ns) / 2;
}

int64_t offset_ns(const ClockSample& s) {
  return static_cast<int64_t>(s.gpu_ns) - midpoint_ns(s);
}

bool identify(int ordinal) {
  npkit::capture::GpuIdentity identity;
  std::string why_not;
  if (!npkit::capture::identify_current_gpu(&identity, &why_not)) {
    std::printf("device %d: identify FAILED: %s\n", ordinal, why_not.c_str());
    return false;
  }
  std::printf("device %d: name \"%s\" uuid %s pci_bus_id %s cuda_device %d\n", ordinal,
              identity.name.c_str(), identity.uuid.c_str(), identity.pci_bus_id.c_str(),
              identity.cuda_device);
  if (identity.cuda_device != ordinal) {
    std::printf("device %d: identify FAILED: cuda_device %d is not the probed ordinal\n", ordinal,
                identity.cuda_device);
    return false;
  }
  return true;
}

bool sample_clock(int ordinal) {
  bool all_sampled = true;
  ClockSample first{};
  ClockSample last{};
  int sampled = 0;
  for (int i = 0; i < kSamples; ++i) {
    if (i > 0) std::this_thread::sleep_for(kSampleSpacing);
    ClockSample sample{};
    std::string why_not;
    const auto start = std::chrono::steady_clock::now();
    const bool ok =
        npkit::capture::sample_gpu_clock(npkit::format::kSampleAtInit, &sample, &why_not);
    const auto call_us = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    if (!ok) {
      std::printf("device %d: sample %d FAILED after %lld us: %s\n", ordinal, i,
                  static_cast<long long>(call_us), why_not.c_str());
      all_sampled = false;
      continue;
    }
    std::printf("device %d: sample %d offset_ns %" PRId64 " bracket_ns %" PRId64 " gpu_ns %" PRIu64
                " host_before_ns %" PRId64 " call_us %lld\n",
                ordinal, i, offset_ns(sample), sample.host_after_ns - sample.host_before_ns,
                sample.gpu_ns, sample.host_before_ns, static_cast<long long>(call_us));
    if (sampled++ == 0) first = sample;
    last = sample;
  }
  if (sampled >= 2) {
    const double span_s = static_cast<double>(midpoint_ns(last) - midpoint_ns(first)) * 1e-9;
    const double drift = static_cast<double>(offset_ns(last) - offset_ns(first)) / span_s;
    std::printf("device %d: drift_ns_per_s %.1f over %.3f s\n", ordinal, drift, span_s);
  }
  return all_sampled;
}

// Identifies and samples `ordinal` in its primary context; the thread's context is restored.
bool probe_device(const cuda::Driver& driver, int ordinal) {
  cuda::Device device = -1;
  if (cuda::Result r = driver.cuDeviceGet(&device, ordinal); r != cuda::kSuccess) {
    std::printf("device %d: %s\n", ordinal,
                cuda::describe_failure(driver, "cuDeviceGet", r).c_str());
    return false;
  }
  cuda::Context previous = nullptr;
  if (cuda::Result r = driver.cuCtxGetCurrent(&previous); r != cuda::kSuccess) {
    std::printf("device %d: %s\n", ordinal,
                cuda::describe_failure(driver, "cuCtxGetCurrent", r).c_str());
    return false;
  }
  cuda::Context primary = nullptr;
  if (cuda::Result r = driver.cuDevicePrimaryCtxRetain(&primary, device); r != cuda::kSuccess) {
    std::printf("device %d: %s\n", ordinal,
                cuda::describe_failure(driver, "cuDevicePrimaryCtxRetain", r).c_str());
    return false;
  }
  bool ok = false;
  if (cuda::Result r = driver.cuCtxSetCurrent(primary); r != cuda::kSuccess) {
    std::printf("device %d: %s\n", ordinal,
                cuda::describe_failure(driver, "cuCtxSetCurrent", r).c_str());
  } else {
    const bool identified = identify(ordinal);
    const bool sampled = sample_clock(ordinal);
    cuda::Context after = nullptr;
    const bool context_kept = driver.cuCtxGetCurrent(&after) == cuda::kSuccess && after == primary;
    if (!context_kept) std::printf("device %d: FAILED: the current context changed\n", ordinal);
    ok = identified && sampled && context_kept;
    driver.cuCtxSetCurrent(previous);
  }
  driver.cuDevicePrimaryCtxRelease(device);
  return ok;
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string why_not;
  const cuda::Driver* driver = cuda::cuda_driver(&why_not);
  if (driver == nullptr) {
    std::printf("npkit_gpu_probe: %s\n", why_not.c_str());
    return 1;
  }
  if (cuda::Result r = driver->cuInit(0); r != cuda::kSuccess) {
    std::printf("npkit_gpu_probe: %s\n", cuda::describe_failure(*driver, "cuInit", r).c_str());
    return 1;
  }
  int count = 0;
  if (cuda::Result r = driver->cuDeviceGetCount(&count); r != cuda::kSuccess) {
    std::printf("npkit_gpu_probe: %s\n",
                cuda::describe_failure(*driver, "cuDeviceGetCount", r).c_str());
    return 1;
  }
  std::printf("npkit_gpu_probe: %d device(s)\n", count);
  if (count == 0) return 1;
  bool all_ok = true;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    if (!probe_device(*driver, ordinal)) all_ok = false;
  }
  std::printf("npkit_gpu_probe: %s\n", all_ok ? "all samples succeeded" : "FAILED");
  return all_ok ? 0 : 1;
}

#include "device_count.hpp"

#include <cuda_runtime.h>

#include <cstdio>

#include "device_errors.hpp"
#include "rank_processes.hpp"

namespace npkit::driver {
namespace {

std::string probe_name(int) {
  return "device probe";
}

}  // namespace

int visible_device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    throw DriverError(std::string("no CUDA device: cudaGetDeviceCount failed: ") +
                      cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
  }
  if (count == 0) throw DriverError("no CUDA device: cudaGetDeviceCount reports 0 devices");
  return count;
}

int count_devices_in_child(ControlPage* page, int timeout_s) {
  Supervision supervision;
  supervision.name_of = probe_name;
  supervision.timeout_s = timeout_s;
  const int status = run_processes(1, supervision, page, [page](int) {
    try {
      page->device_count.store(visible_device_count(), std::memory_order_release);
      return 0;
    } catch (const DriverError& error) {
      std::fprintf(stderr, "npkit-nccl-driver: %s\n", error.what());
      return kExitFailure;
    }
  });
  if (status != 0) return -1;
  return page->device_count.load(std::memory_order_acquire);
}

}  // namespace npkit::driver

// The clock64 half of npkit_device_selftest: this file is built with NPKIT_CLOCK_CYCLES.
#include "selftest_kernels.cuh"

namespace selftest {
namespace {

__global__ void cycles_kernel(npkit::DeviceRecorder rec, long long spin_cycles) {
  NPKIT_EVENT_ENTRY(rec, SELFTEST_SPIN, 0, 0);
  const long long start = clock64();
  while (clock64() - start < spin_cycles) {
  }
  NPKIT_EVENT_EXIT(rec, SELFTEST_SPIN, 0, 0);
}

}  // namespace

cudaError_t launch_cycles_kernel(const npkit::DeviceRecorder& rec, long long spin_cycles,
                                 cudaStream_t stream) {
  cycles_kernel<<<1, 1, 0, stream>>>(rec, spin_cycles);
  return cudaGetLastError();
}

}  // namespace selftest

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

__global__ void cycles_cursor_cost_kernel(npkit::DeviceRecorder rec, int events, bool acquire,
                                          const unsigned long long* word, long long* cost) {
  NPKIT_BLOCK_RECORDER(cursor, rec);
  time_back_to_back(events, acquire, word, cost, [&](int i) -> unsigned long long {
    NPKIT_EVENT_INSTANT(cursor, SELFTEST_COST, 0, i);
    return 0;
  });
}

}  // namespace

cudaError_t launch_cycles_kernel(const npkit::DeviceRecorder& rec, long long spin_cycles,
                                 cudaStream_t stream) {
  cycles_kernel<<<1, 1, 0, stream>>>(rec, spin_cycles);
  return cudaGetLastError();
}

cudaError_t launch_cycles_event_cost_kernel(bool acquire, const npkit::DeviceRecorder& rec,
                                            int events, const unsigned long long* word,
                                            long long* cost, cudaStream_t stream) {
  cycles_cursor_cost_kernel<<<1, 32, 0, stream>>>(rec, events, acquire, word, cost);
  return cudaGetLastError();
}

}  // namespace selftest

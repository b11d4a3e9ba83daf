// selftest_kernels.cuh — the kernels npkit_device_selftest runs, and their events.
//
// Contract:
// - loop kernel (device_selftest.cu, %globaltimer): every block runs `iterations` rounds; round i
//   records, from the block, SELFTEST_LOOP_ENTRY (size (i + 1) * 16, user i), spins
//   `spin_cycles` clock64 cycles, records SELFTEST_WARP_TICK from every warp (user i), and after a
//   __syncthreads SELFTEST_LOOP_EXIT (size (i + 1) * 16, user i).
// - cycles kernel (selftest_cycles_kernels.cu, built with NPKIT_CLOCK_CYCLES): one block of one
//   thread records SELFTEST_SPIN_ENTRY, spins `spin_cycles` clock64 cycles, records
//   SELFTEST_SPIN_EXIT.
#pragma once

#include <cuda_runtime.h>

#include "npkit/device.cuh"

#define NPKIT_EVENT_SELFTEST_LOOP_ENTRY 0x1000
#define NPKIT_EVENT_SELFTEST_LOOP_EXIT 0x1001
#define NPKIT_EVENT_SELFTEST_WARP_TICK 0x1002
#define NPKIT_EVENT_SELFTEST_SPIN_ENTRY 0x1003
#define NPKIT_EVENT_SELFTEST_SPIN_EXIT 0x1004

namespace selftest {

cudaError_t launch_loop_kernel(const npkit::DeviceRecorder& rec, int blocks, int threads,
                               int iterations, long long spin_cycles, cudaStream_t stream);
cudaError_t launch_cycles_kernel(const npkit::DeviceRecorder& rec, long long spin_cycles,
                                 cudaStream_t stream);

}  // namespace selftest

// selftest_kernels.cuh — the kernels npkit_device_selftest runs, and their events.
//
// Contract:
// - loop kernel (device_selftest.cu, %globaltimer): every block runs `iterations` rounds; round i
//   records, from the block, SELFTEST_LOOP_ENTRY (size (i + 1) * 16, user i), spins
//   `spin_cycles` clock64 cycles, records SELFTEST_WARP_TICK from every warp (user i), and after a
//   __syncthreads SELFTEST_LOOP_EXIT (size (i + 1) * 16, user i). EventForm says whether the
//   events go through the handle or through a block and a warp cursor.
// - early-return kernel (cursors): round i records SELFTEST_LOOP_ENTRY (user i) and a warp tick
//   (user i), then the whole block returns when i == its block index, else records
//   SELFTEST_LOOP_EXIT (user i). Block b so records 2b + 1 block events and b + 1 ticks per warp
//   (rounds permitting).
// - event cost kernels: one block of 32 threads; thread 0 records `events` SELFTEST_COST instants
//   back to back (user = the index), each after an ld.acquire.gpu of *word when `acquire`, and
//   writes the clock64 cycles the loop took to *cost. The
//   recorder needs one block buffer of at least `events` records. EventCost::kNothing records
//   nothing (the loop's own cost).
// - cycles kernels (selftest_cycles_kernels.cu, built with NPKIT_CLOCK_CYCLES): one block of one
//   thread records SELFTEST_SPIN_ENTRY, spins `spin_cycles` clock64 cycles, records
//   SELFTEST_SPIN_EXIT; and the cursor event cost kernel above with clock64 timestamps.
#pragma once

#include <cuda_runtime.h>

#include "npkit/device.cuh"

#define NPKIT_EVENT_SELFTEST_LOOP_ENTRY 0x1000
#define NPKIT_EVENT_SELFTEST_LOOP_EXIT 0x1001
#define NPKIT_EVENT_SELFTEST_WARP_TICK 0x1002
#define NPKIT_EVENT_SELFTEST_SPIN_ENTRY 0x1003
#define NPKIT_EVENT_SELFTEST_SPIN_EXIT 0x1004
#define NPKIT_EVENT_SELFTEST_COST 0x1005

namespace selftest {

enum class EventForm { kHandle, kCursor };
enum class EventCost { kNothing, kHandle, kCursor };

// The event cost loop of both clock builds: thread 0 calls event(i) `events` times (after an
// acquire load of *word when `acquire`) and writes the loop's clock64 cycles to *cycles. event(i)
// returns a value the loop keeps, so a timer read is waited for.
template <class Event>
__device__ __forceinline__ void time_back_to_back(int events, bool acquire,
                                                  const unsigned long long* word, long long* cycles,
                                                  Event event) {
  if (threadIdx.x != 0) return;
  unsigned long long kept = 0;
  const long long start = clock64();
  for (int i = 0; i < events; ++i) {
    if (acquire) {
      unsigned long long value;
      asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
      kept += value;
    }
    kept ^= event(i);
  }
  asm volatile("" ::"l"(kept) : "memory");
  *cycles = clock64() - start;
}

cudaError_t launch_loop_kernel(EventForm form, const npkit::DeviceRecorder& rec, int blocks,
                               int threads, int iterations, long long spin_cycles,
                               cudaStream_t stream);
cudaError_t launch_early_return_kernel(const npkit::DeviceRecorder& rec, int blocks, int threads,
                                       int iterations, cudaStream_t stream);
cudaError_t launch_event_cost_kernel(EventCost what, bool acquire, const npkit::DeviceRecorder& rec,
                                     int events, const unsigned long long* word, long long* cost,
                                     cudaStream_t stream);
cudaError_t launch_cycles_kernel(const npkit::DeviceRecorder& rec, long long spin_cycles,
                                 cudaStream_t stream);
cudaError_t launch_cycles_event_cost_kernel(bool acquire, const npkit::DeviceRecorder& rec,
                                            int events, const unsigned long long* word,
                                            long long* cost, cudaStream_t stream);

}  // namespace selftest

// peer_sync.cuh — how the sample collectives' blocks wait for peers: monotonic 64-bit flags in GPU
// memory, stored with release and loaded with acquire at system scope (peers on other GPUs read
// and write them through peer pointers), and a bounded spin.
//
// Contract:
// - signal(): the calling block's writes before it (all threads passed __syncthreads) are visible
//   to any GPU that sees the new flag value; called by one thread.
// - wait_at_least(): one thread spins until *flag >= target. It gives up after `timeout_cycles`
//   of clock64 (the caller's own SM clock), sets *error to 1 and returns; once *error is set,
//   every later wait of the rank returns at once, so a lost peer ends the kernels instead of
//   hanging them. The caller checks *error on the host.
#pragma once

#include <cstdint>

namespace device_collectives {

__device__ __forceinline__ uint64_t load_acquire(const uint64_t* flag) {
  uint64_t value;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(value) : "l"(flag) : "memory");
  return value;
}

__device__ __forceinline__ void store_release(uint64_t* flag, uint64_t value) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(flag), "l"(value) : "memory");
}

__device__ __forceinline__ void signal(uint64_t* flag, uint64_t value) {
  __threadfence_system();
  store_release(flag, value);
}

__device__ __forceinline__ void wait_at_least(const uint64_t* flag, uint64_t target, int* error,
                                              long long timeout_cycles) {
  if (*static_cast<volatile int*>(error) != 0) return;
  const long long start = clock64();
  while (load_acquire(flag) < target) {
    if (clock64() - start > timeout_cycles) {
      atomicExch(error, 1);
      return;
    }
  }
}

}  // namespace device_collectives

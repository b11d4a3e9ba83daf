// collective_kernels.cuh — the sample collectives as CUDA kernels over peer pointers (GPUs of one
// host with peer access; never NVLink multicast), instrumented with npkit/device.cuh, and the
// kernels that fill and check their buffers.
//
// Contract (ranks 0..N-1 in a ring; every rank launches the same sequence of kernels, and `launch`
// counts a rank's launches of one collective from 1):
// - Ring all-reduce (float sum) of `count4` float4 from `in` into `out`: reduce-scatter then
//   all-gather, N-1 steps each; block b handles the b-th slice of every chunk and pulls from its
//   left neighbour's block b. Block b publishes progress[b] = (launch-1)*2(N-1) + steps done; a
//   block waits for its right neighbour to finish the previous launch before writing, for its left
//   neighbour's step before reading, and for both to finish the reduce-scatter before the
//   all-gather overwrites what the right neighbour still reads.
// - All-to-all of `per_peer4` float4 per destination: rank r pushes send chunk j into rank j's
//   recv chunk r. Block b tells every rank it entered the launch and waits for all to enter (a
//   receiver is never written before it started the launch), pushes, then tells every rank its
//   data arrived and waits for everyone's. Flags: flags[(b*2 + phase)*N + sender], written by the
//   sender into the receiver's memory.
// - Waits give up after timeout_cycles and set *error (peer_sync.cuh).
// - fill_inputs() writes the ranks' known inputs; count_wrong_*() adds to *wrong the elements that
//   differ from the exact expected results (integer-valued floats, sums exact in fp32).
// - Launchers return the launch error (cudaGetLastError), and never synchronize.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "npkit/device.cuh"

namespace device_collectives {

struct AllReduceArgs {
  const float4* in;
  float4* out;
  const float4* left_in;  // the left neighbour's buffers (peer pointers)
  const float4* left_out;
  uint64_t* progress;  // this rank's, one per block
  const uint64_t* left_progress;
  const uint64_t* right_progress;
  int* error;
  uint64_t count4;
  int rank;
  int nranks;
  uint64_t launch;
  long long timeout_cycles;
};

struct AllToAllArgs {
  const float4* send;
  float4* const* recv_of_rank;     // device array [nranks]: every rank's recv buffer
  uint64_t* const* flags_of_rank;  // device array [nranks]: every rank's flags
  uint64_t* flags;                 // this rank's: blocks * 2 * nranks
  int* error;
  uint64_t per_peer4;
  int rank;
  int nranks;
  uint64_t launch;
  long long timeout_cycles;
};

// Blocks of `threads` threads that both collective kernels can keep resident on one SM at once
// (the kernels wait for peer blocks, so every block of a launch must be resident).
cudaError_t resident_blocks_per_sm(int threads, int* blocks);

cudaError_t launch_ring_allreduce(const npkit::DeviceRecorder& rec, const AllReduceArgs& args,
                                  int blocks, int threads, cudaStream_t stream);
cudaError_t launch_all_to_all(const npkit::DeviceRecorder& rec, const AllToAllArgs& args,
                              int blocks, int threads, cudaStream_t stream);

// Inputs of rank `rank`: allreduce in[i] = (rank + 1) * (i % 251 + 1); all-to-all send chunk j
// element k = rank * 4096 + j * 64 + k % 61 (exact in fp32 for up to 64 ranks).
cudaError_t fill_inputs(float* allreduce_in, uint64_t count, float* send, uint64_t per_peer,
                        int rank, int nranks, cudaStream_t stream);
cudaError_t count_wrong_allreduce(const float* out, uint64_t count, int nranks,
                                  unsigned long long* wrong, cudaStream_t stream);
cudaError_t count_wrong_all_to_all(const float* recv, uint64_t per_peer, int rank, int nranks,
                                   unsigned long long* wrong, cudaStream_t stream);

}  // namespace device_collectives

#include "collective_events.hpp"
#include "collective_kernels.cuh"
#include "peer_sync.cuh"

namespace device_collectives {
namespace {

constexpr int kUnroll = 4;

// The kernels record through a block cursor (one state-word load per launch). The -handle build
// (DEVICE_COLLECTIVES_HANDLE_EVENTS) records through the handle instead, one dependent load per
// event, to measure what the cursor saves.
#if defined(DEVICE_COLLECTIVES_HANDLE_EVENTS)
#define DEVICE_COLLECTIVES_RECORDER(name, rec) const npkit::DeviceRecorder& name = rec
#else
#define DEVICE_COLLECTIVES_RECORDER(name, rec) NPKIT_BLOCK_RECORDER(name, rec)
#endif

__device__ __forceinline__ float4 add(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// [*lo, *hi): this block's share of [begin, end).
__device__ __forceinline__ void block_share(uint64_t begin, uint64_t end, uint64_t* lo,
                                            uint64_t* hi) {
  const uint64_t n = end - begin;
  *lo = begin + n * blockIdx.x / gridDim.x;
  *hi = begin + n * (blockIdx.x + 1) / gridDim.x;
}

__device__ __forceinline__ uint64_t chunk_begin(uint64_t count4, int chunk, int nranks) {
  return count4 * static_cast<uint64_t>(chunk) / static_cast<uint64_t>(nranks);
}

// out[i] = in[i] + peer[i] (in == nullptr: out[i] = peer[i]) for i in [lo, hi); peer data is read
// past L1 (another GPU writes it during the kernel).
__device__ __forceinline__ void reduce_or_copy(float4* out, const float4* in, const float4* peer,
                                               uint64_t lo, uint64_t hi) {
  const uint64_t stride = blockDim.x;
  uint64_t i = lo + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < hi; i += kUnroll * stride) {
    float4 values[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) values[u] = __ldcg(peer + i + u * stride);
    if (in != nullptr) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) values[u] = add(values[u], in[i + u * stride]);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out[i + u * stride] = values[u];
  }
  for (; i < hi; i += stride)
    out[i] = in != nullptr ? add(__ldcg(peer + i), in[i]) : __ldcg(peer + i);
}

__device__ __forceinline__ void copy_to(float4* out, const float4* in, uint64_t lo, uint64_t hi) {
  const uint64_t stride = blockDim.x;
  uint64_t i = lo + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < hi; i += kUnroll * stride) {
    float4 values[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) values[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out[i + u * stride] = values[u];
  }
  for (; i < hi; i += stride) out[i] = in[i];
}

__global__ void ring_allreduce_kernel(npkit::DeviceRecorder rec, AllReduceArgs args) {
  DEVICE_COLLECTIVES_RECORDER(events, rec);  // first: its load overlaps the setup below
  const int n = args.nranks;
  const int r = args.rank;
  [[maybe_unused]] const int left = (r + n - 1) % n;  // event user fields only
  [[maybe_unused]] const int right = (r + 1) % n;
  const uint64_t steps = 2 * static_cast<uint64_t>(n - 1);
  const uint64_t base = (args.launch - 1) * steps;
  const uint32_t b = blockIdx.x;
  NPKIT_EVENT_ENTRY(events, ALLREDUCE, args.count4 * sizeof(float4),
                    static_cast<uint32_t>(args.launch));

  // The right neighbour reads this rank's output: it must be done with the previous launch.
  NPKIT_EVENT_ENTRY(events, ALLREDUCE_SYNC_WAIT, 0, right);
  if (threadIdx.x == 0) {
    wait_at_least(args.right_progress + b, base, args.error, args.timeout_cycles);
  }
  __syncthreads();
  NPKIT_EVENT_EXIT(events, ALLREDUCE_SYNC_WAIT, 0, right);

  // Reduce-scatter: step s adds the left neighbour's partial sum of chunk r-s-1 to this rank's
  // input; after N-1 steps chunk r+1 holds the full sum.
  for (int s = 0; s < n - 1; ++s) {
    if (s > 0) {
      NPKIT_EVENT_ENTRY(events, ALLREDUCE_SYNC_WAIT, 0, left);
      if (threadIdx.x == 0) {
        wait_at_least(args.left_progress + b, base + s, args.error, args.timeout_cycles);
      }
      __syncthreads();
      NPKIT_EVENT_EXIT(events, ALLREDUCE_SYNC_WAIT, 0, left);
    }
    const int chunk = (r - s - 1 + 2 * n) % n;
    uint64_t lo, hi;
    block_share(chunk_begin(args.count4, chunk, n), chunk_begin(args.count4, chunk + 1, n), &lo,
                &hi);
    NPKIT_EVENT_ENTRY(events, ALLREDUCE_RS, (hi - lo) * sizeof(float4), s);
    reduce_or_copy(args.out, args.in, s == 0 ? args.left_in : args.left_out, lo, hi);
    __syncthreads();
    if (threadIdx.x == 0) signal(args.progress + b, base + s + 1);
    NPKIT_EVENT_EXIT(events, ALLREDUCE_RS, (hi - lo) * sizeof(float4), s);
  }

  // Both neighbours finished the reduce-scatter: the left one holds its full chunk, the right
  // one no longer reads this rank's partial sums.
  NPKIT_EVENT_ENTRY(events, ALLREDUCE_SYNC_WAIT, 0, left);
  if (threadIdx.x == 0) {
    wait_at_least(args.left_progress + b, base + n - 1, args.error, args.timeout_cycles);
    wait_at_least(args.right_progress + b, base + n - 1, args.error, args.timeout_cycles);
  }
  __syncthreads();
  NPKIT_EVENT_EXIT(events, ALLREDUCE_SYNC_WAIT, 0, left);

  // All-gather: step s copies the left neighbour's full chunk r-s.
  for (int s = 0; s < n - 1; ++s) {
    if (s > 0) {
      NPKIT_EVENT_ENTRY(events, ALLREDUCE_SYNC_WAIT, 0, left);
      if (threadIdx.x == 0) {
        wait_at_least(args.left_progress + b, base + n - 1 + s, args.error, args.timeout_cycles);
      }
      __syncthreads();
      NPKIT_EVENT_EXIT(events, ALLREDUCE_SYNC_WAIT, 0, left);
    }
    const int chunk = (r - s + n) % n;
    uint64_t lo, hi;
    block_share(chunk_begin(args.count4, chunk, n), chunk_begin(args.count4, chunk + 1, n), &lo,
                &hi);
    NPKIT_EVENT_ENTRY(events, ALLREDUCE_AG, (hi - lo) * sizeof(float4), s);
    reduce_or_copy(args.out, nullptr, args.left_out, lo, hi);
    __syncthreads();
    if (threadIdx.x == 0) signal(args.progress + b, base + n + s);
    NPKIT_EVENT_EXIT(events, ALLREDUCE_AG, (hi - lo) * sizeof(float4), s);
  }
  NPKIT_EVENT_EXIT(events, ALLREDUCE, args.count4 * sizeof(float4),
                   static_cast<uint32_t>(args.launch));
}

// Thread 0 stores `launch` into flag (b, phase, this rank) of every rank, then waits for flag
// (b, phase, sender) >= launch from every sender.
__device__ void all_to_all_handshake(const AllToAllArgs& args, int phase) {
  if (threadIdx.x != 0) return;
  const int n = args.nranks;
  const uint64_t slot = (static_cast<uint64_t>(blockIdx.x) * 2 + phase) * n;
  for (int j = 0; j < n; ++j) signal(args.flags_of_rank[j] + slot + args.rank, args.launch);
  for (int j = 0; j < n; ++j) {
    wait_at_least(args.flags + slot + j, args.launch, args.error, args.timeout_cycles);
  }
}

__global__ void all_to_all_kernel(npkit::DeviceRecorder rec, AllToAllArgs args) {
  DEVICE_COLLECTIVES_RECORDER(events, rec);
  const int n = args.nranks;
  // A collective-level span's size is NCCL's count in bytes: for all-to-all, what goes to one
  // peer (analyzers apply the nccl-tests convention S = size x n).
  NPKIT_EVENT_ENTRY(events, ALLTOALL, args.per_peer4 * sizeof(float4),
                    static_cast<uint32_t>(args.launch));

  NPKIT_EVENT_ENTRY(events, ALLTOALL_SYNC_WAIT, 0, 0);
  all_to_all_handshake(args, 0);
  __syncthreads();
  NPKIT_EVENT_EXIT(events, ALLTOALL_SYNC_WAIT, 0, 0);

  uint64_t lo, hi;
  block_share(0, args.per_peer4, &lo, &hi);
  for (int k = 0; k < n; ++k) {
    const int peer = (args.rank + k) % n;
    NPKIT_EVENT_ENTRY(events, ALLTOALL_SEND, (hi - lo) * sizeof(float4), peer);
    copy_to(args.recv_of_rank[peer] + args.rank * args.per_peer4, args.send + peer * args.per_peer4,
            lo, hi);
    __syncthreads();
    NPKIT_EVENT_EXIT(events, ALLTOALL_SEND, (hi - lo) * sizeof(float4), peer);
  }

  NPKIT_EVENT_ENTRY(events, ALLTOALL_SYNC_WAIT, 0, 1);
  all_to_all_handshake(args, 1);
  __syncthreads();
  NPKIT_EVENT_EXIT(events, ALLTOALL_SYNC_WAIT, 0, 1);
  NPKIT_EVENT_EXIT(events, ALLTOALL, args.per_peer4 * sizeof(float4),
                   static_cast<uint32_t>(args.launch));
}

__device__ __forceinline__ float allreduce_input(int rank, uint64_t i) {
  return static_cast<float>((rank + 1) * static_cast<int>(i % 251 + 1));
}

__device__ __forceinline__ float all_to_all_input(int sender, int receiver, uint64_t k) {
  return static_cast<float>(sender * 4096 + receiver * 64 + static_cast<int>(k % 61));
}

__global__ void fill_kernel(float* allreduce_in, uint64_t count, float* send, uint64_t per_peer,
                            int rank, int nranks) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    allreduce_in[i] = allreduce_input(rank, i);
  }
  const uint64_t send_count = per_peer * nranks;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < send_count;
       i += stride) {
    send[i] = all_to_all_input(rank, static_cast<int>(i / per_peer), i % per_peer);
  }
}

__global__ void check_allreduce_kernel(const float* out, uint64_t count, int nranks,
                                       unsigned long long* wrong) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const int rank_sum = nranks * (nranks + 1) / 2;
  unsigned long long mine = 0;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    mine += out[i] != static_cast<float>(rank_sum * static_cast<int>(i % 251 + 1));
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

__global__ void check_all_to_all_kernel(const float* recv, uint64_t per_peer, int rank, int nranks,
                                        unsigned long long* wrong) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  const uint64_t count = per_peer * nranks;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    mine += recv[i] != all_to_all_input(static_cast<int>(i / per_peer), rank, i % per_peer);
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

constexpr int kFillBlocks = 264;
constexpr int kFillThreads = 256;

}  // namespace

cudaError_t resident_blocks_per_sm(int threads, int* blocks) {
  int allreduce = 0;
  int alltoall = 0;
  cudaError_t status =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&allreduce, ring_allreduce_kernel, threads, 0);
  if (status == cudaSuccess) {
    status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&alltoall, all_to_all_kernel, threads, 0);
  }
  *blocks = allreduce < alltoall ? allreduce : alltoall;
  return status;
}

cudaError_t launch_ring_allreduce(const npkit::DeviceRecorder& rec, const AllReduceArgs& args,
                                  int blocks, int threads, cudaStream_t stream) {
  ring_allreduce_kernel<<<blocks, threads, 0, stream>>>(rec, args);
  return cudaGetLastError();
}

cudaError_t launch_all_to_all(const npkit::DeviceRecorder& rec, const AllToAllArgs& args,
                              int blocks, int threads, cudaStream_t stream) {
  all_to_all_kernel<<<blocks, threads, 0, stream>>>(rec, args);
  return cudaGetLastError();
}

cudaError_t fill_inputs(float* allreduce_in, uint64_t count, float* send, uint64_t per_peer,
                        int rank, int nranks, cudaStream_t stream) {
  fill_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(allreduce_in, count, send, per_peer, rank,
                                                        nranks);
  return cudaGetLastError();
}

cudaError_t count_wrong_allreduce(const float* out, uint64_t count, int nranks,
                                  unsigned long long* wrong, cudaStream_t stream) {
  check_allreduce_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(out, count, nranks, wrong);
  return cudaGetLastError();
}

cudaError_t count_wrong_all_to_all(const float* recv, uint64_t per_peer, int rank, int nranks,
                                   unsigned long long* wrong, cudaStream_t stream) {
  check_all_to_all_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(recv, per_peer, rank, nranks,
                                                                    wrong);
  return cudaGetLastError();
}

}  // namespace device_collectives

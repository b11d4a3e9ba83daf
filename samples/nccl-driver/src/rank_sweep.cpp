#include "rank_sweep.hpp"

#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "coll_shape.hpp"
#include "device_count.hpp"
#include "device_errors.hpp"
#include "rank_processes.hpp"
#include "report.hpp"

namespace npkit::driver {
namespace {

// Host staging granularity for filling and checking device buffers.
constexpr std::size_t kStagingFloats = std::size_t{1} << 20;

struct RankContext {
  int rank = 0;
  int nranks = 0;
  const Options* options = nullptr;
  ControlPage* page = nullptr;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  void* send = nullptr;
  void* recv = nullptr;
  std::FILE* csv = nullptr;  // rank 0 with --csv only

  RankSlot& slot() const { return page->ranks[rank]; }
};

void sync_with_peers(const RankContext& ctx) {
  if (!barrier(ctx.page, ctx.nranks)) throw DriverError("stopping: another rank failed");
}

void print_line(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void write_csv(const RankContext& ctx, const std::string& text) {
  if (ctx.csv == nullptr) return;
  if (std::fputs(text.c_str(), ctx.csv) < 0 || std::fflush(ctx.csv) != 0) {
    throw DriverError("writing " + ctx.options->csv_path + " failed: " + std::strerror(errno));
  }
}

void record_device(const RankContext& ctx) {
  RankSlot& slot = ctx.slot();
  slot.device = ctx.rank;
  slot.pid = static_cast<std::int32_t>(getpid());
  DRIVER_CUDA(cudaDeviceGetPCIBusId(slot.pci_bus_id, sizeof slot.pci_bus_id, ctx.rank));
  cudaDeviceProp properties{};
  DRIVER_CUDA(cudaGetDeviceProperties(&properties, ctx.rank));
  std::snprintf(slot.device_name, sizeof slot.device_name, "%s", properties.name);
}

void print_preamble(const RankContext& ctx) {
  int version = 0;
  DRIVER_NCCL(ncclGetVersion(&version), nullptr);
  const Options& options = *ctx.options;
  char text[512];
  std::snprintf(text, sizeof text,
                "# npkit-nccl-driver: %d ranks, NCCL %d.%d.%d, %s, sizes %zu..%zu B (x%zu), "
                "warmup %d, iters %d, check %s%s\n",
                ctx.nranks, version / 10000, version % 10000 / 100, version % 100, kTypeName,
                options.min_bytes, options.max_bytes, options.step_factor, options.warmup,
                options.iters, options.check ? "on" : "off",
                options.destroy ? "" : ", no ncclCommDestroy");
  std::string lines = text;
  for (int rank = 0; rank < ctx.nranks; ++rank) {
    const RankSlot& slot = ctx.page->ranks[rank];
    std::snprintf(text, sizeof text, "#  Rank %2d Pid %7d device %2d [%s] %s\n", rank, slot.pid,
                  slot.device, slot.pci_bus_id, slot.device_name);
    lines += text;
  }
  print_line(lines + "#\n");
}

// Fills the first `bytes` of the send buffer with rank + 1 (the AllReduce check's input).
void fill_send_buffer(const RankContext& ctx, std::size_t bytes) {
  const std::vector<float> staging(kStagingFloats, static_cast<float>(ctx.rank + 1));
  auto* device = static_cast<char*>(ctx.send);
  for (std::size_t offset = 0; offset < bytes;) {
    const std::size_t chunk = std::min(bytes - offset, kStagingFloats * sizeof(float));
    DRIVER_CUDA(cudaMemcpy(device + offset, staging.data(), chunk, cudaMemcpyHostToDevice));
    offset += chunk;
  }
}

void launch(const RankContext& ctx, CollKind kind, const CollShape& shape) {
  const std::size_t count = shape.count;
  switch (kind) {
    case CollKind::kAllReduce:
      DRIVER_NCCL(
          ncclAllReduce(ctx.send, ctx.recv, count, ncclFloat, ncclSum, ctx.comm, ctx.stream),
          ctx.comm);
      return;
    case CollKind::kAllGather:
      DRIVER_NCCL(ncclAllGather(ctx.send, ctx.recv, count, ncclFloat, ctx.comm, ctx.stream),
                  ctx.comm);
      return;
    case CollKind::kReduceScatter:
      DRIVER_NCCL(
          ncclReduceScatter(ctx.send, ctx.recv, count, ncclFloat, ncclSum, ctx.comm, ctx.stream),
          ctx.comm);
      return;
    case CollKind::kAlltoAll:
      DRIVER_NCCL(ncclAlltoAll(ctx.send, ctx.recv, count, ncclFloat, ctx.comm, ctx.stream),
                  ctx.comm);
      return;
    case CollKind::kBroadcast:
      DRIVER_NCCL(ncclBroadcast(ctx.send, ctx.recv, count, ncclFloat, root_rank(kind), ctx.comm,
                                ctx.stream),
                  ctx.comm);
      return;
  }
}

// Warm-up, then the nccl-tests timed loop; microseconds per launch on this rank.
double time_launches(const RankContext& ctx, CollKind kind, const CollShape& shape) {
  for (int i = 0; i < ctx.options->warmup; ++i) launch(ctx, kind, shape);
  DRIVER_CUDA(cudaStreamSynchronize(ctx.stream));
  sync_with_peers(ctx);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < ctx.options->iters; ++i) launch(ctx, kind, shape);
  DRIVER_CUDA(cudaStreamSynchronize(ctx.stream));
  const auto stop = std::chrono::steady_clock::now();
  const double elapsed_us = std::chrono::duration<double, std::micro>(stop - start).count();
  return elapsed_us / ctx.options->iters;
}

// One more AllReduce into a zeroed receive buffer; counts values that differ from n(n+1)/2.
std::int64_t count_wrong_allreduce(const RankContext& ctx, const CollShape& shape) {
  DRIVER_CUDA(cudaMemsetAsync(ctx.recv, 0, shape.recv_bytes, ctx.stream));
  launch(ctx, CollKind::kAllReduce, shape);
  DRIVER_CUDA(cudaStreamSynchronize(ctx.stream));
  const float expected = static_cast<float>(ctx.nranks) * static_cast<float>(ctx.nranks + 1) / 2;
  std::vector<float> staging(std::min(shape.count, kStagingFloats));
  const auto* device = static_cast<const float*>(ctx.recv);
  std::int64_t wrong = 0;
  for (std::size_t first = 0; first < shape.count;) {
    const std::size_t n = std::min(shape.count - first, kStagingFloats);
    DRIVER_CUDA(
        cudaMemcpy(staging.data(), device + first, n * sizeof(float), cudaMemcpyDeviceToHost));
    wrong += std::count_if(staging.begin(), staging.begin() + static_cast<std::ptrdiff_t>(n),
                           [expected](float value) { return value != expected; });
    first += n;
  }
  return wrong;
}

// Runs every size of one collective; returns the wrong values found (rank 0: over all ranks).
std::int64_t sweep_collective(const RankContext& ctx, CollKind kind) {
  const Options& options = *ctx.options;
  const bool checked = options.check && kind == CollKind::kAllReduce;
  if (ctx.rank == 0) print_line(table_header(kind, ctx.nranks));
  double busbw_sum = 0.0;
  int rows = 0;
  std::int64_t wrong_total = 0;
  for (std::size_t bytes : size_sweep(options.min_bytes, options.max_bytes, options.step_factor)) {
    const CollShape shape = shape_for(kind, bytes, kTypeSize, ctx.nranks);
    if (shape.count == 0) continue;
    ctx.slot().time_us = time_launches(ctx, kind, shape);
    ctx.slot().wrong = checked ? count_wrong_allreduce(ctx, shape) : 0;
    sync_with_peers(ctx);
    if (ctx.rank != 0) continue;
    Row row;
    row.kind = kind;
    row.shape = shape;
    row.nranks = ctx.nranks;
    std::int64_t wrong = 0;
    for (int rank = 0; rank < ctx.nranks; ++rank) {
      row.time_us += ctx.page->ranks[rank].time_us / ctx.nranks;
      wrong += ctx.page->ranks[rank].wrong;
    }
    if (checked) row.wrong = wrong;
    wrong_total += wrong;
    busbw_sum += busbw_gbps(row);
    ++rows;
    print_line(table_row(row));
    write_csv(ctx, csv_row(row));
  }
  if (ctx.rank == 0) {
    const std::optional<std::int64_t> footer_wrong =
        checked ? std::optional<std::int64_t>(wrong_total) : std::nullopt;
    print_line(table_footer(rows > 0 ? busbw_sum / rows : 0.0, footer_wrong));
  }
  return wrong_total;
}

static_assert(sizeof(ncclUniqueId) == kUniqueIdBytes);

void join_communicator(RankContext& ctx) {
  ncclUniqueId id{};
  UniqueIdBytes bytes{};
  if (ctx.rank == 0) {
    DRIVER_NCCL(ncclGetUniqueId(&id), nullptr);
    std::memcpy(bytes.data(), &id, sizeof id);
    publish_unique_id(ctx.page, bytes);
  } else if (wait_for_unique_id(ctx.page, &bytes)) {
    std::memcpy(&id, bytes.data(), sizeof id);
  } else {
    throw DriverError("stopping: another rank failed before the NCCL unique id was published");
  }
  DRIVER_NCCL(ncclCommInitRank(&ctx.comm, ctx.nranks, id, ctx.rank), ctx.comm);
}

void open_csv(RankContext& ctx) {
  if (ctx.rank != 0 || ctx.options->csv_path.empty()) return;
  ctx.csv = std::fopen(ctx.options->csv_path.c_str(), "w");
  if (ctx.csv == nullptr) {
    throw DriverError("cannot write " + ctx.options->csv_path + ": " + std::strerror(errno));
  }
  write_csv(ctx, csv_header());
}

void close_csv(RankContext& ctx) {
  if (ctx.csv == nullptr) return;
  const bool ok = std::fclose(ctx.csv) == 0;
  ctx.csv = nullptr;
  if (!ok)
    throw DriverError("closing " + ctx.options->csv_path + " failed: " + std::strerror(errno));
}

int sweep(RankContext& ctx) {
  const int devices = visible_device_count();
  if (ctx.rank >= devices) {
    throw DriverError("needs CUDA device " + std::to_string(ctx.rank) + " but only " +
                      std::to_string(devices) + " are visible");
  }
  DRIVER_CUDA(cudaSetDevice(ctx.rank));
  record_device(ctx);
  open_csv(ctx);
  join_communicator(ctx);
  DRIVER_CUDA(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
  const std::size_t buffer_bytes = ctx.options->max_bytes;
  DRIVER_CUDA(cudaMalloc(&ctx.send, buffer_bytes));
  DRIVER_CUDA(cudaMalloc(&ctx.recv, buffer_bytes));
  DRIVER_CUDA(cudaMemset(ctx.recv, 0, buffer_bytes));
  fill_send_buffer(ctx, buffer_bytes);
  sync_with_peers(ctx);
  if (ctx.rank == 0) print_preamble(ctx);

  std::int64_t wrong = 0;
  for (CollKind kind : ctx.options->colls) wrong += sweep_collective(ctx, kind);
  close_csv(ctx);

  DRIVER_CUDA(cudaFree(ctx.send));
  DRIVER_CUDA(cudaFree(ctx.recv));
  DRIVER_CUDA(cudaStreamDestroy(ctx.stream));
  if (ctx.options->destroy) DRIVER_NCCL(ncclCommDestroy(ctx.comm), nullptr);
  return wrong > 0 ? kExitCheckFailed : 0;
}

}  // namespace

int run_rank(int rank, int nranks, const Options& options, ControlPage* page) {
  RankContext ctx;
  ctx.rank = rank;
  ctx.nranks = nranks;
  ctx.options = &options;
  ctx.page = page;
  try {
    return sweep(ctx);
  } catch (const DriverError& error) {
    page->abort.store(1, std::memory_order_release);
    std::fprintf(stderr, "npkit-nccl-driver: rank %d: %s\n", rank, error.what());
    return kExitFailure;
  }
}

}  // namespace npkit::driver

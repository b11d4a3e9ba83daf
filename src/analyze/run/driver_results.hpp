// run/driver_results.hpp — what a benchmark driver measured per size (nccl-tests' results file):
// one averaged time per size and placement, with no timestamps and no per-instance times.
// Contract:
// - A row is one line of the driver's table: its collective (NCCL's name, "AllReduce"; the
//   driver program's name where it runs no NCCL collective of that name), S in bytes (nccl-tests'
//   size (B), what algbw divides), count (elements), data type (NCCL's name, "ncclFloat32"; the
//   driver's name where NCCL has none), reduction ("sum", "none"), root (−1: none).
// - Each placement (out-of-place, then in-place) holds the driver's time in ns — the mean over
//   its timed iterations (nccl-tests: averaged over ranks too) — and its algbw/busbw (GB/s) as
//   written; wrong is the element count its check found wrong (nullopt: not checked);
//   iteration_ns the per-iteration times where the driver recorded them (nccl-tests -I 1,
//   results version ≥ 2: per iteration the slowest process), skipped_iterations how many leading
//   ones its own summary left out. An absent placement was not run.
// - cycle counts the passes over the sizes (nccl-tests -N): the k-th row of one (collective,
//   size, type, reduction, root) has cycle k − 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npkit {

struct DriverTiming {
  double time_ns = 0;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::optional<std::uint64_t> wrong;
  std::vector<double> iteration_ns;
  std::uint32_t skipped_iterations = 0;
};

struct DriverResult {
  std::string func;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;
  std::string redop;
  std::int32_t root = -1;
  std::optional<DriverTiming> out_of_place;
  std::optional<DriverTiming> in_place;
  std::uint32_t iterations = 0;
  std::uint32_t cycle = 0;
};

struct DriverResults {
  std::string program;    // "all_reduce_perf"
  std::string time_kind;  // "time" (GPU time by events) or "cpu_time" (nccl-tests -C 1)
  std::int32_t nranks = 0;
  std::vector<DriverResult> rows;  // in the driver's order
};

}  // namespace npkit

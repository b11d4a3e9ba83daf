// report.hpp — results of the sample collectives in nccl-tests' conventions
// (reference/analysis-anchors.md 1.1): S = the bytes per rank the collective moves (all-reduce:
// count x 4; all-to-all: per-peer count x 4 x n), time = the mean over ranks of each rank's mean
// time per launch (cudaEvent around the timed launches), algbw = S / time in GB/s (1e9 B),
// busbw = algbw x 2(n-1)/n for all-reduce and (n-1)/n for all-to-all.
//
// Contract: summarize() computes one row; print_table() writes the table to a FILE*;
// write_csv() writes header + rows, false with *error when the file cannot be written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace device_collectives {

struct Measurement {
  std::string coll;         // "allreduce" or "alltoall"
  uint64_t size_bytes = 0;  // S
  uint64_t count = 0;       // floats: all-reduce the whole buffer, all-to-all per peer
  int iters = 0;
  std::vector<double> rank_time_us;  // per rank: mean time per launch
  uint64_t wrong = 0;                // wrong elements over all ranks
};

struct Row {
  std::string coll;
  uint64_t size_bytes;
  uint64_t count;
  int iters;
  double time_us;
  double time_max_us;
  double algbw_gbps;
  double busbw_gbps;
  uint64_t wrong;
};

double bus_factor(const std::string& coll, int nranks);
Row summarize(const Measurement& measurement, int nranks);
void print_table(std::FILE* out, const std::vector<Row>& rows, const std::string& build);
bool write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& build,
               std::string* error);

}  // namespace device_collectives

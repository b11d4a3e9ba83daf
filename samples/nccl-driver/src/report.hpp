// report.hpp — the driver's output: the nccl-tests style table on stdout and the CSV rows, and the
// launch-cost table of --launch-cost.
//
// Contract (pure, no I/O): one Row per (collective, size) with the cross-rank mean time per
// launch; bandwidths follow coll_shape.hpp (1 GB = 1e9 B). One CostRow per size with the median,
// p10 and p90 of every rank's call-to-return times. Table lines end with '\n'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coll_shape.hpp"

namespace npkit::driver {

struct Row {
  CollKind kind = CollKind::kAllReduce;
  CollShape shape;
  int nranks = 0;
  double time_us = 0.0;               // mean over ranks of (elapsed / iters)
  std::optional<std::int64_t> wrong;  // summed over ranks; nullopt when not checked
};

// Data type of every buffer, as the table and CSV name it, and its size.
inline constexpr const char* kTypeName = "float";
inline constexpr std::size_t kTypeSize = 4;

double algbw_gbps(const Row& row);
double busbw_gbps(const Row& row);

// "# allreduce: N ranks, float" title plus the column header.
std::string table_header(CollKind kind, int nranks);
std::string table_row(const Row& row);
// The per-collective footer: "# Avg bus bandwidth : X" (plain mean over the rows, as nccl-tests)
// and, when any row was checked, "# Out of bounds values : N OK|FAILED".
std::string table_footer(double avg_busbw_gbps, std::optional<std::int64_t> total_wrong);

// "coll,size_bytes,count,type,nranks,time_us,algbw_gbps,busbw_gbps\n" and one row.
std::string csv_header();
std::string csv_row(const Row& row);

// The p-th percentile (0 <= p <= 100) of `values`, interpolated linearly between the two closest
// ranks (numpy's default); 0 for no values.
double percentile(std::vector<double> values, double p);

struct CostRow {
  CollKind kind = CollKind::kAllReduce;
  CollShape shape;
  int nranks = 0;
  int calls = 0;  // over all ranks
  double median_us = 0.0;
  double p10_us = 0.0;
  double p90_us = 0.0;
};

// "# launch cost: allreduce, N ranks, M calls per rank and size, ..." plus the column header.
std::string cost_table_header(CollKind kind, int nranks, int calls_per_rank);
std::string cost_table_row(const CostRow& row);
// "coll,size_bytes,count,nranks,calls,median_us,p10_us,p90_us\n" and one row.
std::string cost_csv_header();
std::string cost_csv_row(const CostRow& row);

}  // namespace npkit::driver

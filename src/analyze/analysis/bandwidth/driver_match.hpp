// analysis/bandwidth/driver_match.hpp — a run's bandwidth rows beside a benchmark driver's own
// results (nccl-tests -J), size by size: `bandwidth CAPTURE --driver RESULTS.json`.
// Contract:
// - Rows match by (collective, S, data type); a row of ours without a data type (legacy dumps)
//   matches on (collective, S) and is marked type_assumed. Every row of ours that --coll selects
//   gives one match (several rows of one size — algorithms, communicators — each get the
//   driver's figures); a row of ours with no driver row has driver_rows 0.
// - The driver's figures of a (collective, S, type): its out-of-place time and busbw, the mean
//   over its rows of that key (passes, reductions, roots); driver_rows counts them. Rows run in
//   place only are left out (in_place_only counts them).
// - unmatched_driver lists the driver's keys no row of ours has, in the driver's order.
// - time_ratio = driver time / our time and period_ratio = driver time / our period (0 where
//   either is missing).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "run/driver_results.hpp"

namespace npkit {

struct DriverKey {
  std::string func;
  std::uint64_t bytes = 0;
  std::string type;
  auto operator<=>(const DriverKey&) const = default;
};

struct DriverMatch {
  const BandwidthRow* ours = nullptr;
  bool type_assumed = false;
  std::uint32_t driver_rows = 0;
  double driver_time_ns = 0;
  double driver_busbw_gbps = 0;
  double time_ratio = 0;
  double period_ratio = 0;
};

struct DriverComparison {
  std::string path;
  std::vector<DriverMatch> matches;
  std::vector<DriverKey> unmatched_driver;
  std::uint32_t in_place_only = 0;
};

// Whether --coll `coll` ("all" or a collective's lower-case key) selects a driver row.
bool driver_row_selected(std::string_view coll, const DriverResult& row);

DriverComparison compare_with_driver(const std::vector<BandwidthRow>& ours,
                                     const DriverResults& driver, std::string_view coll,
                                     std::string path);

}  // namespace npkit

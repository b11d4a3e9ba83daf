// run/measures.hpp — the measures the commands show, each defined here once (docs/phases.md,
// glossary); analyses compute them with these, outputs only show them. Contract:
// - time: a member's GPU span (RunMember::duration_ns); a row's time is each rank's median over
//   the row's instances, mean over the ranks (the mean is mean_of_rank_medians).
// - algbw = S / time in GB/s (bytes per ns; 0 where the time is not positive); busbw = algbw ×
//   nccl-tests' factor for the collective and nranks (run/nccl_tests_convention.hpp). func is
//   NCCL's name as the run has it ("AllReduce", run/nccl_names.hpp); bus_factor is nullopt and
//   busbw_gbps 0 for a function nccl-tests does not define.
// - true time: the last rank's span of an instance on one clock, last arrival to last completion.
//   Of a run's instance: over its timed members, only when every rank is timed (a Send/Recv pair:
//   both ends), no rank is missing and the communicator has start times on one clock.
// - Arrival, per instance and rank on one clock: skew = the last arrival − the rank's arrival
//   (`report`'s sync: how long the rank waits for the last); lag = the rank's arrival − the first
//   arrival (the summary's sync rows: how late the rank comes). The period is bandwidth's
//   (analysis/bandwidth/bandwidth_table.hpp): start to start of back-to-back launches.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "run/run.hpp"

namespace npkit {

std::optional<double> bus_factor(std::string_view func, std::int32_t nranks);
double algbw_gbps(double bytes, double ns);
double busbw_gbps(std::string_view func, std::int32_t nranks, double bytes, double ns);

double mean_of_rank_medians(const std::vector<double>& medians);

std::int64_t true_time_ns(std::int64_t last_arrival_ns, std::int64_t last_completion_ns);
std::optional<std::int64_t> true_time_ns(const RunCommunicator& comm, const RunInstance& inst);

std::int64_t arrival_skew_ns(std::int64_t last_arrival_ns, std::int64_t arrival_ns);
std::int64_t arrival_lag_ns(std::int64_t first_arrival_ns, std::int64_t arrival_ns);

}  // namespace npkit

#include "run/measures.hpp"

#include <algorithm>

#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"
#include "util/saturating.hpp"

namespace npkit {

std::optional<double> bus_factor(std::string_view func, std::int32_t nranks) {
  const auto conv = nccl_tests_convention(coll_key(parse_nccl_func(func)),
                                          static_cast<std::uint32_t>(std::max(nranks, 0)));
  if (!conv) return std::nullopt;
  return conv->factor;
}

double algbw_gbps(double bytes, double ns) {
  return gb_per_s(bytes, ns);
}

double busbw_gbps(std::string_view func, std::int32_t nranks, double bytes, double ns) {
  const auto factor = bus_factor(func, nranks);
  return factor ? algbw_gbps(bytes, ns) * *factor : 0.0;
}

double mean_of_rank_medians(const std::vector<double>& medians) {
  double sum = 0;
  for (const double m : medians) sum += m;
  return medians.empty() ? 0.0 : sum / static_cast<double>(medians.size());
}

std::int64_t true_time_ns(std::int64_t last_arrival_ns, std::int64_t last_completion_ns) {
  return sat_sub(last_completion_ns, last_arrival_ns);
}

std::optional<std::int64_t> true_time_ns(const RunCommunicator& comm, const RunInstance& inst) {
  if (!comm.no_start_times.empty() || !comm.one_clock() || !inst.missing_ranks.empty()) {
    return std::nullopt;
  }
  std::int64_t last_start = INT64_MIN;
  std::int64_t last_end = INT64_MIN;
  std::size_t timed = 0;
  for (const auto& m : inst.members) {
    if (!m.timed) continue;
    ++timed;
    last_start = std::max(last_start, m.start_ns);
    last_end = std::max(last_end, m.end_ns);
  }
  const std::size_t needed = inst.is_pair() ? 2 : static_cast<std::size_t>(comm.nranks);
  if (timed != needed) return std::nullopt;
  return true_time_ns(last_start, last_end);
}

std::int64_t arrival_skew_ns(std::int64_t last_arrival_ns, std::int64_t arrival_ns) {
  return sat_sub(last_arrival_ns, arrival_ns);
}

std::int64_t arrival_lag_ns(std::int64_t first_arrival_ns, std::int64_t arrival_ns) {
  return sat_sub(arrival_ns, first_arrival_ns);
}

}  // namespace npkit

#include "analysis/join/arrival_skew.hpp"

#include <algorithm>
#include <map>

#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit {

ArrivalSkew arrival_skew(const Communicator& comm) {
  ArrivalSkew out;
  std::map<std::int32_t, std::vector<double>> skews;
  std::map<std::int32_t, std::uint64_t> last_counts;
  for (const auto& inst : comm.instances) {
    if (inst.is_pair()) continue;
    std::int64_t earliest = INT64_MAX;
    std::int64_t latest = INT64_MIN;
    std::size_t timed = 0;
    for (const auto& m : inst.members) {
      if (!m.op->has_gpu_span) continue;
      ++timed;
      earliest = std::min(earliest, m.op->gpu_start_ns);
      latest = std::max(latest, m.op->gpu_start_ns);
    }
    if (timed < 2) continue;
    ++out.instances_compared;
    for (const auto& m : inst.members) {
      if (!m.op->has_gpu_span) continue;
      skews[m.rank].push_back(static_cast<double>(sat_sub(m.op->gpu_start_ns, earliest)));
      if (m.op->gpu_start_ns == latest) ++last_counts[m.rank];
    }
  }
  for (auto& [rank, values] : skews) {
    std::sort(values.begin(), values.end());
    RankSkew r;
    r.rank = rank;
    r.instances = values.size();
    r.median_ns = sorted_quantile(values, 0.5);
    r.max_ns = static_cast<std::int64_t>(values.back());
    r.arrived_last = last_counts[rank];
    out.ranks.push_back(r);
  }
  std::vector<RankSkew> order = out.ranks;
  std::stable_sort(order.begin(), order.end(), [](const RankSkew& a, const RankSkew& b) {
    if (a.median_ns != b.median_ns) return a.median_ns > b.median_ns;
    return a.max_ns > b.max_ns;
  });
  for (const auto& r : order) out.straggler_order.push_back(r.rank);
  return out;
}

}  // namespace npkit

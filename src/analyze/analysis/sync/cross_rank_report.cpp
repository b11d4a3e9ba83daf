#include "analysis/sync/cross_rank_report.hpp"

#include <algorithm>
#include <utility>

namespace npkit {

CrossRankAnalysis analyze_cross_rank(CrossRankInput input, const Thresholds& thresholds) {
  CrossRankAnalysis a;
  a.input = std::move(input);
  a.alignment = estimate_host_offsets(a.input);
  a.sync = analyze_sync(a.input, a.alignment);
  a.imbalance = phase_imbalance(a.input.ranks);
  find_straggler(a.sync, a.input.scope, thresholds, a.findings);
  find_load_imbalance(a.imbalance, a.input.scope, thresholds, a.findings);
  find_network_wait(a.input.ranks, a.input.scope, thresholds, a.findings);
  return a;
}

CrossRankAnalysis analyze_cross_rank(const std::vector<RankInstanceTimes>& times,
                                     const std::vector<RankInfo>& phases, std::string scope,
                                     std::string time_source, const Thresholds& thresholds) {
  CrossRankInput input = join_by_occurrence(times, std::move(scope), std::move(time_source));
  for (const auto& p : phases) {
    bool found = false;
    for (auto& r : input.ranks) {
      if (r.rank != p.rank) continue;
      r.reference_ns = p.reference_ns;
      r.phases = p.phases;
      r.net = p.net;
      found = true;
    }
    if (!found) {
      RankInfo r = p;
      r.host = input.hosts_known ? p.host : "";
      input.ranks.push_back(std::move(r));
    }
  }
  std::sort(input.ranks.begin(), input.ranks.end(),
            [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
  input.nranks = static_cast<std::int32_t>(input.ranks.size());
  return analyze_cross_rank(std::move(input), thresholds);
}

}  // namespace npkit

#include "analysis/report/cross_rank_report.hpp"

#include <utility>

namespace npkit {

CrossRankAnalysis analyze_cross_rank(CrossRankInput input, const Thresholds& thresholds,
                                     const RunSettings& settings) {
  CrossRankAnalysis a;
  a.input = std::move(input);
  a.alignment = estimate_host_offsets(a.input);
  a.sync = analyze_sync(a.input, a.alignment);
  a.imbalance = phase_imbalance(a.input.ranks);
  find_straggler(a.sync, a.input, thresholds, a.findings);
  find_load_imbalance(a.imbalance, a.input.scope, thresholds, settings, a.findings);
  find_network_wait(a.input.ranks, a.input.scope, thresholds, settings, a.findings);
  find_gpu_wait(a.input.ranks, a.input.scope, thresholds, settings, a.findings);
  find_net_within_host(a.input, thresholds, settings, a.findings);
  return a;
}

}  // namespace npkit

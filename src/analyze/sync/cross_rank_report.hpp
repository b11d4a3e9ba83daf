// sync/cross_rank_report.hpp — the cross-rank analysis of one set of joined instances: host clock
// alignment, sync and stragglers, phase imbalance, and the findings they support.
// Contract: analyze_cross_rank runs estimate_host_offsets (align/host_offsets.hpp), analyze_sync
// on the aligned times (sync/instance_sync.hpp), phase_imbalance over the ranks' phases
// (sync/phase_imbalance.hpp) and the straggler, load-imbalance and network-wait rules
// (diagnose/findings.hpp) with `thresholds`, scoped by input.scope. The input is kept (gaps,
// instances and ranks are reported from it). The overload for sources without sequence numbers
// joins `times` by occurrence first (join/occurrence_join.hpp) and attaches `phases` (matched to
// ranks by RankInfo::rank; other fields of those entries are used as given).
//
// Renderers (text/CSV/Markdown and JSON) live in apps/npkit-analyze/commands/cross_rank_output.hpp.
#pragma once

#include <string>
#include <vector>

#include "align/host_offsets.hpp"
#include "diagnose/findings.hpp"
#include "diagnose/thresholds.hpp"
#include "join/occurrence_join.hpp"
#include "sync/cross_rank_input.hpp"
#include "sync/instance_sync.hpp"
#include "sync/phase_imbalance.hpp"

namespace npkit {

struct CrossRankAnalysis {
  CrossRankInput input;
  HostAlignment alignment;
  SyncAnalysis sync;
  std::vector<PhaseImbalance> imbalance;
  std::vector<Finding> findings;
};

CrossRankAnalysis analyze_cross_rank(CrossRankInput input, const Thresholds& thresholds);

CrossRankAnalysis analyze_cross_rank(const std::vector<RankInstanceTimes>& times,
                                     const std::vector<RankInfo>& phases, std::string scope,
                                     std::string time_source, const Thresholds& thresholds);

}  // namespace npkit

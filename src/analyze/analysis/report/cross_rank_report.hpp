// analysis/report/cross_rank_report.hpp — the cross-rank analysis of one set of joined instances:
// host clock alignment, sync and stragglers, phase imbalance, and the findings they support.
// Contract: analyze_cross_rank runs estimate_host_offsets (analysis/align/host_offsets.hpp),
// analyze_sync on the aligned times (analysis/sync/instance_sync.hpp), phase_imbalance over the
// ranks' phases (analysis/sync/phase_imbalance.hpp) and the straggler, load-imbalance,
// network-wait and NET-within-a-host rules (analysis/diagnose/findings.hpp) with `thresholds` and
// the run's `settings`, scoped by input.scope. The input is kept (gaps, instances and ranks are
// reported from it).
//
// Renderers (text/CSV/Markdown and JSON) live in output/cross_rank_output.hpp.
#pragma once

#include <string>
#include <vector>

#include "analysis/align/host_offsets.hpp"
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/thresholds.hpp"
#include "analysis/sync/instance_sync.hpp"
#include "analysis/sync/phase_imbalance.hpp"
#include "run/cross_rank_input.hpp"

namespace npkit {

struct CrossRankAnalysis {
  CrossRankInput input;
  HostAlignment alignment;
  SyncAnalysis sync;
  std::vector<PhaseImbalance> imbalance;
  std::vector<Finding> findings;
};

CrossRankAnalysis analyze_cross_rank(CrossRankInput input, const Thresholds& thresholds,
                                     const RunSettings& settings = RunSettings{});

}  // namespace npkit

// analysis/report/communicator_findings.hpp — every finding of one communicator: the
// cross-rank rules' (straggler, load imbalance, network wait;
// analysis/report/cross_rank_report.hpp) then the bandwidth rules' (small messages, few channels;
// analysis/diagnose/findings.hpp) over the communicator's timed rows (Send/Recv rows left out),
// scoped by the analysis' scope, their advice read against the run's `settings`.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/thresholds.hpp"
#include "analysis/report/cross_rank_report.hpp"

namespace npkit {

std::vector<Finding> communicator_findings(const CrossRankAnalysis& cross,
                                           const std::vector<BandwidthRow>& rows,
                                           std::uint64_t comm_hash, const Thresholds& thresholds,
                                           const RunSettings& settings);

}  // namespace npkit

// analysis/report/communicator_findings.hpp — every finding of one communicator: the
// cross-rank rules' (straggler, load imbalance, network wait, GPU wait;
// analysis/report/cross_rank_report.hpp) then the bandwidth rules' (small messages, few channels;
// analysis/diagnose/findings.hpp) over the communicator's timed rows (Send/Recv rows left out),
// scoped by the analysis' scope, their advice read against the run's `settings`. Contract:
// - shared_gpu first, where two ranks or more name one GPU (RunRank::gpu, its UUID): their
//   kernels take turns on it, so the findings that read per-rank timing as the job's
//   (straggler, load_imbalance, gpu_wait) are withheld.
// - network_wait and gpu_wait never both: they say opposite things of one communicator (the
//   network paces its transfers; the kernels do). The one with the larger share (network_share,
//   gpu_share) stays and names the other's share.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/thresholds.hpp"
#include "analysis/report/cross_rank_report.hpp"
#include "run/run.hpp"

namespace npkit {

std::vector<Finding> communicator_findings(const RunCommunicator& comm,
                                           const CrossRankAnalysis& cross,
                                           const std::vector<BandwidthRow>& rows,
                                           const Thresholds& thresholds,
                                           const RunSettings& settings);

}  // namespace npkit

// analysis/join/run_cross_rank.hpp — one communicator of a run (run/run.hpp) as the cross-rank
// analysis reads it (run/cross_rank_input.hpp).
// Contract:
// - Instances: the communicator's instances whose members agree (Send/Recv pairs left out), each
//   rank's (start, end) = its timed member's; untimed members are left out of the instance.
//   collective = func, label and bytes as the run has them. A communicator without start times
//   (no_start_times) gives its instances without rank times, and a "no start times" gap.
// - Ranks: every rank with data, host as the run names it — all hosts cleared unless every rank
//   names one (hosts_known). `rank_phases` are attached by rank (phases, reference, NET waits); a
//   rank that has phases but no data is added.
// - scope, time_source, nranks and gaps are the communicator's (plus that one).
#pragma once

#include <vector>

#include "run/cross_rank_input.hpp"
#include "run/run.hpp"

namespace npkit {

CrossRankInput cross_rank_input(const RunCommunicator& comm,
                                const std::vector<RankInfo>& rank_phases = {});

}  // namespace npkit

// analysis/proxy/proxy_rank_phases.hpp — a communicator's NET proxy steps as the cross-rank
// analysis's per-rank phases (run/cross_rank_input.hpp).
// Contract: one RankInfo per rank of `comm` whose RunRank::proxy has steps, in rank order: phases
// net_send, net_recv, sync and other of the step time (reference = step time), host = the rank's,
// and its NetWait; ranks without steps are left out.
#pragma once

#include <vector>

#include "run/cross_rank_input.hpp"
#include "run/run.hpp"

namespace npkit {

std::vector<RankInfo> proxy_rank_phases(const RunCommunicator& comm);

}  // namespace npkit

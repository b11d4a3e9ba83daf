#include "analysis/proxy/proxy_rank_phases.hpp"

namespace npkit {

std::vector<RankInfo> proxy_rank_phases(const RunCommunicator& comm) {
  std::vector<RankInfo> out;
  for (const RunRank& r : comm.ranks) {
    if (!r.proxy || r.proxy->steps == 0) continue;
    const ProxyStepBreakdown& steps = *r.proxy;
    RankInfo info;
    info.rank = r.rank;
    info.host = r.host;
    info.reference_ns = steps.step_ns;
    info.phases = {{"net_send", steps.net_send_ns},
                   {"net_recv", steps.net_recv_ns},
                   {"sync", steps.sync_ns},
                   {"other", steps.other_ns}};
    info.net =
        NetWait{steps.step_ns, steps.net_send_ns + steps.net_recv_ns, steps.sync_ns, steps.steps};
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace npkit

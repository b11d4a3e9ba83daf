#include "analysis/align/host_agreement.hpp"

#include <algorithm>
#include <string>

#include "util/saturating.hpp"

namespace npkit {

std::map<std::size_t, HostTimes> host_times(const std::vector<RankTimes>& ranks,
                                            const HostOfRank& host_of_rank) {
  std::map<std::size_t, HostTimes> out;
  for (const auto& r : ranks) {
    const auto h = host_of_rank.find(r.rank);
    if (h == host_of_rank.end()) continue;
    auto [it, inserted] = out.try_emplace(h->second, HostTimes{r.end_ns, r.start_ns});
    if (!inserted) {
      it->second.first_end_ns = std::min(it->second.first_end_ns, r.end_ns);
      it->second.last_start_ns = std::max(it->second.last_start_ns, r.start_ns);
    }
  }
  return out;
}

std::int64_t host_disagreement_ns(const std::map<std::size_t, HostTimes>& hosts) {
  std::int64_t worst = 0;
  for (const auto& [host, t] : hosts) {
    worst = std::max(worst, sat_sub(t.last_start_ns, t.first_end_ns));
  }
  return worst;
}

HostOfRank host_of_rank(const RunCommunicator& comm) {
  const bool known = comm.hosts_known();
  std::vector<std::string> hosts;
  HostOfRank out;
  for (const auto& r : comm.ranks) {
    const std::string host = known ? r.host : std::string();
    auto it = std::find(hosts.begin(), hosts.end(), host);
    if (it == hosts.end()) it = hosts.insert(hosts.end(), host);
    out[r.rank] = static_cast<std::size_t>(it - hosts.begin());
  }
  return out;
}

std::int64_t host_disagreement_ns(const RunCommunicator& comm, const RunInstance& inst,
                                  const HostOfRank& hosts) {
  if (inst.is_pair() || !comm.no_start_times.empty()) return 0;
  std::vector<RankTimes> times;
  for (const auto& m : inst.members) {
    if (m.timed) times.push_back({m.rank, m.start_ns, m.end_ns});
  }
  return host_disagreement_ns(host_times(times, hosts));
}

}  // namespace npkit

// analysis/align/host_agreement.hpp — do the times of one host agree? Ranks on one host share a
// clock, and no rank completes a collective before its last rank arrived, so on every host an
// instance's earliest completion lies at or after its latest arrival. Contract:
// - host_times: per host of an instance's ranks (host_of_rank gives each rank's host index; a
//   rank it lacks is skipped), the earliest completion and latest arrival of its ranks there.
// - host_disagreement_ns: the largest (latest arrival − earliest completion) over the hosts, 0
//   when every host's times agree. An instance with a positive value has times of one host that
//   disagree: the tool's own sanity check, counted by `report` (HostAlignment) and per row by
//   `bandwidth` (BandwidthRow::host_disagree_instances).
// - Of a run's communicator (run/run.hpp): its ranks' hosts as the cross-rank analysis takes
//   them (every rank one host unless every rank names one, RunCommunicator::hosts_known), and an
//   instance's times = its timed members' (start, end); a Send/Recv pair, or a communicator
//   without start times, has none to check (0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "run/cross_rank_input.hpp"
#include "run/run.hpp"

namespace npkit {

struct HostTimes {
  std::int64_t first_end_ns = 0;
  std::int64_t last_start_ns = 0;
};

using HostOfRank = std::map<std::int32_t, std::size_t>;

std::map<std::size_t, HostTimes> host_times(const std::vector<RankTimes>& ranks,
                                            const HostOfRank& host_of_rank);
std::int64_t host_disagreement_ns(const std::map<std::size_t, HostTimes>& hosts);

HostOfRank host_of_rank(const RunCommunicator& comm);
std::int64_t host_disagreement_ns(const RunCommunicator& comm, const RunInstance& inst,
                                  const HostOfRank& hosts);

}  // namespace npkit

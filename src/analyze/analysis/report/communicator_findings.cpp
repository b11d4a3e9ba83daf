#include "analysis/report/communicator_findings.hpp"

#include "run/measures.hpp"

namespace npkit {

std::vector<Finding> communicator_findings(const CrossRankAnalysis& cross,
                                           const std::vector<BandwidthRow>& rows,
                                           std::uint64_t comm_hash, const Thresholds& thresholds,
                                           const RunSettings& settings) {
  std::vector<SizeEvidence> evidence;
  for (const auto& r : rows) {
    if (r.comm_hash != comm_hash || r.func == "SendRecv" || r.ranks.empty()) continue;
    evidence.push_back({r.func, r.algo, r.proto, r.bytes, r.timed_instances, r.time_ns,
                        r.busbw_gbps, bus_factor(r.func, r.nranks).value_or(1.0), r.channels});
  }
  std::vector<Finding> findings = cross.findings;
  find_small_messages(evidence, cross.input.scope, thresholds, settings, findings);
  find_few_channels(evidence, cross.input.scope, thresholds, settings, findings);
  return findings;
}

}  // namespace npkit

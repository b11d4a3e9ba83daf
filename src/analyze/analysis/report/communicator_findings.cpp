#include "analysis/report/communicator_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "run/measures.hpp"
#include "util/prose_list.hpp"

namespace npkit {
namespace {

// Rules that read per-rank GPU timing as the job's own: on a shared GPU they read the sharing.
bool reads_rank_timing(const Finding& f) {
  return f.rule == "straggler" || f.rule == "load_imbalance" || f.rule == "gpu_wait";
}

std::optional<Finding> shared_gpu(const RunCommunicator& comm, const std::string& scope) {
  std::map<std::string, std::vector<std::string>> ranks_of_gpu;
  for (const auto& r : comm.ranks) {
    if (!r.gpu.empty()) ranks_of_gpu[r.gpu].push_back(std::to_string(r.rank));
  }
  std::vector<std::string> shared;
  std::size_t sharing = 0;
  for (const auto& [gpu, ranks] : ranks_of_gpu) {
    if (ranks.size() < 2) continue;
    shared.push_back(fmt::format("ranks {} on {}", prose_list(ranks), gpu));
    sharing += ranks.size();
  }
  if (shared.empty()) return std::nullopt;
  Finding f;
  f.rule = "shared_gpu";
  f.scope = scope;
  f.summary = fmt::format(
      "{} share a GPU: their kernels take turns on it, so per-rank GPU times, arrival order, "
      "imbalance and GPU waits show the sharing, not the job; straggler, load-imbalance and "
      "GPU-wait findings are withheld",
      prose_list(shared));
  f.headline =
      fmt::format("{} ranks share {} GPU(s): timing findings withheld", sharing, shared.size());
  f.next_step =
      "time on one rank per GPU; a shared GPU shows what ran and in which order, not how fast";
  f.numbers = {{"ranks_sharing", static_cast<double>(sharing)},
               {"shared_gpus", static_cast<double>(shared.size())}};
  return f;
}

double number(const Finding& f, const std::string& name) {
  for (const auto& [k, v] : f.numbers) {
    if (k == name) return v;
  }
  return 0;
}

// network_wait ("the network paces") and gpu_wait ("the kernels, not the network, pace") on one
// communicator: the larger share stays, and says the other rule's share beside it.
void keep_one_pace(std::vector<Finding>& findings) {
  const auto net = std::find_if(findings.begin(), findings.end(),
                                [](const Finding& f) { return f.rule == "network_wait"; });
  const auto gpu = std::find_if(findings.begin(), findings.end(),
                                [](const Finding& f) { return f.rule == "gpu_wait"; });
  if (net == findings.end() || gpu == findings.end()) return;
  const double net_share = number(*net, "network_share");
  const double gpu_share = number(*gpu, "gpu_share");
  const bool keep_net = net_share >= gpu_share;
  Finding& kept = keep_net ? *net : *gpu;
  kept.summary += fmt::format(
      " ({} also crossed its threshold, at {:.0f}% against {:.0f}% here: the larger share is "
      "the one reported)",
      keep_net ? "gpu_wait" : "network_wait", 100 * (keep_net ? gpu_share : net_share),
      100 * (keep_net ? net_share : gpu_share));
  findings.erase(keep_net ? gpu : net);
}

}  // namespace

std::vector<Finding> communicator_findings(const RunCommunicator& comm,
                                           const CrossRankAnalysis& cross,
                                           const std::vector<BandwidthRow>& rows,
                                           const Thresholds& thresholds,
                                           const RunSettings& settings) {
  std::vector<SizeEvidence> evidence;
  for (const auto& r : rows) {
    if (r.comm_hash != comm.hash || r.func == "SendRecv" || r.ranks.empty()) continue;
    evidence.push_back({r.func, r.algo, r.proto, r.bytes, r.timed_instances, r.time_ns,
                        r.busbw_gbps, bus_factor(r.func, r.nranks).value_or(1.0), r.channels});
  }
  std::vector<Finding> findings;
  const std::optional<Finding> shared = shared_gpu(comm, cross.input.scope);
  if (shared) findings.push_back(*shared);
  for (const auto& f : cross.findings) {
    if (!shared || !reads_rank_timing(f)) findings.push_back(f);
  }
  keep_one_pace(findings);
  find_small_messages(evidence, cross.input.scope, thresholds, settings, findings);
  find_few_channels(evidence, cross.input.scope, thresholds, settings, findings);
  return findings;
}

}  // namespace npkit

// analysis/diagnose/findings.hpp — rules that turn measured evidence into findings with a next
// step. Contract: a rule returns a finding only when its evidence crosses the thresholds
// (analysis/diagnose/thresholds.hpp; docs/phases.md "Diagnosis"); every finding quotes the numbers
// that triggered it, in its text and in `numbers` (name, value) for machine use, and names the
// instances or rows behind it; `headline` says it in one clause (under about 90 characters)
// for a summary line. Durations read as readable_duration (util/readable_duration.hpp) writes them.
// Advice reads the run's settings (run_settings.hpp): it never recommends a setting already in
// force — it names it — and the finding lists in `settings` the variables its advice read. Rules:
// - straggler: the first rank of the straggler order arrives last in at least straggler_share of
//   at least min_instances instances, a median margin of at least straggler_min_margin_ns and
//   beyond what the clocks can tell apart: the rank's clock uncertainty plus the largest of the
//   other ranks' (where known; the finding quotes it); it names the instances of largest margin;
// - load_imbalance: per phase that every rank (at least two) spends time in, max/median >=
//   imbalance while the phase holds at least imbalance_min_share of the reference time (its
//   times are sums over the rank's spans or steps, which overlap: the text says so; a phase
//   some ranks never enter is a difference of roles, e.g. the split tree's root, not a load
//   imbalance: shown in the table, no finding);
// - network_wait: ranks whose NET proxy steps (at least min_instances) spend at least net_wait of
//   their step time in network waits; the advice is the socket transport's threads on NET/Socket
//   runs, GPUDirect RDMA otherwise;
// - gpu_wait: ranks whose NET proxy steps (at least min_instances) spend at least gpu_wait of
//   their step time waiting for the GPU or the peer (SendGPUWait, SendPeerWait, RecvGPUWait):
//   the kernels, not the network, pace the transfers; it quotes the network's share beside it;
// - net_within_host: every rank of the communicator is on one host (hosts known, at least two
//   ranks) and ranks move data through NET proxy steps (at least min_instances): the network
//   transport carries traffic that P2P or SHM could; the advice names the settings that disable
//   them where in force;
// - small_messages: per collective, operations below small_bytes (at least min_instances of
//   them) take at least small_time_share of its GPU time at a busbw (their bytes over their time,
//   × bus_factor) below small_busbw × its best row's busbw; it names the sizes, and the share of
//   their time that is per-operation latency under the run's latency model where one fits;
// - few_channels: rows of at least channels_min_bytes on fewer than min_channels channels whose
//   size is bandwidth-bound under the run's latency model of their (collective, algo, proto)
//   (latency_model.hpp: α + S/β fitted on the run's rows) and whose busbw is below
//   channels_busbw × the busbw the model predicts at that size (latency-bound sizes always fall
//   short of the large sizes' busbw, so they are not judged against it).
// load_imbalance and few_channels advise NCCL_MIN_NCHANNELS (or name NCCL_MAX_NCHANNELS where it
// caps the channels); small_messages names NCCL_PROTO / NCCL_ALGO where in force.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diagnose/run_settings.hpp"
#include "analysis/diagnose/thresholds.hpp"
#include "analysis/sync/instance_sync.hpp"
#include "analysis/sync/phase_imbalance.hpp"
#include "run/cross_rank_input.hpp"

namespace npkit {

struct Finding {
  std::string rule;       // straggler, load_imbalance, network_wait, net_within_host, ...
  std::string scope;      // "comm 0123456789abcdef", a dump path
  std::string summary;    // what was found, with its numbers
  std::string headline;   // the finding in one short clause, for a report's summary
  std::string next_step;  // what to check or change
  std::vector<std::pair<std::string, double>> numbers;
  std::vector<std::pair<std::string, std::string>> settings;  // read by the advice; "" = not set
};

// One (collective, size, algo, proto) row of measured operations (bandwidth rows).
struct SizeEvidence {
  std::string collective;
  std::string algo;
  std::string proto;
  std::uint64_t bytes = 0;
  std::uint64_t operations = 0;  // timed operations (instances)
  double time_ns = 0;            // per operation
  double busbw_gbps = 0;
  double bus_factor = 1;       // busbw / algbw (nccl-tests factor)
  std::uint32_t channels = 0;  // 0 = unknown
};

void find_straggler(const SyncAnalysis& sync, const CrossRankInput& input, const Thresholds& t,
                    std::vector<Finding>& out);
void find_load_imbalance(const std::vector<PhaseImbalance>& phases, const std::string& scope,
                         const Thresholds& t, const RunSettings& settings,
                         std::vector<Finding>& out);
void find_network_wait(const std::vector<RankInfo>& ranks, const std::string& scope,
                       const Thresholds& t, const RunSettings& settings, std::vector<Finding>& out);
void find_gpu_wait(const std::vector<RankInfo>& ranks, const std::string& scope,
                   const Thresholds& t, const RunSettings& settings, std::vector<Finding>& out);
void find_net_within_host(const CrossRankInput& input, const Thresholds& t,
                          const RunSettings& settings, std::vector<Finding>& out);
void find_small_messages(const std::vector<SizeEvidence>& rows, const std::string& scope,
                         const Thresholds& t, const RunSettings& settings,
                         std::vector<Finding>& out);
void find_few_channels(const std::vector<SizeEvidence>& rows, const std::string& scope,
                       const Thresholds& t, const RunSettings& settings, std::vector<Finding>& out);

}  // namespace npkit

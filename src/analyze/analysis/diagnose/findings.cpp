#include "analysis/diagnose/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "analysis/diagnose/latency_model.hpp"

namespace npkit {
namespace {

std::string us(double ns) {
  return fmt::format("{:.3f} us", ns / 1e3);
}

std::string pct(double fraction) {
  return fmt::format("{:.1f}%", fraction * 100);
}

// "RING/SIMPLE"; "-" parts where a side is unknown.
std::string choice_of(const SizeEvidence& r) {
  return fmt::format("{}/{}", r.algo.empty() ? "-" : r.algo, r.proto.empty() ? "-" : r.proto);
}

// " (RING/SIMPLE)", or "" where the source names neither (AlltoAll, legacy dumps).
std::string choice_note(const SizeEvidence& r) {
  return r.algo.empty() && r.proto.empty() ? "" : " (" + choice_of(r) + ")";
}

// Best busbw per collective over `rows`.
std::map<std::string, double> best_busbw(const std::vector<SizeEvidence>& rows) {
  std::map<std::string, double> best;
  for (const auto& r : rows) best[r.collective] = std::max(best[r.collective], r.busbw_gbps);
  return best;
}

// The uncertainty of a difference between `rank`'s times and another rank's: its own plus the
// largest of the others' (none when a rank's is unknown).
std::optional<double> pair_uncertainty_ns(const std::vector<RankInfo>& ranks, std::int32_t rank) {
  double own = 0;
  double other = 0;
  for (const auto& r : ranks) {
    if (!r.clock_uncertainty_ns) return std::nullopt;
    if (r.rank == rank) {
      own = *r.clock_uncertainty_ns;
    } else {
      other = std::max(other, *r.clock_uncertainty_ns);
    }
  }
  return own + other;
}

}  // namespace

void find_straggler(const SyncAnalysis& sync, const std::vector<RankInfo>& ranks,
                    const std::string& scope, const Thresholds& t, std::vector<Finding>& out) {
  if (sync.straggler_order.empty() || sync.ranks.size() < 2) return;
  const std::int32_t rank = sync.straggler_order.front();
  const auto it = std::find_if(sync.ranks.begin(), sync.ranks.end(),
                               [&](const RankSync& r) { return r.rank == rank; });
  const RankSync& r = *it;
  if (static_cast<double>(r.instances) < t.min_instances) return;
  if (r.arrived_last_share < t.straggler_share) return;
  if (r.margin_median_ns < t.straggler_min_margin_ns) return;
  const std::optional<double> uncertainty = pair_uncertainty_ns(ranks, rank);
  if (uncertainty && r.margin_median_ns <= *uncertainty) return;  // the clocks cannot tell
  Finding f;
  f.rule = "straggler";
  f.scope = scope;
  f.summary = fmt::format(
      "rank {} arrives last at {} of {} instances ({}), a median {} (max {}) after the next-latest "
      "rank{}; the other ranks wait for it",
      rank, r.arrived_last, r.instances, pct(r.arrived_last_share), us(r.margin_median_ns),
      us(static_cast<double>(r.margin_max_ns)),
      uncertainty ? fmt::format(", beyond the clocks' {} uncertainty", us(*uncertainty)) : "");
  f.next_step = fmt::format(
      "look at what rank {} does before its collectives (compute or data-loading imbalance, CPU "
      "contention, a slower GPU, link or host) against a rank that arrives early",
      rank);
  f.numbers = {{"rank", rank},
               {"arrived_last", static_cast<double>(r.arrived_last)},
               {"instances", static_cast<double>(r.instances)},
               {"arrived_last_share", r.arrived_last_share},
               {"margin_median_ns", r.margin_median_ns},
               {"margin_max_ns", static_cast<double>(r.margin_max_ns)}};
  if (uncertainty) f.numbers.emplace_back("clock_uncertainty_ns", *uncertainty);
  out.push_back(std::move(f));
}

void find_load_imbalance(const std::vector<PhaseImbalance>& phases, const std::string& scope,
                         const Thresholds& t, std::vector<Finding>& out) {
  for (const auto& p : phases) {
    if (p.ranks < 2 || p.min_ns <= 0 || p.max_over_median < t.imbalance ||
        p.share < t.imbalance_min_share) {
      continue;
    }
    Finding f;
    f.rule = "load_imbalance";
    f.scope = scope;
    f.summary = fmt::format(
        "phase {} ({} of the time): rank {} spends {:.2f}x the median rank ({} vs {}; min {}, "
        "CV {:.2f})",
        p.phase, pct(p.share), p.max_rank, p.max_over_median, us(static_cast<double>(p.max_ns)),
        us(p.median_ns), us(static_cast<double>(p.min_ns)), p.cv);
    f.next_step = fmt::format(
        "check that the ranks' topology is symmetric (nvidia-smi topo -m: GPU-NIC and GPU-GPU "
        "paths) and rank {}'s CPU/NUMA binding and clocks",
        p.max_rank);
    f.numbers = {{"max_rank", p.max_rank},
                 {"max_ns", static_cast<double>(p.max_ns)},
                 {"median_ns", p.median_ns},
                 {"min_ns", static_cast<double>(p.min_ns)},
                 {"max_over_median", p.max_over_median},
                 {"cv", p.cv},
                 {"share", p.share}};
    out.push_back(std::move(f));
  }
}

void find_network_wait(const std::vector<RankInfo>& ranks, const std::string& scope,
                       const Thresholds& t, std::vector<Finding>& out) {
  std::string which;
  std::int64_t step = 0;
  std::int64_t network = 0;
  std::size_t count = 0;
  for (const auto& r : ranks) {
    if (!r.net || r.net->step_ns <= 0 || static_cast<double>(r.net->steps) < t.min_instances) {
      continue;
    }
    const double share =
        static_cast<double>(r.net->network_ns) / static_cast<double>(r.net->step_ns);
    if (share < t.net_wait) continue;
    which += fmt::format("{}rank {} {}", which.empty() ? "" : ", ", r.rank, pct(share));
    step += r.net->step_ns;
    network += r.net->network_ns;
    ++count;
  }
  if (count == 0) return;
  const double share = static_cast<double>(network) / static_cast<double>(step);
  Finding f;
  f.rule = "network_wait";
  f.scope = scope;
  f.summary = fmt::format(
      "NET proxy steps wait on the network for {} of their time ({} of {} step time; {})",
      pct(share), us(static_cast<double>(network)), us(static_cast<double>(step)), which);
  f.next_step =
      "check the network path: GPUDirect RDMA (NCCL_NET_GDR_LEVEL, nvidia-peermem), the NIC "
      "and its link; with NET/Socket raise NCCL_NSOCKS_PERTHREAD and NCCL_SOCKET_NTHREADS";
  f.numbers = {{"ranks", static_cast<double>(count)},
               {"network_ns", static_cast<double>(network)},
               {"step_ns", static_cast<double>(step)},
               {"network_share", share}};
  out.push_back(std::move(f));
}

void find_small_messages(const std::vector<SizeEvidence>& rows, const std::string& scope,
                         const Thresholds& t, std::vector<Finding>& out) {
  const auto best = best_busbw(rows);
  for (const auto& [coll, peak] : best) {
    double total_time = 0;
    double small_time = 0;
    double small_bytes = 0;
    std::uint64_t small_ops = 0;
    double factor = 1;
    for (const auto& r : rows) {
      if (r.collective != coll || r.operations == 0) continue;
      const double time = r.time_ns * static_cast<double>(r.operations);
      total_time += time;
      if (static_cast<double>(r.bytes) >= t.small_bytes) continue;
      small_time += time;
      small_bytes += static_cast<double>(r.bytes) * static_cast<double>(r.operations);
      small_ops += r.operations;
      factor = r.bus_factor;
    }
    if (small_ops == 0 || total_time <= 0 || peak <= 0) continue;
    const double share = small_time / total_time;
    const double busbw = small_time > 0 ? small_bytes / small_time * factor : 0.0;
    if (static_cast<double>(small_ops) < t.min_instances || share < t.small_time_share ||
        busbw >= t.small_busbw * peak) {
      continue;
    }
    Finding f;
    f.rule = "small_messages";
    f.scope = scope;
    f.summary = fmt::format(
        "{}: {} operation(s) below {} B take {} of its GPU time at {:.2f} GB/s busbw, {} of its "
        "best ({:.2f} GB/s)",
        coll, small_ops, static_cast<std::uint64_t>(t.small_bytes), pct(share), busbw,
        pct(busbw / peak), peak);
    f.next_step =
        "fuse small collectives (bigger buckets, ncclGroupStart/End), and check NCCL's choice at "
        "these sizes (NCCL_PROTO=LL/LL128, NCCL_ALGO, tuning thresholds)";
    f.numbers = {{"operations", static_cast<double>(small_ops)},
                 {"time_share", share},
                 {"busbw_gbps", busbw},
                 {"best_busbw_gbps", peak}};
    out.push_back(std::move(f));
  }
}

void find_few_channels(const std::vector<SizeEvidence>& rows, const std::string& scope,
                       const Thresholds& t, std::vector<Finding>& out) {
  // One latency model per (collective, algo, proto), fitted once on the run's own rows.
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::vector<std::pair<double, double>>> points;
  for (const auto& r : rows) {
    if (r.operations > 0) points[{r.collective, r.algo, r.proto}].push_back({r.bytes, r.time_ns});
  }
  std::map<Key, std::optional<LatencyModel>> models;
  for (const auto& [key, p] : points) models[key] = fit_latency_model(p);
  for (const auto& r : rows) {
    if (r.channels == 0 || r.operations == 0 || !(r.time_ns > 0)) continue;
    const double bytes = static_cast<double>(r.bytes);
    if (bytes < t.channels_min_bytes) continue;
    if (static_cast<double>(r.channels) >= t.min_channels) continue;
    const std::optional<LatencyModel>& model = models[{r.collective, r.algo, r.proto}];
    if (!model || !model->bandwidth_bound(bytes)) continue;  // latency-bound: channels matter less
    const double predicted_busbw = r.busbw_gbps * r.time_ns / model->time_ns(bytes);
    if (r.busbw_gbps >= t.channels_busbw * predicted_busbw) continue;
    Finding f;
    f.rule = "few_channels";
    f.scope = scope;
    f.summary = fmt::format(
        "{} {} B{}: {} channel(s), busbw {:.2f} GB/s, {} of the {:.2f} GB/s that the run's latency "
        "model of {} predicts at this size ({}, fitted on {} sizes)",
        r.collective, r.bytes, choice_note(r), r.channels, r.busbw_gbps,
        pct(r.busbw_gbps / predicted_busbw), predicted_busbw,
        r.algo.empty() && r.proto.empty() ? r.collective : choice_of(r), model->text(),
        model->points);
    f.next_step =
        "raise NCCL_MIN_NCHANNELS (and check NCCL_MAX_NCHANNELS, NCCL_NCHANNELS_PER_NET_PEER) "
        "and compare busbw";
    f.numbers = {{"bytes", bytes},
                 {"channels", static_cast<double>(r.channels)},
                 {"busbw_gbps", r.busbw_gbps},
                 {"predicted_busbw_gbps", predicted_busbw},
                 {"model_alpha_ns", model->alpha_ns},
                 {"model_beta_gbps", 1.0 / model->ns_per_byte}};
    out.push_back(std::move(f));
  }
}

}  // namespace npkit

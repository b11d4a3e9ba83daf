#include "analysis/diagnose/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "analysis/diagnose/latency_model.hpp"
#include "util/prose_list.hpp"
#include "util/readable_duration.hpp"

namespace npkit {
namespace {

std::string us(double ns) {
  return readable_duration(ns);
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

// "; largest margins: AllReduce seq 12 (5.100 us), ..." — up to three instances where `rank`
// alone arrived last, by margin.
std::string largest_margins(const SyncAnalysis& sync, const CrossRankInput& input,
                            std::int32_t rank) {
  std::vector<const InstanceSync*> own;
  for (const auto& s : sync.instances) {
    if (s.last_rank == rank && s.margin_ns > 0 && s.instance < input.instances.size()) {
      own.push_back(&s);
    }
  }
  const std::size_t shown = std::min<std::size_t>(3, own.size());
  std::partial_sort(own.begin(), own.begin() + static_cast<std::ptrdiff_t>(shown), own.end(),
                    [](const InstanceSync* a, const InstanceSync* b) {
                      return a->margin_ns != b->margin_ns ? a->margin_ns > b->margin_ns
                                                          : a->instance < b->instance;
                    });
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < shown; ++i) {
    parts.push_back(fmt::format("{} ({})", input.instances[own[i]->instance].label,
                                us(static_cast<double>(own[i]->margin_ns))));
  }
  return parts.empty() ? "" : "; largest margins: " + prose_list(parts);
}

// The advice of network_wait: the socket transport's threads where the run uses NET/Socket, the
// GPUDirect RDMA path otherwise; settings in force are named, not recommended.
std::string network_advice(const RunSettings& settings) {
  const bool socket =
      settings.equals("NCCL_NET", "Socket") || settings.equals("NCCL_IB_DISABLE", "1");
  if (socket) {
    std::vector<std::string> in_force;
    std::vector<std::string> to_raise;
    for (const char* name : {"NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD"}) {
      const std::string set = settings.in_force(name);
      (set.empty() ? to_raise : in_force).push_back(set.empty() ? name : set);
    }
    std::string advice = "the run uses NET/Socket";
    if (!in_force.empty()) advice += " with " + prose_list(in_force) + " in force";
    if (to_raise.empty()) {
      return advice + ": check the NIC and its link, or move to an RDMA network (IB, RoCE)";
    }
    return advice + ": raise " + prose_list(to_raise) +
           " (threads × sockets per thread at most 64) and compare busbw";
  }
  const std::string gdr = settings.in_force("NCCL_NET_GDR_LEVEL");
  return "check the network path: GPUDirect RDMA (nvidia-peermem loaded; NCCL_DEBUG=INFO logs "
         "GDRDMA per channel; " +
         (gdr.empty() ? std::string("NCCL_NET_GDR_LEVEL") : gdr + " is in force") +
         "), the NIC and its link";
}

// The protocol and algorithm part of small_messages' advice; `chosen` holds the protocols the
// operations at these sizes ran with ("" where the input does not say).
std::string small_size_advice(const RunSettings& settings, const std::set<std::string>& chosen) {
  std::string advice;
  const std::string proto = settings.in_force("NCCL_PROTO");
  const bool known = !chosen.empty() && !chosen.contains("");
  const bool low_latency_only =
      known && std::all_of(chosen.begin(), chosen.end(),
                           [](const std::string& p) { return p == "LL" || p == "LL128"; });
  if (proto.empty() && low_latency_only) {
    advice = "NCCL already ran these sizes with " + prose_list({chosen.begin(), chosen.end()}) +
             ", its low-latency protocol" + (chosen.size() == 1 ? "" : "s") +
             ": their time is per-operation latency";
  } else if (proto.empty()) {
    advice = "NCCL chose the protocol (NCCL_PROTO not set)" +
             (known ? " and ran " + prose_list({chosen.begin(), chosen.end()}) + " here" : "") +
             ": compare NCCL_PROTO=LL at these sizes";
  } else if (!settings.contains("NCCL_PROTO", "LL")) {
    advice = proto +
             " is in force and keeps the low-latency protocols (LL, LL128) from these "
             "sizes: unset it";
  } else {
    advice = proto + " is in force";
  }
  const std::string algo = settings.in_force("NCCL_ALGO");
  if (!algo.empty()) advice += "; " + algo + " is in force: compare NCCL's own choice (unset it)";
  return advice;
}

// Ranks whose NET proxy steps (at least `min_steps`) spend at least `floor` of their step time in
// `part`, "rank 0 65.4%" each, with their summed step, network and GPU/peer wait times.
struct WaitingRanks {
  std::vector<std::string> which;
  std::int64_t step = 0;
  std::int64_t network = 0;
  std::int64_t gpu = 0;
};

WaitingRanks waiting_ranks(const std::vector<RankInfo>& ranks, double min_steps, double floor,
                           std::int64_t NetWait::*part) {
  WaitingRanks w;
  for (const auto& r : ranks) {
    if (!r.net || r.net->step_ns <= 0 || static_cast<double>(r.net->steps) < min_steps) continue;
    const double share = static_cast<double>((*r.net).*part) / static_cast<double>(r.net->step_ns);
    if (share < floor) continue;
    w.which.push_back(fmt::format("rank {} {}", r.rank, pct(share)));
    w.step += r.net->step_ns;
    w.network += r.net->network_ns;
    w.gpu += r.net->gpu_peer_ns;
  }
  return w;
}

// The advice on channel counts shared by load_imbalance and few_channels.
std::string channel_advice(const RunSettings& settings) {
  const std::string min = settings.in_force("NCCL_MIN_NCHANNELS");
  return min.empty() ? "raise NCCL_MIN_NCHANNELS to spread each rank's work over more channels"
                     : min + " is in force already: check NCCL_MAX_NCHANNELS and the topology";
}

}  // namespace

void find_straggler(const SyncAnalysis& sync, const CrossRankInput& input, const Thresholds& t,
                    std::vector<Finding>& out) {
  if (sync.straggler_order.empty() || sync.ranks.size() < 2) return;
  const std::int32_t rank = sync.straggler_order.front();
  const auto it = std::find_if(sync.ranks.begin(), sync.ranks.end(),
                               [&](const RankSync& r) { return r.rank == rank; });
  const RankSync& r = *it;
  if (static_cast<double>(r.instances) < t.min_instances) return;
  if (r.arrived_last_share < t.straggler_share) return;
  if (r.margin_median_ns < t.straggler_min_margin_ns) return;
  const std::optional<double> uncertainty = pair_uncertainty_ns(input.ranks, rank);
  if (uncertainty && r.margin_median_ns <= *uncertainty) return;  // the clocks cannot tell
  Finding f;
  f.rule = "straggler";
  f.scope = input.scope;
  f.summary = fmt::format(
      "rank {} arrives last at {} of {} instances ({}), a median {} (max {}) after the next-latest "
      "rank{}; the other ranks wait for it{}",
      rank, r.arrived_last, r.instances, pct(r.arrived_last_share), us(r.margin_median_ns),
      us(static_cast<double>(r.margin_max_ns)),
      uncertainty ? fmt::format(", beyond the clocks' {} uncertainty", us(*uncertainty)) : "",
      largest_margins(sync, input, rank));
  f.headline = fmt::format("rank {} arrives last at {} of instances, a median {} after the others",
                           rank, pct(r.arrived_last_share), us(r.margin_median_ns));
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
                         const Thresholds& t, const RunSettings& settings,
                         std::vector<Finding>& out) {
  for (const auto& p : phases) {
    if (p.ranks < 2 || p.min_ns <= 0 || p.max_over_median < t.imbalance ||
        p.share < t.imbalance_min_share) {
      continue;
    }
    Finding f;
    f.rule = "load_imbalance";
    f.scope = scope;
    f.summary = fmt::format(
        "phase {} ({} of the time): rank {} spends {:.2f}x the median rank ({} vs {}, each summed "
        "over the rank's spans or steps, which overlap in time: not wall time; min {}, CV {:.2f})",
        p.phase, pct(p.share), p.max_rank, p.max_over_median, us(static_cast<double>(p.max_ns)),
        us(p.median_ns), us(static_cast<double>(p.min_ns)), p.cv);
    f.headline = fmt::format("rank {} spends {:.2f}x the median rank in phase {}", p.max_rank,
                             p.max_over_median, p.phase);
    f.next_step = fmt::format(
        "check that the ranks' topology is symmetric (nvidia-smi topo -m: GPU-NIC and GPU-GPU "
        "paths) and rank {}'s CPU/NUMA binding and clocks; {}",
        p.max_rank, channel_advice(settings));
    f.settings = settings.values({"NCCL_MIN_NCHANNELS"});
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
                       const Thresholds& t, const RunSettings& settings,
                       std::vector<Finding>& out) {
  const WaitingRanks w = waiting_ranks(ranks, t.min_instances, t.net_wait, &NetWait::network_ns);
  if (w.which.empty()) return;
  const double share = static_cast<double>(w.network) / static_cast<double>(w.step);
  Finding f;
  f.rule = "network_wait";
  f.scope = scope;
  f.summary = fmt::format(
      "NET proxy steps wait on the network for {} of their time ({} of {} step time, summed over "
      "overlapping steps; {})",
      pct(share), us(static_cast<double>(w.network)), us(static_cast<double>(w.step)),
      prose_list(w.which));
  f.headline = fmt::format("NET proxy steps wait on the network for {} of their time", pct(share));
  f.next_step = network_advice(settings);
  f.settings = settings.values({"NCCL_NET", "NCCL_IB_DISABLE", "NCCL_SOCKET_NTHREADS",
                                "NCCL_NSOCKS_PERTHREAD", "NCCL_NET_GDR_LEVEL"});
  f.numbers = {{"ranks", static_cast<double>(w.which.size())},
               {"network_ns", static_cast<double>(w.network)},
               {"step_ns", static_cast<double>(w.step)},
               {"network_share", share}};
  out.push_back(std::move(f));
}

void find_gpu_wait(const std::vector<RankInfo>& ranks, const std::string& scope,
                   const Thresholds& t, const RunSettings& settings, std::vector<Finding>& out) {
  const WaitingRanks w = waiting_ranks(ranks, t.min_instances, t.gpu_wait, &NetWait::gpu_peer_ns);
  if (w.which.empty()) return;
  const double share = static_cast<double>(w.gpu) / static_cast<double>(w.step);
  const double network_share = static_cast<double>(w.network) / static_cast<double>(w.step);
  Finding f;
  f.rule = "gpu_wait";
  f.scope = scope;
  f.summary = fmt::format(
      "NET proxy steps wait for the GPU or the peer for {} of their time ({} of {} step time, "
      "summed over overlapping steps; {}) "
      "and on the network for {}: the kernels, not the network, pace the transfers",
      pct(share), us(static_cast<double>(w.gpu)), us(static_cast<double>(w.step)),
      prose_list(w.which), pct(network_share));
  f.headline =
      fmt::format("NET proxy steps wait for the GPU or the peer for {} of their time", pct(share));
  const std::string threads = settings.in_force("NCCL_NTHREADS");
  f.next_step =
      "look at the GPU side before the network: a rank whose kernels start late (the sync table, "
      "stragglers), compute kernels sharing the GPU; " +
      channel_advice(settings) +
      (threads.empty() ? "" : "; " + threads + " is in force: compare NCCL's default");
  f.numbers = {{"ranks", static_cast<double>(w.which.size())},
               {"gpu_peer_ns", static_cast<double>(w.gpu)},
               {"network_ns", static_cast<double>(w.network)},
               {"step_ns", static_cast<double>(w.step)},
               {"gpu_share", share},
               {"network_share", network_share}};
  f.settings = settings.values({"NCCL_MIN_NCHANNELS", "NCCL_NTHREADS"});
  out.push_back(std::move(f));
}

void find_net_within_host(const CrossRankInput& input, const Thresholds& t,
                          const RunSettings& settings, std::vector<Finding>& out) {
  if (!input.hosts_known || input.ranks.size() < 2) return;
  const std::string& host = input.ranks.front().host;
  for (const auto& r : input.ranks) {
    if (r.host.empty() || r.host != host) return;
  }
  std::vector<std::string> which;
  std::uint64_t steps = 0;
  std::int64_t step_ns = 0;
  for (const auto& r : input.ranks) {
    if (!r.net || static_cast<double>(r.net->steps) < t.min_instances) continue;
    which.push_back(std::to_string(r.rank));
    steps += r.net->steps;
    step_ns += r.net->step_ns;
  }
  if (which.empty()) return;
  std::vector<std::string> disabling;
  if (settings.equals("NCCL_P2P_DISABLE", "1")) disabling.push_back("NCCL_P2P_DISABLE=1");
  if (settings.equals("NCCL_SHM_DISABLE", "1")) disabling.push_back("NCCL_SHM_DISABLE=1");
  const std::string level = settings.in_force("NCCL_P2P_LEVEL");
  if (!level.empty()) disabling.push_back(level);
  Finding f;
  f.rule = "net_within_host";
  f.scope = input.scope;
  f.summary = fmt::format(
      "all {} ranks run on host {}, yet rank(s) {} move data through the network transport: {} "
      "NET proxy step(s), {} of step time summed over overlapping steps",
      input.ranks.size(), host, prose_list(which), steps, us(static_cast<double>(step_ns)));
  f.headline = fmt::format("all {} ranks share host {} yet move data through the network transport",
                           input.ranks.size(), host);
  const std::string host_ids = settings.value("NCCL_HOSTID");
  f.next_step =
      settings.distinct("NCCL_HOSTID") > 1
          ? "NCCL_HOSTID differs between the ranks (" + host_ids +
                "): NCCL takes each rank for a host of its own and connects them through the "
                "network; give the ranks of one host one NCCL_HOSTID (or unset it) unless the run "
                "is meant to test the network"
      : disabling.empty()
          ? "the run's environment disables neither P2P nor SHM: check the GPUs' peer access "
            "(nvidia-smi topo -m), the container's IPC namespace and /dev/shm size, and why NCCL "
            "chose NET (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P)"
          : prose_list(disabling) + " in force keep" + (disabling.size() == 1 ? "s" : "") +
                " the ranks of this host off P2P (NVLink, PCIe) and shared memory: unset " +
                (disabling.size() == 1 ? "it" : "them") +
                " unless the run is meant to test the "
                "network";
  f.numbers = {{"ranks", static_cast<double>(input.ranks.size())},
               {"net_ranks", static_cast<double>(which.size())},
               {"steps", static_cast<double>(steps)},
               {"step_ns", static_cast<double>(step_ns)}};
  f.settings =
      settings.values({"NCCL_HOSTID", "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_P2P_LEVEL"});
  out.push_back(std::move(f));
}

void find_small_messages(const std::vector<SizeEvidence>& rows, const std::string& scope,
                         const Thresholds& t, const RunSettings& settings,
                         std::vector<Finding>& out) {
  const auto best = best_busbw(rows);
  for (const auto& [coll, peak] : best) {
    double total_time = 0;
    double small_time = 0;
    double small_bytes = 0;
    std::uint64_t small_ops = 0;
    double factor = 1;
    std::set<std::uint64_t> sizes;
    std::set<std::string> protos;                   // of the small sizes
    std::vector<std::pair<double, double>> points;  // (bytes, time) of every timed row
    for (const auto& r : rows) {
      if (r.collective != coll || r.operations == 0) continue;
      const double time = r.time_ns * static_cast<double>(r.operations);
      total_time += time;
      points.push_back({static_cast<double>(r.bytes), r.time_ns});
      if (static_cast<double>(r.bytes) >= t.small_bytes) continue;
      small_time += time;
      small_bytes += static_cast<double>(r.bytes) * static_cast<double>(r.operations);
      small_ops += r.operations;
      factor = r.bus_factor;
      sizes.insert(r.bytes);
      protos.insert(r.proto);
    }
    if (small_ops == 0 || total_time <= 0 || peak <= 0) continue;
    const double share = small_time / total_time;
    const double busbw = small_time > 0 ? small_bytes / small_time * factor : 0.0;
    if (static_cast<double>(small_ops) < t.min_instances || share < t.small_time_share ||
        busbw >= t.small_busbw * peak) {
      continue;
    }
    std::vector<std::string> size_names;
    for (const auto b : sizes) size_names.push_back(std::to_string(b));
    Finding f;
    f.rule = "small_messages";
    f.scope = scope;
    f.summary = fmt::format(
        "{}: {} operation(s) below {} B (sizes {} B) take {} of its GPU time at {:.2f} GB/s busbw, "
        "{} of its best ({:.2f} GB/s)",
        coll, small_ops, static_cast<std::uint64_t>(t.small_bytes), prose_list(size_names),
        pct(share), busbw, pct(busbw / peak), peak);
    f.headline =
        fmt::format("{}: sizes below {} B take {} of its time at {} of its best busbw", coll,
                    static_cast<std::uint64_t>(t.small_bytes), pct(share), pct(busbw / peak));
    f.numbers = {{"operations", static_cast<double>(small_ops)},
                 {"time_share", share},
                 {"busbw_gbps", busbw},
                 {"best_busbw_gbps", peak}};
    if (const auto model = fit_latency_model(points); model && small_time > 0) {
      const double latency_share =
          std::min(1.0, model->alpha_ns * static_cast<double>(small_ops) / small_time);
      f.summary += fmt::format(
          "; under the run's latency model ({}) {} of their time is per-operation latency",
          model->text(), pct(latency_share));
      f.numbers.emplace_back("latency_share", latency_share);
      f.numbers.emplace_back("model_alpha_ns", model->alpha_ns);
    }
    f.next_step = "fuse small collectives (bigger buckets, ncclGroupStart/End); " +
                  small_size_advice(settings, protos);
    f.settings = settings.values({"NCCL_PROTO", "NCCL_ALGO"});
    out.push_back(std::move(f));
  }
}

void find_few_channels(const std::vector<SizeEvidence>& rows, const std::string& scope,
                       const Thresholds& t, const RunSettings& settings,
                       std::vector<Finding>& out) {
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
    f.headline =
        fmt::format("{} {} B runs on {} channel(s) at {} of the busbw its size allows",
                    r.collective, r.bytes, r.channels, pct(r.busbw_gbps / predicted_busbw));
    const std::string max = settings.in_force("NCCL_MAX_NCHANNELS");
    f.next_step = max.empty() ? channel_advice(settings) +
                                    " (and check NCCL_NCHANNELS_PER_NET_PEER); compare busbw"
                              : max +
                                    " is in force and may cap the channels: raise or unset it, "
                                    "then compare busbw";
    f.settings = settings.values({"NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS"});
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

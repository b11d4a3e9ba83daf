#include "analysis/bandwidth/bandwidth_table.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

#include "run/measures.hpp"
#include "run/nccl_names.hpp"
#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

using RowKey = std::tuple<std::uint64_t, std::string, std::uint64_t, std::string, std::string,
                          std::string>;  // comm, func, bytes, algo, proto, type

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, 0.5);
}

// One rank's period samples of one row: its pairs (the median's sample) and its period.
struct RankPeriod {
  std::vector<double> pairs;
  double period_ns = 0;
};

struct RowBuilder {
  BandwidthRow row;
  std::map<std::int32_t, std::vector<double>> rank_times;
  std::map<std::int32_t, RankPeriod> rank_periods;
  std::map<std::int32_t, std::vector<double>> rank_compute;  // kernel phases' compute times
  std::vector<double> true_times;
};

RowKey row_key(const RunCommunicator& comm, const RunInstance& inst) {
  return {comm.hash, inst.func, inst.bytes, inst.algo, inst.proto, inst.type};
}

// One operation of a rank's stream: its row and member (null where the rank has no operation at
// that position, e.g. one the join could not use).
struct StreamSlot {
  const RowKey* key = nullptr;
  const RunMember* member = nullptr;
  bool pair = false;
};

// One rank's pairs of one row, in stream order, and its bursts: chains of back-to-back pairs,
// each pair's second operation the next pair's first.
struct PairSamples {
  std::vector<double> all;
  std::vector<double> queued;  // launched back to back
  double burst_ns = 0;         // the longest burst (the last of the longest): start to start
  std::size_t burst_pairs = 0;
  double chain_ns = 0;  // the burst being read, which ends at stream position chain_end
  std::size_t chain_pairs = 0;
  std::size_t chain_end = 0;

  // The pair of stream positions (i - 1, i), `period` apart, launched back to back.
  void add_queued(std::size_t i, double period) {
    queued.push_back(period);
    if (chain_pairs == 0 || chain_end != i - 1) {
      chain_ns = 0;
      chain_pairs = 0;
    }
    chain_ns += period;
    ++chain_pairs;
    chain_end = i;
    if (chain_pairs >= burst_pairs) {
      burst_ns = chain_ns;
      burst_pairs = chain_pairs;
    }
  }
};

// Back-to-back period samples of every rank of `comm`, into the builders of their rows.
void add_periods(const RunCommunicator& comm, const std::vector<RowKey>& keys,
                 std::map<RowKey, RowBuilder>& builders) {
  std::map<std::int32_t, std::vector<StreamSlot>> streams;
  for (std::size_t i = 0; i < comm.instances.size(); ++i) {
    const RunInstance& inst = comm.instances[i];
    for (const auto& m : inst.members) {
      auto& stream = streams[m.rank];
      if (stream.size() <= m.order) stream.resize(m.order + 1);
      stream[m.order] = {&keys[i], &m, inst.is_pair()};
    }
  }
  for (const auto& [rank, stream] : streams) {
    std::map<RowKey, PairSamples> pairs;
    for (std::size_t i = 1; i < stream.size(); ++i) {
      const StreamSlot& a = stream[i - 1];
      const StreamSlot& b = stream[i];
      if (a.member == nullptr || b.member == nullptr || a.pair || *a.key != *b.key) continue;
      if (!a.member->timed || !b.member->timed) continue;
      if (a.member->group != 0 && a.member->group == b.member->group) continue;
      PairSamples& samples = pairs[*a.key];
      const auto period = static_cast<double>(sat_sub(b.member->start_ns, a.member->start_ns));
      samples.all.push_back(period);
      if (b.member->launch_ns != kUnknownTime && b.member->launch_ns < a.member->end_ns) {
        samples.add_queued(i, period);
      }
    }
    for (auto& [key, samples] : pairs) {
      const auto it = builders.find(key);
      if (it == builders.end()) continue;
      RankPeriod& p = it->second.rank_periods[rank];
      if (samples.queued.empty()) {
        // No burst to tell apart from the gaps between bursts: the median pair leaves those out.
        p.pairs = std::move(samples.all);
        p.period_ns = median(p.pairs);
      } else {
        p.pairs = std::move(samples.queued);
        p.period_ns = samples.burst_ns / static_cast<double>(samples.burst_pairs);
      }
    }
  }
}

void add_instance(const RunCommunicator& comm, const RunInstance& inst, RowBuilder& b) {
  ++b.row.instances;
  if (inst.host_disagree) ++b.row.host_disagree_instances;
  if (inst.has_short_member()) ++b.row.short_instances;
  std::size_t timed = 0;
  bool stale = false;
  for (const auto& m : inst.members) {
    b.row.channels = std::max(b.row.channels, m.channels);
    stale = stale || m.stale;
    if (!m.timed) continue;
    ++timed;
    b.rank_times[m.rank].push_back(static_cast<double>(m.duration_ns()));
    if (m.kernel_phases) {
      b.rank_compute[m.rank].push_back(static_cast<double>(m.kernel_phases->compute_ns()));
    }
  }
  if (timed > 0) ++b.row.timed_instances;
  if (inst.not_sampled()) ++b.row.not_sampled_instances;
  if (stale) ++b.row.stale_instances;
  if (const auto t = true_time_ns(comm, inst)) b.true_times.push_back(static_cast<double>(*t));
}

BandwidthRow finish(RowBuilder& b) {
  BandwidthRow row = std::move(b.row);
  std::vector<double> medians;
  std::vector<double> period_medians;
  for (auto& [rank, times] : b.rank_times) {
    RankMedian m{rank, times.size(), median(times)};
    const auto periods = b.rank_periods.find(rank);
    if (periods != b.rank_periods.end()) {
      const RankPeriod& p = periods->second;
      m.period_pairs = p.pairs.size();
      m.period_ns = p.period_ns;
      m.period_median_ns = median(p.pairs);
      row.period_pairs += m.period_pairs;
      period_medians.push_back(m.period_ns);
    }
    row.ranks.push_back(m);
    medians.push_back(m.median_ns);
  }
  row.time_ns = mean_of_rank_medians(medians);
  if (!period_medians.empty()) row.period_ns = mean_of_rank_medians(period_medians);
  if (!b.rank_compute.empty()) {
    std::vector<double> compute_medians;
    for (auto& [rank, times] : b.rank_compute) compute_medians.push_back(median(times));
    row.compute_ns = mean_of_rank_medians(compute_medians);
  }
  row.true_instances = b.true_times.size();
  if (!b.true_times.empty()) row.true_time_ns = median(b.true_times);
  if (bus_factor(row.func, row.nranks)) {
    const auto s = static_cast<double>(row.bytes);
    const auto busbw = [&](double ns) { return busbw_gbps(row.func, row.nranks, s, ns); };
    row.algbw_gbps = algbw_gbps(s, row.time_ns);
    row.busbw_gbps = busbw(row.time_ns);
    if (row.true_time_ns) {
      row.true_algbw_gbps = algbw_gbps(s, *row.true_time_ns);
      row.true_busbw_gbps = busbw(*row.true_time_ns);
    }
    if (row.period_ns) {
      row.period_algbw_gbps = algbw_gbps(s, *row.period_ns);
      row.period_busbw_gbps = busbw(*row.period_ns);
    }
    if (row.compute_ns) row.compute_busbw_gbps = busbw(*row.compute_ns);
  }
  return row;
}

bool selected(std::string_view coll, const RunInstance& inst) {
  return coll == "all" || coll == coll_key(parse_nccl_func(inst.func));
}

}  // namespace

std::vector<std::string> BandwidthRow::flags() const {
  std::vector<std::string> out;
  const std::uint64_t sampled = instances - std::min(not_sampled_instances, instances);
  if (not_sampled_instances > 0) {
    out.push_back(sampled == 0
                      ? "none sampled"
                      : "sampled " + std::to_string(sampled) + " of " + std::to_string(instances));
  }
  if (sampled > 0 &&
      static_cast<double>(timed_instances) < kTimedFloor * static_cast<double>(sampled)) {
    out.push_back(timed_instances == 0 ? "untimed" : "few timed");
  }
  if (stale_instances > 0) out.push_back(std::to_string(stale_instances) + " stale");
  if (host_disagree_instances > 0) {
    out.push_back(std::to_string(host_disagree_instances) + " host-disagree");
  }
  if (short_instances > 0) out.push_back(std::to_string(short_instances) + " short");
  return out;
}

std::vector<BandwidthRow> bandwidth_rows(const Run& run, std::string_view coll) {
  std::map<RowKey, RowBuilder> builders;
  for (const auto& comm : run.comms) {
    // Without start times there is neither a true time nor a back-to-back period.
    const bool starts = comm.no_start_times.empty();
    std::vector<RowKey> keys;
    keys.reserve(comm.instances.size());
    for (const auto& inst : comm.instances) {
      keys.push_back(row_key(comm, inst));
      if (inst.members.empty() || !selected(coll, inst)) continue;
      auto [it, inserted] = builders.try_emplace(keys.back());
      RowBuilder& b = it->second;
      if (inserted) {
        b.row.comm_hash = comm.hash;
        b.row.nranks = comm.nranks;
        b.row.func = inst.func;
        b.row.bytes = inst.bytes;
        b.row.count = inst.count;
        b.row.type = inst.type;
        b.row.algo = inst.algo;
        b.row.proto = inst.proto;
      }
      add_instance(comm, inst, b);
    }
    if (starts) add_periods(comm, keys, builders);
  }
  std::vector<BandwidthRow> rows;
  for (auto& [key, b] : builders) rows.push_back(finish(b));
  return rows;
}

std::vector<LatencyBucket> latency_distributions(const Run& run) {
  using Key = std::tuple<std::uint64_t, std::string, std::string, std::string, std::uint64_t>;
  std::map<Key, std::vector<double>> samples;
  for (const auto& comm : run.comms) {
    for (const auto& inst : comm.instances) {
      if (inst.is_pair() || inst.members.empty()) continue;
      const std::uint64_t bucket = inst.bytes == 0 ? 0 : std::bit_floor(inst.bytes);
      auto& v = samples[{comm.hash, inst.func, inst.algo, inst.proto, bucket}];
      for (const auto& m : inst.members) {
        if (m.timed) v.push_back(static_cast<double>(m.duration_ns()));
      }
    }
  }
  std::vector<LatencyBucket> out;
  for (auto& [key, v] : samples) {
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    LatencyBucket b;
    std::tie(b.comm_hash, b.func, b.algo, b.proto, b.bucket_bytes) = key;
    b.count = v.size();
    b.min_ns = v.front();
    b.p10_ns = sorted_quantile(v, 0.1);
    b.p50_ns = sorted_quantile(v, 0.5);
    b.p90_ns = sorted_quantile(v, 0.9);
    b.p99_ns = sorted_quantile(v, 0.99);
    b.max_ns = v.back();
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<SwitchPoint> switch_points(const std::vector<BandwidthRow>& rows) {
  std::vector<SwitchPoint> out;
  const BandwidthRow* prev = nullptr;  // the choice at the previous size
  for (std::size_t i = 0; i < rows.size();) {
    // Rows of one (comm, func, bytes): pick the choice with the most instances.
    std::size_t j = i;
    const BandwidthRow* choice = &rows[i];
    while (j < rows.size() && rows[j].comm_hash == rows[i].comm_hash &&
           rows[j].func == rows[i].func && rows[j].bytes == rows[i].bytes) {
      if (rows[j].instances > choice->instances) choice = &rows[j];
      ++j;
    }
    if (choice->algo.empty()) {
      prev = nullptr;
    } else {
      if (prev != nullptr && prev->comm_hash == choice->comm_hash && prev->func == choice->func &&
          (prev->algo != choice->algo || prev->proto != choice->proto)) {
        out.push_back({choice->comm_hash, choice->func, prev->bytes, choice->bytes, prev->algo,
                       prev->proto, choice->algo, choice->proto, prev->busbw_gbps,
                       choice->busbw_gbps});
      }
      prev = choice;
    }
    i = j;
  }
  return out;
}

}  // namespace npkit

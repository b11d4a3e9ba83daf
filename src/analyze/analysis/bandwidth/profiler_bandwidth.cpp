#include "analysis/bandwidth/profiler_bandwidth.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <tuple>

#include "run/nccl_tests_convention.hpp"
#include "util/quantiles.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr std::array<std::string_view, 8> kColls = {"all",           "allreduce", "allgather",
                                                    "reducescatter", "alltoall",  "broadcast",
                                                    "reduce",        "sendrecv"};

using RowKey = std::tuple<std::uint64_t, std::string, std::uint64_t, std::string, std::string,
                          std::string>;  // comm, func, bytes, algo, proto, type

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, 0.5);
}

struct RowBuilder {
  ProfilerBandwidthRow row;
  std::map<std::int32_t, std::vector<double>> rank_times;
  std::map<std::int32_t, std::vector<double>> rank_periods;
  std::vector<double> true_times;
};

RowKey row_key(const Communicator& comm, const CollectiveInstance& inst) {
  const ProfilerCollective& first = *inst.members.front().op;
  return {comm.comm_hash,
          std::string(inst.func_name),
          first.bytes,
          inst.is_pair() ? "" : std::string(first.algo),
          inst.is_pair() ? "" : std::string(first.proto),
          std::string(first.type)};
}

// nccl-tests' count(elements) of a row (see the contract).
std::uint64_t nccl_tests_count(NcclFunc func, std::uint64_t bytes, std::string_view type,
                               std::int32_t nranks) {
  std::uint64_t per = nccl_datatype_size(type);
  if (func == NcclFunc::kAllGather || func == NcclFunc::kReduceScatter ||
      func == NcclFunc::kAllToAll) {
    per *= static_cast<std::uint64_t>(std::max(nranks, 1));
  }
  return per == 0 ? 0 : bytes / per;
}

// Back-to-back period samples of every rank of `comm`, into the builders of their rows.
void add_periods(const Communicator& comm, std::map<RowKey, RowBuilder>& builders) {
  // Every operation's row (selected or not) and whether it is part of a Send/Recv pair.
  std::map<const ProfilerCollective*, std::pair<RowKey, bool>> rows;
  for (const auto& inst : comm.instances) {
    if (inst.members.empty()) continue;
    const RowKey key = row_key(comm, inst);
    for (const auto& m : inst.members) rows.emplace(m.op, std::make_pair(key, inst.is_pair()));
  }
  for (const RankCapture* r : comm.ranks) {
    std::vector<const ProfilerCollective*> stream;
    for (const auto& op : r->collectives) {
      if (!op.in_alltoall) stream.push_back(&op);
    }
    for (const auto& op : r->alltoall.alltoalls) stream.push_back(&op);
    std::stable_sort(stream.begin(), stream.end(), [](const auto* a, const auto* b) {
      return a->host_start_ns < b->host_start_ns;
    });
    // Per row: every pair, and the pairs whose second operation was called before the first's
    // GPU stop (launched back to back, not after a synchronisation).
    std::map<RowKey, std::pair<std::vector<double>, std::vector<double>>> pairs;
    for (std::size_t i = 1; i < stream.size(); ++i) {
      const ProfilerCollective* a = stream[i - 1];
      const ProfilerCollective* b = stream[i];
      const auto ra = rows.find(a);
      const auto rb = rows.find(b);
      if (ra == rows.end() || rb == rows.end() || ra->second.second) continue;
      if (ra->second.first != rb->second.first || !a->has_gpu_span || !b->has_gpu_span) continue;
      if (a->group_api != kNoEvent && a->group_api == b->group_api) continue;
      auto& [all, queued] = pairs[ra->second.first];
      const auto period = static_cast<double>(sat_sub(b->gpu_start_ns, a->gpu_start_ns));
      all.push_back(period);
      if (b->api_start_ns < a->gpu_stop_ns) queued.push_back(period);
    }
    for (auto& [key, samples] : pairs) {
      const auto it = builders.find(key);
      if (it == builders.end()) continue;
      auto& [all, queued] = samples;
      it->second.rank_periods[r->rank()] = queued.empty() ? std::move(all) : std::move(queued);
    }
  }
}

void add_instance(const Communicator& comm, const CollectiveInstance& inst, RowBuilder& b) {
  ++b.row.instances;
  for (const auto& m : inst.members) {
    b.row.channels = std::max<std::uint32_t>(b.row.channels, m.op->n_channels);
  }
  bool timed = false;
  std::int64_t last_start = INT64_MIN;
  std::int64_t last_stop = INT64_MIN;
  std::size_t spans = 0;
  for (const auto& m : inst.members) {
    if (!m.op->has_gpu_span) continue;
    timed = true;
    ++spans;
    b.rank_times[m.rank].push_back(static_cast<double>(m.op->gpu_duration_ns()));
    last_start = std::max(last_start, m.op->gpu_start_ns);
    last_stop = std::max(last_stop, m.op->gpu_stop_ns);
  }
  if (!timed) ++b.row.untimed_instances;
  const std::size_t needed = inst.is_pair() ? 2 : static_cast<std::size_t>(comm.nranks);
  if (spans == needed && inst.missing_ranks.empty()) {
    b.true_times.push_back(static_cast<double>(sat_sub(last_stop, last_start)));
  }
}

ProfilerBandwidthRow finish(RowBuilder& b) {
  ProfilerBandwidthRow row = std::move(b.row);
  double sum = 0;
  double period_sum = 0;
  std::size_t period_ranks = 0;
  for (auto& [rank, times] : b.rank_times) {
    RankMedian m{rank, times.size(), median(times)};
    const auto periods = b.rank_periods.find(rank);
    if (periods != b.rank_periods.end()) {
      m.period_pairs = periods->second.size();
      m.period_median_ns = median(periods->second);
      row.period_pairs += m.period_pairs;
      period_sum += m.period_median_ns;
      ++period_ranks;
    }
    row.ranks.push_back(m);
    sum += m.median_ns;
  }
  if (!row.ranks.empty()) row.time_ns = sum / static_cast<double>(row.ranks.size());
  if (period_ranks > 0) row.period_ns = period_sum / static_cast<double>(period_ranks);
  row.true_instances = b.true_times.size();
  if (!b.true_times.empty()) row.true_time_ns = median(b.true_times);
  const auto conv = nccl_tests_convention(coll_key(parse_nccl_func(row.func)),
                                          static_cast<std::uint32_t>(std::max(row.nranks, 0)));
  if (conv) {
    const auto s = static_cast<double>(row.bytes);
    row.algbw_gbps = gb_per_s(s, row.time_ns);
    row.busbw_gbps = row.algbw_gbps * conv->factor;
    if (row.true_time_ns) {
      row.true_algbw_gbps = gb_per_s(s, *row.true_time_ns);
      row.true_busbw_gbps = row.true_algbw_gbps * conv->factor;
    }
    if (row.period_ns) {
      row.period_algbw_gbps = gb_per_s(s, *row.period_ns);
      row.period_busbw_gbps = row.period_algbw_gbps * conv->factor;
    }
  }
  return row;
}

bool selected(std::string_view coll, const CollectiveInstance& inst) {
  if (coll == "all") return true;
  return coll == (inst.is_pair() ? std::string_view("sendrecv") : coll_key(inst.func));
}

}  // namespace

bool valid_profiler_coll(std::string_view coll) {
  return std::find(kColls.begin(), kColls.end(), coll) != kColls.end();
}

std::string profiler_coll_list() {
  std::string s;
  for (auto c : kColls) s += (s.empty() ? "" : ", ") + std::string(c);
  return s;
}

std::vector<ProfilerBandwidthRow> bandwidth_rows(const std::vector<Communicator>& comms,
                                                 std::string_view coll) {
  std::map<RowKey, RowBuilder> builders;
  for (const auto& comm : comms) {
    for (const auto& inst : comm.instances) {
      if (inst.members.empty() || !selected(coll, inst)) continue;
      const ProfilerCollective& first = *inst.members.front().op;
      const RowKey key = row_key(comm, inst);
      auto [it, inserted] = builders.try_emplace(key);
      RowBuilder& b = it->second;
      if (inserted) {
        b.row.comm_hash = comm.comm_hash;
        b.row.nranks = comm.nranks;
        b.row.func = std::get<1>(key);
        b.row.bytes = first.bytes;
        b.row.type = std::string(first.type);
        b.row.algo = std::get<3>(key);
        b.row.proto = std::get<4>(key);
        b.row.count = nccl_tests_count(inst.is_pair() ? NcclFunc::kSendRecv : inst.func,
                                       first.bytes, first.type, comm.nranks);
      }
      add_instance(comm, inst, b);
    }
    add_periods(comm, builders);
  }
  std::vector<ProfilerBandwidthRow> rows;
  for (auto& [key, b] : builders) rows.push_back(finish(b));
  return rows;
}

std::vector<LatencyBucket> latency_distributions(const std::vector<Communicator>& comms) {
  using Key = std::tuple<std::uint64_t, std::string, std::string, std::string, std::uint64_t>;
  std::map<Key, std::vector<double>> samples;
  for (const auto& comm : comms) {
    for (const auto& inst : comm.instances) {
      if (inst.is_pair() || inst.members.empty()) continue;
      const ProfilerCollective& first = *inst.members.front().op;
      const std::uint64_t bucket = first.bytes == 0 ? 0 : std::bit_floor(first.bytes);
      auto& v = samples[{comm.comm_hash, std::string(inst.func_name), std::string(first.algo),
                         std::string(first.proto), bucket}];
      for (const auto& m : inst.members) {
        if (m.op->has_gpu_span) v.push_back(static_cast<double>(m.op->gpu_duration_ns()));
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

std::vector<SwitchPoint> switch_points(const std::vector<ProfilerBandwidthRow>& rows) {
  std::vector<SwitchPoint> out;
  const ProfilerBandwidthRow* prev = nullptr;  // the choice at the previous size
  for (std::size_t i = 0; i < rows.size();) {
    // Rows of one (comm, func, bytes): pick the choice with the most instances.
    std::size_t j = i;
    const ProfilerBandwidthRow* choice = &rows[i];
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

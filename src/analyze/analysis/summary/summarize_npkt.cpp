#include "analysis/summary/summarize_npkt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/proxy/proxy_step_breakdown.hpp"
#include "run/summary/saturating_count.hpp"
#include "run/summary/size_bucket.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr std::string_view kEnvPrefix = "env.";

void add_config(const RankCapture& c, RunConfig& config) {
  const ingest::NpktDump& d = c.dump;
  auto add_if = [](std::set<std::string>& set, const std::string& v) {
    if (!v.empty()) set.insert(v);
  };
  add_if(config.nccl_versions, d.meta("nccl.version"));
  add_if(config.gpus, d.meta("gpu.name"));
  add_if(config.hosts, d.meta("hostname"));
  for (const char* key : {"capture.events", "capture.buffer_size_mb", "capture.plugin_version"}) {
    if (!d.meta(key).empty()) config.capture[key].insert(d.meta(key));
  }
  config.capture["profiler_api"].insert(std::to_string(d.comm.profiler_api));
  for (const auto& [key, value] : d.metadata) {
    if (key.size() > kEnvPrefix.size() && key.compare(0, kEnvPrefix.size(), kEnvPrefix) == 0) {
      config.env[key.substr(kEnvPrefix.size())].insert(value);
    }
  }
  CommunicatorRanks& comm = config.communicators[fmt::format("{:016x}", d.comm.comm_hash)];
  comm.nranks = std::max(comm.nranks, d.comm.nranks);
  if (d.comm.rank >= 0) comm.ranks.insert(d.comm.rank);
  ++config.files;
}

// What one joined instance contributes to a collective row.
struct InstanceRow {
  std::string func;
  std::uint64_t bytes = 0;
  std::string algo;
  std::string proto;
};

InstanceRow instance_row(const CollectiveInstance& inst) {
  const ProfilerCollective& op = *inst.members.front().op;
  if (inst.is_pair()) return {"SendRecv", op.bytes, "", ""};
  if (op.event == kNoEvent) return {std::string(inst.func_name), op.bytes, "", ""};
  return {std::string(op.func_name), op.bytes, std::string(op.algo), std::string(op.proto)};
}

void add_sync(const Communicator& comm, const CollectiveInstance& inst,
              std::map<std::pair<std::int32_t, std::int32_t>, SyncRank>& sync) {
  if (inst.is_pair()) return;
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::size_t timed = 0;
  for (const auto& m : inst.members) {
    if (!m.op->has_gpu_span) continue;
    first = timed == 0 ? m.op->gpu_start_ns : std::min(first, m.op->gpu_start_ns);
    last = timed == 0 ? m.op->gpu_start_ns : std::max(last, m.op->gpu_start_ns);
    ++timed;
  }
  if (timed < 2) return;
  for (const auto& m : inst.members) {
    if (!m.op->has_gpu_span) continue;
    SyncRank& s = sync[{comm.nranks, m.rank}];
    s.nranks = comm.nranks;
    s.rank = m.rank;
    ++s.instances;
    if (m.op->gpu_start_ns == last) ++s.arrived_last;
    s.skew_ns.add(sat_sub(m.op->gpu_start_ns, first));
  }
}

using PhaseRanks = std::map<PhaseKey, std::map<std::int32_t, RankPhase>>;

void add_proxy_phases(const RankCapture& c, PhaseRanks& phases) {
  const ProxyStepBreakdown b = proxy_step_breakdown(c);
  if (b.steps == b.steps_never_stopped) return;
  const std::uint64_t stopped = b.steps - b.steps_never_stopped;
  auto add = [&](const char* phase, std::int64_t ns, std::uint64_t count) {
    RankPhase& r = phases[PhaseKey{"proxy", "net", phase}][c.rank()];
    r.rank = c.rank();
    r.ns = sat_add(r.ns, ns);
    r.reference_ns = sat_add(r.reference_ns, b.step_ns);
    r.count = sat_add_count(r.count, count);
  };
  add("net_send", b.net_send_ns, stopped);
  add("net_recv", b.net_recv_ns, stopped);
  add("sync", b.sync_ns, stopped);
  add("other", b.other_ns, stopped);
  if (b.ring_allreduce_steps > 0) {
    add("reduce_scatter", b.reduce_scatter_ns, b.ring_allreduce_steps);
    add("all_gather", b.all_gather_ns, b.ring_allreduce_steps);
  }
}

}  // namespace

RunSummary summarize_npkt(const std::string& input, const std::vector<const RankCapture*>& files,
                          const std::vector<Communicator>& comms) {
  RunSummary s;
  s.inputs.push_back(input);
  s.config.formats.insert("npkt");
  PhaseRanks phases;
  for (const RankCapture* c : files) {
    add_config(*c, s.config);
    if (c->rank() >= 0) add_proxy_phases(*c, phases);
  }

  SizeBuckets buckets;
  for (const auto& comm : comms) {
    for (const auto& inst : comm.instances) {
      if (inst.members.empty()) continue;
      const InstanceRow ir = instance_row(inst);
      buckets.see(ir.func, ir.bytes);
    }
  }
  std::map<CollectiveKey, CollectiveRow> rows;
  std::map<std::pair<std::int32_t, std::int32_t>, SyncRank> sync;
  for (const auto& comm : comms) {
    for (const auto& inst : comm.instances) {
      if (inst.members.empty()) continue;
      const InstanceRow ir = instance_row(inst);
      CollectiveKey key{ir.func, comm.nranks, 0, SizeKind::kExact, ir.algo, ir.proto};
      buckets.assign(ir.func, ir.bytes, key);
      CollectiveRow& row = rows[key];
      row.key = key;
      ++row.instances;
      row.bytes_sum = sat_add_count(row.bytes_sum, ir.bytes);
      bool timed = false;
      for (const auto& m : inst.members) {
        if (!m.op->has_gpu_span) continue;
        timed = true;
        row.rank_sample(m.rank).add(m.op->gpu_duration_ns());
      }
      if (!timed) ++row.untimed_instances;
      add_sync(comm, inst, sync);
    }
  }
  for (auto& [key, row] : rows) s.collectives.push_back(std::move(row));
  for (auto& [key, ranks] : phases) {
    PhaseRow& row = s.phases.emplace_back(PhaseRow{key, {}});
    for (auto& [rank, r] : ranks) row.ranks.push_back(std::move(r));
  }
  for (auto& [key, r] : sync) s.sync.push_back(std::move(r));
  return s;
}

}  // namespace npkit

#include "analysis/summary/summarize_run.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/align/host_offsets.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "run/kernel_phases.hpp"
#include "run/measures.hpp"
#include "run/summary/saturating_count.hpp"
#include "run/summary/size_bucket.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

using SyncRows = std::map<std::pair<std::int32_t, std::int32_t>, SyncRank>;
using PhaseRows = std::map<PhaseKey, std::map<std::int32_t, RankPhase>>;

void add_communicators(const Run& run, RunConfig& config) {
  for (const auto& comm : run.comms) {
    CommunicatorRanks& c = config.communicators[communicator_key(comm.hash)];
    c.nranks = std::max(c.nranks, comm.nranks);
    for (const auto& r : comm.ranks) c.ranks.insert(r.rank);
  }
}

// The host offsets of a communicator whose ranks are on several clocks (none on one clock).
HostAlignment alignment_of(const RunCommunicator& comm) {
  if (comm.one_clock() || !comm.no_start_times.empty()) return HostAlignment{};
  return estimate_host_offsets(cross_rank_input(comm));
}

void add_sync(const RunCommunicator& comm, const RunInstance& inst, const HostAlignment& alignment,
              SyncRows& sync) {
  if (inst.is_pair() || inst.timed_members() < 2 || !comm.no_start_times.empty()) return;
  std::int64_t first = INT64_MAX;
  std::int64_t last = INT64_MIN;
  for (const auto& m : inst.members) {
    if (!m.timed) continue;
    const std::int64_t start = alignment.aligned(m.rank, m.start_ns);
    first = std::min(first, start);
    last = std::max(last, start);
  }
  for (const auto& m : inst.members) {
    if (!m.timed) continue;
    const std::int64_t start = alignment.aligned(m.rank, m.start_ns);
    SyncRank& s = sync[{comm.nranks, m.rank}];
    s.nranks = comm.nranks;
    s.rank = m.rank;
    ++s.instances;
    if (start == last) ++s.arrived_last;
    s.skew_ns.add(arrival_lag_ns(first, start));
  }
}

// A driver's rows (contract in the header): its out-of-place times, as rank 0's sample.
void add_driver_rows(const DriverResults& driver, SizeBuckets& buckets,
                     std::map<CollectiveKey, CollectiveRow>& rows) {
  for (const auto& r : driver.rows) buckets.see(r.func, r.bytes);
  for (const auto& r : driver.rows) {
    CollectiveKey key{r.func, driver.nranks, 0, SizeKind::kExact, "", ""};
    buckets.assign(r.func, r.bytes, key);
    CollectiveRow& row = rows[key];
    row.key = key;
    ++row.instances;
    row.bytes_sum = sat_add_count(row.bytes_sum, r.bytes);
    if (!r.out_of_place) {
      ++row.untimed_instances;
      continue;
    }
    const DriverTiming& t = *r.out_of_place;
    DurationSample& sample = row.rank_sample(0);
    if (t.iteration_ns.empty()) {
      sample.add(std::llround(t.time_ns));
      continue;
    }
    for (std::size_t i = std::min<std::size_t>(t.skipped_iterations, t.iteration_ns.size() - 1);
         i < t.iteration_ns.size(); ++i) {
      sample.add(std::llround(t.iteration_ns[i]));
    }
  }
}

void add_collectives(const Run& run, RunSummary& s) {
  SizeBuckets buckets;
  for (const auto& comm : run.comms) {
    for (const auto& inst : comm.instances) {
      if (!inst.members.empty()) buckets.see(inst.func, inst.bytes);
    }
  }
  std::map<CollectiveKey, CollectiveRow> rows;
  SyncRows sync;
  for (const auto& comm : run.comms) {
    const HostAlignment alignment = alignment_of(comm);
    for (const auto& inst : comm.instances) {
      if (inst.members.empty()) continue;
      CollectiveKey key{inst.func, comm.nranks, 0,       SizeKind::kExact,
                        inst.algo, inst.proto,  inst.tag};
      buckets.assign(inst.func, inst.bytes, key);
      CollectiveRow& row = rows[key];
      row.key = key;
      ++row.instances;
      row.bytes_sum = sat_add_count(row.bytes_sum, inst.bytes);
      for (const auto& m : inst.members) {
        if (inst.clean(m)) row.rank_sample(m.rank).add(m.duration_ns());
      }
      if (inst.timed_members() == 0) ++row.untimed_instances;
      if (inst.not_sampled()) ++row.not_sampled_instances;
      if (inst.timed_members() > 0 && (inst.host_disagree || inst.has_short_member())) {
        ++row.flagged_instances;
        if (inst.host_disagree) ++row.host_disagree_instances;
        if (inst.has_short_member()) ++row.short_instances;
      }
      if (std::any_of(inst.members.begin(), inst.members.end(),
                      [](const RunMember& m) { return m.stale; })) {
        ++row.stale_instances;
      }
      if (comm.collectives_incomplete()) ++row.incomplete_instances;
      add_sync(comm, inst, alignment, sync);
    }
  }
  add_driver_rows(run.driver, buckets, rows);
  for (auto& [key, row] : rows) s.collectives.push_back(std::move(row));
  for (auto& [key, r] : sync) s.sync.push_back(std::move(r));
}

void add_span_phases(const SummarySpanSink& spans, PhaseRows& rows) {
  for (const auto& r : spans.breakdown().ranks()) {
    for (const bool gpu : {true, false}) {
      const auto& totals = gpu ? r.gpu : r.cpu;
      for (std::size_t p = 0; p < totals.size(); ++p) {
        const PhaseTotal& t = totals[p];
        const auto sample = spans.span_ns().find({r.rank, gpu, static_cast<std::uint16_t>(p)});
        if (t.ns == 0 && t.count == 0 && sample == spans.span_ns().end()) continue;
        const auto rank = static_cast<std::int32_t>(r.rank);
        rows[PhaseKey{"spans", gpu ? "gpu" : "cpu", spans.phases().phase_names[p]}][rank] =
            RankPhase{rank, t.ns, gpu ? r.gpu_reference_ns : r.cpu_reference_ns, t.count,
                      sample == spans.span_ns().end() ? DurationSample{} : sample->second};
      }
    }
  }
}

void add_proxy_phases(const RunRank& r, PhaseRows& rows) {
  if (!r.proxy || r.proxy->steps == r.proxy->steps_never_stopped) return;
  const ProxyStepBreakdown& b = *r.proxy;
  const std::uint64_t stopped = b.steps - b.steps_never_stopped;
  auto add = [&](const char* phase, std::int64_t ns, std::uint64_t count) {
    RankPhase& p = rows[PhaseKey{"proxy", "net", phase}][r.rank];
    p.rank = r.rank;
    p.ns = sat_add(p.ns, ns);
    p.reference_ns = sat_add(p.reference_ns, b.step_ns);
    p.count = sat_add_count(p.count, count);
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

// NCCL's kernel phases (run/kernel_phases.hpp) of every timed member that has them.
void add_kernel_phases(const RunCommunicator& comm, PhaseRows& rows) {
  for (const auto& inst : comm.instances) {
    for (const auto& m : inst.members) {
      if (!m.timed || !m.kernel_phases) continue;
      for (std::size_t p = 0; p < kKernelPhaseCount; ++p) {
        RankPhase& r = rows[PhaseKey{"kernel", "gpu", std::string(kKernelPhaseNames[p])}][m.rank];
        r.rank = m.rank;
        r.ns = sat_add(r.ns, m.kernel_phases->ns[p]);
        r.reference_ns = sat_add(r.reference_ns, m.duration_ns());
        r.count = sat_add_count(r.count, 1);
        r.span_ns.add(m.kernel_phases->ns[p]);
      }
    }
  }
}

}  // namespace

SummarySpanSink::SummarySpanSink(const PhaseAssignment& phases)
    : phases_(phases), breakdown_(phases) {}

void SummarySpanSink::begin_track(const TrackFile& file, TimeDomain domain) {
  breakdown_.begin_track(file, domain);
}

void SummarySpanSink::on_span(const Span& span) {
  breakdown_.on_span(span);
  const bool gpu = span.track.kind == TrackKind::kGpu;
  span_ns_[{span.track.rank, gpu, span.phase}].add(sat_sub(span.duration_ns(), span.child_ns));
}

void SummarySpanSink::merge(const SummarySpanSink& other) {
  breakdown_.merge(other.breakdown_);
  for (const auto& [key, sample] : other.span_ns_) span_ns_[key].merge(sample);
}

RunSummary summarize_run(const Run& run, const SummarySpanSink& spans) {
  RunSummary s;
  s.inputs.push_back(run.label.empty() ? run.path : run.label);
  s.config = run.config;
  add_communicators(run, s.config);
  add_collectives(run, s);
  PhaseRows phases;
  add_span_phases(spans, phases);
  for (const auto& comm : run.comms) {
    for (const auto& r : comm.ranks) add_proxy_phases(r, phases);
    add_kernel_phases(comm, phases);
  }
  for (auto& [key, ranks] : phases) {
    PhaseRow& row = s.phases.emplace_back(PhaseRow{key, {}});
    for (auto& [rank, r] : ranks) row.ranks.push_back(std::move(r));
  }
  return s;
}

}  // namespace npkit

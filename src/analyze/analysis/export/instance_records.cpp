#include "analysis/export/instance_records.hpp"

#include "analysis/align/host_offsets.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "run/measures.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit {
namespace {

InstanceRecord record_of(const RunCommunicator& comm, const RunInstance& inst,
                         const HostAlignment& alignment) {
  InstanceRecord r;
  r.comm_hash = comm.hash;
  r.scope = comm.scope;
  r.nranks = comm.nranks;
  r.starts = comm.no_start_times.empty();
  r.clock = r.starts ? alignment.status_name() : "no start times";
  r.instance = &inst;
  double sum = 0;
  for (const auto& m : inst.members) {
    MemberRecord mr;
    mr.rank = m.rank;
    for (const auto& rank : comm.ranks) {
      if (rank.rank == m.rank) mr.host = rank.host;
    }
    mr.timed = m.timed;
    mr.stale = m.stale;
    mr.not_sampled = m.not_sampled;
    mr.implausibly_short = m.implausibly_short;
    mr.channels = m.channels;
    mr.kernel_phases = m.kernel_phases;
    if (m.timed) {
      mr.start_ns = alignment.aligned(m.rank, m.start_ns);
      mr.end_ns = alignment.aligned(m.rank, m.end_ns);
      sum += static_cast<double>(m.duration_ns());
      ++r.timed;
    }
    r.members.push_back(std::move(mr));
  }
  const bool defined = bus_factor(inst.func, comm.nranks).has_value();
  const auto s = static_cast<double>(inst.bytes);
  if (r.timed > 0) {
    r.time_ns = sum / static_cast<double>(r.timed);
    if (defined) {
      r.algbw_gbps = algbw_gbps(s, *r.time_ns);
      r.busbw_gbps = busbw_gbps(inst.func, comm.nranks, s, *r.time_ns);
    }
  }
  r.true_time_ns = true_time_ns(comm, inst);
  if (r.true_time_ns && defined) {
    const auto t = static_cast<double>(*r.true_time_ns);
    r.true_algbw_gbps = algbw_gbps(s, t);
    r.true_busbw_gbps = busbw_gbps(inst.func, comm.nranks, s, t);
  }
  return r;
}

}  // namespace

std::vector<InstanceRecord> instance_records(const Run& run, std::string_view coll) {
  std::vector<InstanceRecord> out;
  for (const auto& comm : run.comms) {
    const HostAlignment alignment = estimate_host_offsets(cross_rank_input(comm));
    for (const auto& inst : comm.instances) {
      if (!coll_selects(coll, coll_key(parse_nccl_func(inst.func)))) continue;
      out.push_back(record_of(comm, inst, alignment));
    }
  }
  return out;
}

}  // namespace npkit

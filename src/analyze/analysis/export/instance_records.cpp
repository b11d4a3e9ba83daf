#include "analysis/export/instance_records.hpp"

#include <algorithm>

#include "analysis/align/host_offsets.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit {
namespace {

InstanceRecord record_of(const RunCommunicator& comm, const RunInstance& inst,
                         const HostAlignment& alignment, bool comparable) {
  InstanceRecord r;
  r.comm_hash = comm.hash;
  r.scope = comm.scope;
  r.nranks = comm.nranks;
  r.starts = comm.no_start_times.empty();
  r.clock = r.starts ? alignment.status_name() : "no start times";
  r.instance = &inst;
  double sum = 0;
  std::int64_t last_start = INT64_MIN;
  std::int64_t last_end = INT64_MIN;
  for (const auto& m : inst.members) {
    MemberRecord mr;
    mr.rank = m.rank;
    for (const auto& rank : comm.ranks) {
      if (rank.rank == m.rank) mr.host = rank.host;
    }
    mr.timed = m.timed;
    mr.stale = m.stale;
    mr.channels = m.channels;
    mr.kernel_phases = m.kernel_phases;
    if (m.timed) {
      const auto offset = static_cast<std::int64_t>(alignment.offset_of(m.rank));
      mr.start_ns = sat_add(m.start_ns, offset);
      mr.end_ns = sat_add(m.end_ns, offset);
      sum += static_cast<double>(m.duration_ns());
      ++r.timed;
      last_start = std::max(last_start, m.start_ns);
      last_end = std::max(last_end, m.end_ns);
    }
    r.members.push_back(std::move(mr));
  }
  const auto conv = nccl_tests_convention(coll_key(parse_nccl_func(inst.func)),
                                          static_cast<std::uint32_t>(std::max(comm.nranks, 0)));
  const auto s = static_cast<double>(inst.bytes);
  if (r.timed > 0) {
    r.time_ns = sum / static_cast<double>(r.timed);
    if (conv) {
      r.algbw_gbps = gb_per_s(s, *r.time_ns);
      r.busbw_gbps = *r.algbw_gbps * conv->factor;
    }
  }
  const std::size_t needed = inst.is_pair() ? 2 : static_cast<std::size_t>(comm.nranks);
  if (comparable && r.timed == needed && inst.missing_ranks.empty()) {
    r.true_time_ns = sat_sub(last_end, last_start);
    if (conv) {
      r.true_algbw_gbps = gb_per_s(s, static_cast<double>(*r.true_time_ns));
      r.true_busbw_gbps = *r.true_algbw_gbps * conv->factor;
    }
  }
  return r;
}

}  // namespace

std::vector<InstanceRecord> instance_records(const Run& run, std::string_view coll) {
  std::vector<InstanceRecord> out;
  for (const auto& comm : run.comms) {
    const HostAlignment alignment = estimate_host_offsets(cross_rank_input(comm));
    const bool comparable = comm.one_clock() && comm.no_start_times.empty();
    for (const auto& inst : comm.instances) {
      if (!coll_selects(coll, coll_key(parse_nccl_func(inst.func)))) continue;
      out.push_back(record_of(comm, inst, alignment, comparable));
    }
  }
  return out;
}

}  // namespace npkit

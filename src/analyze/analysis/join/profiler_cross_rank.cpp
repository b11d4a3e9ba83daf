#include "analysis/join/profiler_cross_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/proxy/proxy_step_breakdown.hpp"

namespace npkit {
namespace {

constexpr std::size_t kNamedExamples = 3;

std::string instance_label(const CollectiveInstance& inst) {
  std::string s = fmt::format("{} seq {}", inst.func_name, inst.seq);
  if (inst.occurrence > 0) s += fmt::format(" (occurrence {})", inst.occurrence);
  return s;
}

bool members_agree(const CollectiveInstance& inst) {
  const ProfilerCollective& a = *inst.members.front().op;
  return std::all_of(inst.members.begin(), inst.members.end(), [&](const InstanceMember& m) {
    const ProfilerCollective& b = *m.op;
    return b.count == a.count && b.datatype == a.datatype && b.algo == a.algo && b.proto == a.proto;
  });
}

std::string member_values(const CollectiveInstance& inst) {
  std::string s;
  for (const auto& m : inst.members) {
    const ProfilerCollective& op = *m.op;
    s += fmt::format("{}rank {} count {} {} {}/{}", s.empty() ? "" : ", ", m.rank, op.count,
                     op.datatype, op.algo, op.proto);
  }
  return s;
}

void add_seq_jumps(const std::string& scope, const RankCapture& r, std::vector<JoinGap>& gaps) {
  std::map<std::string_view, std::vector<std::uint64_t>> seqs;
  for (const auto& op : r.collectives) {
    if (op.event == kNoEvent || is_p2p(op.func)) continue;
    seqs[op.func_name].push_back(op.seq);
  }
  for (auto& [func, list] : seqs) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    std::uint64_t missing = 0;
    std::string where;
    std::size_t named = 0;
    for (std::size_t i = 1; i < list.size(); ++i) {
      if (list[i] == list[i - 1] + 1) continue;
      missing += list[i] - list[i - 1] - 1;
      if (named++ < kNamedExamples) {
        where += fmt::format("{}{} -> {}", where.empty() ? "" : ", ", list[i - 1], list[i]);
      }
    }
    if (missing == 0) continue;
    gaps.push_back({scope, "seq jump",
                    fmt::format("rank {} {}: {} seq number(s) missing ({}{})", r.rank(), func,
                                missing, where, named > kNamedExamples ? ", ..." : "")});
  }
}

}  // namespace

CrossRankInput profiler_cross_rank_input(const Communicator& comm) {
  CrossRankInput in;
  in.scope = fmt::format("comm {:016x}", comm.comm_hash);
  in.time_source = "GPU span: first KernelCh start to last KernelCh stop, host clock";
  in.nranks = comm.nranks;
  in.hosts_known = !comm.ranks.empty();
  for (const RankCapture* r : comm.ranks) {
    RankInfo info;
    info.rank = r->rank();
    info.host = r->dump.meta("hostname");
    in.hosts_known = in.hosts_known && !info.host.empty();
    const ProxyStepBreakdown steps = proxy_step_breakdown(*r);
    if (steps.steps > 0) {
      info.reference_ns = steps.step_ns;
      info.phases = {{"net_send", steps.net_send_ns},
                     {"net_recv", steps.net_recv_ns},
                     {"sync", steps.sync_ns},
                     {"other", steps.other_ns}};
      info.net =
          NetWait{steps.step_ns, steps.net_send_ns + steps.net_recv_ns, steps.sync_ns, steps.steps};
    }
    in.ranks.push_back(std::move(info));
    const auto& c = r->dump.comm;
    if (c.records_dropped > 0 || c.records_incomplete > 0) {
      in.gaps.push_back({in.scope, "dropped records",
                         fmt::format("rank {}: {} record(s) dropped (buffer full), {} incomplete; "
                                     "operations may lack events",
                                     r->rank(), c.records_dropped, c.records_incomplete)});
    }
    add_seq_jumps(in.scope, *r, in.gaps);
  }
  if (!in.hosts_known) {
    for (auto& r : in.ranks) r.host.clear();
  }
  if (!comm.absent_ranks.empty()) {
    std::string list;
    for (auto r : comm.absent_ranks) list += (list.empty() ? "" : ", ") + std::to_string(r);
    in.gaps.push_back(
        {in.scope, "absent ranks", fmt::format("no file for rank(s) {} of {}", list, comm.nranks)});
  }
  std::uint64_t missing = 0;
  std::string missing_examples;
  for (const auto& inst : comm.instances) {
    if (inst.is_pair() || inst.members.empty()) continue;
    if (!inst.missing_ranks.empty()) {
      if (missing++ < kNamedExamples) {
        std::string ranks;
        for (auto r : inst.missing_ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
        missing_examples += fmt::format("{}{} lacks rank {}", missing_examples.empty() ? "" : "; ",
                                        instance_label(inst), ranks);
      }
    }
    if (!members_agree(inst)) {
      in.gaps.push_back(
          {in.scope, "count mismatch",
           fmt::format("{}: {}; not used", instance_label(inst), member_values(inst))});
      continue;
    }
    JoinedInstance j;
    j.collective = std::string(inst.func_name);
    j.label = instance_label(inst);
    j.bytes = inst.members.front().op->bytes;
    for (const auto& m : inst.members) {
      if (!m.op->has_gpu_span) continue;
      j.ranks.push_back({m.rank, m.op->gpu_start_ns, m.op->gpu_stop_ns});
    }
    in.instances.push_back(std::move(j));
  }
  if (missing > 0) {
    in.gaps.push_back(
        {in.scope, "missing ranks",
         fmt::format("{} instance(s) lack ranks that have files ({}{}); analysed "
                     "with the ranks present",
                     missing, missing_examples, missing > kNamedExamples ? "; ..." : "")});
  }
  return in;
}

}  // namespace npkit

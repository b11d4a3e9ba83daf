#include "import/plugin_join/plugin_cross_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

struct Member {
  std::int32_t rank;
  const PluginColl* coll;
  const PluginRankTrace* trace;
};

using InstanceKey = std::tuple<std::string_view, std::uint64_t, std::uint32_t>;

// Per function, the SeqNum values of each rank's collectives.
void find_seq_gaps(PluginCommunicator& comm, Diagnostics& diagnostics, const SeqGapCauses& causes) {
  std::map<std::int32_t, SeqsByFunc> by_rank;
  for (const PluginRankTrace* t : comm.ranks) {
    if (t == nullptr) continue;
    SeqsByFunc& seqs = by_rank[t->rank];
    for (const auto& c : t->colls) seqs[t->name(c.func)].push_back(c.seq);
  }
  add_communicator_seq_gaps(comm.run, std::move(by_rank), causes, diagnostics);
}

MemberOperation operation_of(const Member& m) {
  return {m.rank,
          m.coll->count,
          m.coll->bytes,
          m.trace->name(m.coll->datatype),
          m.trace->name(m.coll->algo),
          m.trace->name(m.coll->proto)};
}

void join_comm(PluginCommunicator& comm, Diagnostics& diagnostics) {
  RunCommunicator& run = comm.run;
  std::map<InstanceKey, std::vector<Member>> joined;
  std::map<const PluginColl*, std::uint32_t> order;
  for (const PluginRankTrace* t : comm.ranks) {
    if (t == nullptr) continue;
    std::map<std::pair<std::string_view, std::uint64_t>, std::uint32_t> occurrences;
    std::uint32_t position = 0;  // in the trace, which lists its collectives in start order
    for (const auto& c : t->colls) {
      const std::string_view func = t->name(c.func);
      const std::uint32_t occ = occurrences[{func, c.seq}]++;
      joined[{func, c.seq, occ}].push_back(Member{t->rank, &c, t});
      order.emplace(&c, position++);
    }
  }
  const auto present = static_cast<std::size_t>(
      std::count_if(comm.ranks.begin(), comm.ranks.end(), [](auto* t) { return t != nullptr; }));
  for (const auto& [key, members] : joined) {
    const auto& [func, seq, occ] = key;
    RunInstance inst;
    inst.func = std::string(func);
    inst.seq = seq;
    inst.occurrence = occ;
    inst.label = fmt::format("{} seq {}", func, seq);
    if (occ > 0) inst.label += fmt::format(" (occurrence {})", occ);
    const Member& first = members.front();
    std::vector<MemberOperation> operations;
    for (const auto& m : members) operations.push_back(operation_of(m));
    inst.agree = operations_agree(operations);
    if (!inst.agree) add_count_mismatch(run, inst, operations);
    if (members.size() < present) {
      for (const PluginRankTrace* t : comm.ranks) {
        if (t == nullptr) continue;
        const bool held = std::any_of(members.begin(), members.end(),
                                      [&](const Member& m) { return m.rank == t->rank; });
        if (!held) inst.missing_ranks.push_back(t->rank);
      }
    }
    inst.type = first.trace->name(first.coll->datatype);
    inst.algo = first.trace->name(first.coll->algo);
    inst.proto = first.trace->name(first.coll->proto);
    const NcclFunc f = parse_nccl_func(func);
    const std::uint32_t element = nccl_datatype_size(inst.type);
    if (element == 0 && first.coll->bytes != 0) {
      inst.bytes = nccl_tests_bytes(f, first.coll->bytes, 1, comm.nranks);
    } else {
      inst.bytes = nccl_tests_bytes(f, first.coll->count, element, comm.nranks);
      inst.count = nccl_tests_count(f, inst.bytes, element, comm.nranks);
    }
    for (const auto& m : members) {
      RunMember member;
      member.rank = m.rank;
      member.timed = m.coll->end_ns != kNeverEnded;
      member.start_ns = m.coll->start_ns;
      member.end_ns = member.timed ? m.coll->end_ns : m.coll->start_ns;
      member.order = order.at(m.coll);
      member.channels = m.coll->channels;
      inst.members.push_back(member);
    }
    std::sort(inst.members.begin(), inst.members.end(),
              [](const RunMember& a, const RunMember& b) { return a.rank < b.rank; });
    run.instances.push_back(std::move(inst));
  }
  run.order_instances_by_start();
  add_rank_gaps(run, diagnostics);
}

}  // namespace

std::vector<PluginCommunicator> join_plugin_traces(const std::vector<PluginRankTrace>& traces,
                                                   const std::string& time_source,
                                                   Diagnostics& diagnostics,
                                                   const SeqGapCauses& causes) {
  std::map<std::uint64_t, PluginCommunicator> comms;
  for (const auto& t : traces) {
    if (t.rank < 0) continue;
    PluginCommunicator& c = comms[t.comm_hash];
    c.comm_hash = t.comm_hash;
    if (c.nranks != 0 && t.nranks != 0 && t.nranks != c.nranks) {
      warn_differing_sizes(diagnostics, t.path, t.comm_hash, t.nranks, c.nranks);
    }
    c.nranks = std::max(c.nranks, t.nranks);
    const auto r = static_cast<std::size_t>(t.rank);
    if (c.ranks.size() <= r) c.ranks.resize(r + 1, nullptr);
    if (c.ranks[r] != nullptr) {
      warn_duplicate_rank(diagnostics, t.path, t.comm_hash, t.rank, c.ranks[r]->path);
      continue;
    }
    c.ranks[r] = &t;
  }
  std::vector<PluginCommunicator> out;
  for (auto& [hash, comm] : comms) {
    if (comm.ranks.size() < static_cast<std::size_t>(comm.nranks)) {
      comm.ranks.resize(static_cast<std::size_t>(comm.nranks), nullptr);
    }
    comm.nranks = static_cast<std::int32_t>(comm.ranks.size());
    RunCommunicator& run = comm.run;
    run.hash = hash;
    run.scope = fmt::format("comm {:016x}", hash);
    run.time_source = time_source;
    run.nranks = comm.nranks;
    for (std::size_t r = 0; r < comm.ranks.size(); ++r) {
      const PluginRankTrace* t = comm.ranks[r];
      if (t == nullptr) {
        run.absent_ranks.push_back(static_cast<std::int32_t>(r));
        continue;
      }
      RunRank rank;
      rank.rank = t->rank;
      rank.host = t->host.empty() ? fmt::format("process {} (rank {})", t->pid, t->rank) : t->host;
      rank.clock = t->host.empty() ? "the process's own trace clock" : "the trace's common clock";
      run.ranks.push_back(std::move(rank));
    }
    find_seq_gaps(comm, diagnostics, causes);
    join_comm(comm, diagnostics);
    out.push_back(std::move(comm));
  }
  return out;
}

}  // namespace npkit

#include "import/chrome_json/plugin_cross_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "import/npkt/profiler_collectives.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"
#include "util/saturating.hpp"

namespace npkit::ingest {
namespace {

struct Member {
  std::int32_t rank;
  const PluginColl* coll;
  const PluginRankTrace* trace;
};

using InstanceKey = std::tuple<std::string_view, std::uint64_t, std::uint32_t>;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

// "5-7" or "5".
std::string seq_range(std::uint64_t first, std::uint64_t last) {
  return first == last ? std::to_string(first) : fmt::format("{}-{}", first, last);
}

void add_gap(CrossRankInput& input, std::string kind, std::string detail, std::uint64_t count,
             std::string_view category, Diagnostics& diagnostics) {
  diagnostics.warn(category, input.scope + ": " + detail, count);
  input.gaps.push_back(JoinGap{input.scope, std::move(kind), std::move(detail)});
}

// SeqNum values missing per rank and function.
void find_seq_gaps(PluginCommunicator& comm, Diagnostics& diagnostics) {
  for (const PluginRankTrace* t : comm.ranks) {
    if (t == nullptr) continue;
    std::map<std::string_view, std::vector<std::uint64_t>> seqs;
    for (const auto& c : t->colls) seqs[t->name(c.func)].push_back(c.seq);
    for (auto& [func, list] : seqs) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      if (list.front() > 0) {
        add_gap(comm.input, "seq start",
                fmt::format("rank {} {}: SeqNum starts at {}; {} earlier one(s) are not in the "
                            "trace (dropped, or the trace began late)",
                            t->rank, func, list.front(), list.front()),
                list.front(), "SeqNum gaps", diagnostics);
      }
      std::uint64_t missing = 0;
      std::string where;
      std::size_t shown = 0;
      for (std::size_t i = 1; i < list.size(); ++i) {
        const std::uint64_t hole = list[i] - list[i - 1] - 1;
        if (hole == 0) continue;
        missing += hole;
        if (shown++ < 3) {
          where += fmt::format("{}{}", where.empty() ? "" : ", ",
                               seq_range(list[i - 1] + 1, list[i] - 1));
        }
      }
      if (missing == 0) continue;
      add_gap(comm.input, "seq jump",
              fmt::format("rank {} {}: {} SeqNum value(s) missing ({}{}): events the plugin "
                          "dropped",
                          t->rank, func, missing, where, shown > 3 ? ", ..." : ""),
              missing, "SeqNum gaps", diagnostics);
    }
  }
}

bool same_operation(const Member& a, const Member& b) {
  return a.coll->count == b.coll->count &&
         a.trace->name(a.coll->datatype) == b.trace->name(b.coll->datatype) &&
         a.trace->name(a.coll->algo) == b.trace->name(b.coll->algo) &&
         a.trace->name(a.coll->proto) == b.trace->name(b.coll->proto);
}

void join_comm(PluginCommunicator& comm, Diagnostics& diagnostics) {
  std::map<InstanceKey, std::vector<Member>> joined;
  for (const PluginRankTrace* t : comm.ranks) {
    if (t == nullptr) continue;
    std::map<std::pair<std::string_view, std::uint64_t>, std::uint32_t> occurrences;
    for (const auto& c : t->colls) {
      const std::string_view func = t->name(c.func);
      const std::uint32_t occ = occurrences[{func, c.seq}]++;
      joined[{func, c.seq, occ}].push_back(Member{t->rank, &c, t});
    }
  }
  const auto present = static_cast<std::uint32_t>(
      std::count_if(comm.ranks.begin(), comm.ranks.end(), [](auto* t) { return t != nullptr; }));
  struct RowAccum {
    PluginCollRow row;
    std::map<std::int32_t, std::vector<double>> durations;
  };
  std::map<std::tuple<std::string_view, std::uint64_t, std::string_view, std::string_view,
                      std::string_view>,
           RowAccum>
      rows;
  std::uint64_t lacking = 0;
  std::string lacking_examples;
  std::uint64_t mismatched = 0;
  for (const auto& [key, members] : joined) {
    const auto& [func, seq, occ] = key;
    std::string label = fmt::format("{} seq {}", func, seq);
    if (occ > 0) label += fmt::format(" (occurrence {})", occ);
    const Member& first = members.front();
    if (!std::all_of(members.begin(), members.end(),
                     [&](const Member& m) { return same_operation(first, m); })) {
      std::string detail = label + ":";
      for (const auto& m : members) {
        detail += fmt::format(" rank {} {} {} {}/{}", m.rank, m.coll->count,
                              m.trace->name(m.coll->datatype), m.trace->name(m.coll->algo),
                              m.trace->name(m.coll->proto));
      }
      comm.input.gaps.push_back(JoinGap{comm.input.scope, "count mismatch", detail});
      ++mismatched;
      continue;
    }
    if (members.size() < present) {
      if (lacking++ < 3) lacking_examples += (lacking_examples.empty() ? "" : ", ") + label;
    }
    const std::string& datatype = first.trace->name(first.coll->datatype);
    const std::uint64_t bytes = nccl_tests_bytes(parse_nccl_func(func), first.coll->count,
                                                 nccl_datatype_size(datatype), comm.nranks);
    JoinedInstance inst;
    inst.collective = std::string(func);
    inst.label = label;
    inst.bytes = bytes;
    RowAccum& acc = rows[{func, bytes, first.trace->name(first.coll->algo),
                          first.trace->name(first.coll->proto), datatype}];
    ++acc.row.instances;
    for (const auto& m : members) {
      acc.row.channels = std::max(acc.row.channels, m.coll->channels);
      if (m.coll->end_ns == kNeverEnded) continue;
      inst.ranks.push_back(RankTimes{m.rank, m.coll->start_ns, m.coll->end_ns});
      acc.durations[m.rank].push_back(
          static_cast<double>(sat_sub(m.coll->end_ns, m.coll->start_ns)));
    }
    if (!inst.ranks.empty()) comm.input.instances.push_back(std::move(inst));
  }
  if (lacking > 0) {
    add_gap(comm.input, "missing ranks",
            fmt::format("{} instance(s) lack some rank ({}{})", lacking, lacking_examples,
                        lacking > 3 ? ", ..." : ""),
            lacking, "missing ranks", diagnostics);
  }
  if (mismatched > 0) {
    diagnostics.warn("count mismatch",
                     fmt::format("{}: {} instance(s) whose ranks disagree on count, type, "
                                 "algorithm or protocol were not joined",
                                 comm.input.scope, mismatched),
                     mismatched);
  }
  for (auto& [key, acc] : rows) {
    const auto& [func, bytes, algo, proto, datatype] = key;
    PluginCollRow& row = acc.row;
    row.func = std::string(func);
    row.bytes = bytes;
    row.algo = std::string(algo);
    row.proto = std::string(proto);
    row.datatype = std::string(datatype);
    row.ranks = static_cast<std::uint32_t>(acc.durations.size());
    double sum = 0;
    for (auto& [rank, d] : acc.durations) sum += median(std::move(d));
    row.time_ns = row.ranks > 0 ? sum / row.ranks : 0;
    row.algbw_gbps = gb_per_s(static_cast<double>(bytes), row.time_ns);
    const auto conv = nccl_tests_convention(coll_key(parse_nccl_func(func)),
                                            static_cast<std::uint32_t>(comm.nranks));
    row.busbw_gbps = conv ? row.algbw_gbps * conv->factor : 0;
    comm.rows.push_back(std::move(row));
  }
}

}  // namespace

std::vector<PluginCommunicator> join_plugin_traces(const std::vector<PluginRankTrace>& traces,
                                                   const std::string& time_source,
                                                   Diagnostics& diagnostics) {
  std::map<std::uint64_t, PluginCommunicator> comms;
  for (const auto& t : traces) {
    if (t.rank < 0) continue;
    PluginCommunicator& c = comms[t.comm_hash];
    c.comm_hash = t.comm_hash;
    const auto r = static_cast<std::size_t>(t.rank);
    if (c.ranks.size() <= r) c.ranks.resize(r + 1, nullptr);
    if (c.ranks[r] != nullptr) {
      diagnostics.warn("duplicate rank",
                       fmt::format("{}: comm {:016x} rank {} is also in {}; this one is ignored",
                                   t.path, t.comm_hash, t.rank, c.ranks[r]->path));
      continue;
    }
    c.ranks[r] = &t;
  }
  std::vector<PluginCommunicator> out;
  for (auto& [hash, comm] : comms) {
    comm.nranks = static_cast<std::int32_t>(comm.ranks.size());
    CrossRankInput& in = comm.input;
    in.scope = fmt::format("comm {:016x}", hash);
    in.time_source = time_source;
    in.nranks = comm.nranks;
    in.hosts_known = true;
    std::string absent;
    std::uint64_t absent_count = 0;
    for (std::size_t r = 0; r < comm.ranks.size(); ++r) {
      const PluginRankTrace* t = comm.ranks[r];
      if (t == nullptr) {
        absent += (absent.empty() ? "" : ", ") + std::to_string(r);
        ++absent_count;
        continue;
      }
      RankInfo info;
      info.rank = t->rank;
      info.host = t->host.empty() ? fmt::format("process {} (rank {})", t->pid, t->rank) : t->host;
      in.ranks.push_back(std::move(info));
    }
    if (absent_count > 0) {
      add_gap(in, "absent ranks", fmt::format("rank(s) {} have no trace", absent), absent_count,
              "absent ranks", diagnostics);
    }
    find_seq_gaps(comm, diagnostics);
    join_comm(comm, diagnostics);
    out.push_back(std::move(comm));
  }
  return out;
}

}  // namespace npkit::ingest

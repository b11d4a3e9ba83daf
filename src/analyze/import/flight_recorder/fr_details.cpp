// What `info` shows of PyTorch Flight Recorder dumps beyond what every input shows
// (run/input_details.hpp): per rank its dump (format, version, communication library, groups,
// entries); per process group and rank the entries it holds and the last one's
// collective_seq_id, operation and state.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "import/flight_recorder/fr_input.hpp"

namespace npkit {
namespace {

struct GroupRank {
  std::int32_t rank = 0;
  std::size_t entries = 0;
  const FrEntry* last = nullptr;
};

struct GroupView {
  std::string desc;
  std::vector<std::int64_t> ranks;  // global ranks, from pg_config
  std::vector<GroupRank> per_rank;
};

// Every group a dump names (pg_config or an entry), by name.
std::map<std::string, GroupView> group_views(const FlightRecorderDumps& dumps) {
  std::map<std::string, GroupView> out;
  for (const auto& d : dumps.ranks) {
    std::map<std::string, GroupRank> mine;
    for (const auto& g : d.groups) {
      GroupView& v = out[g.name];
      if (v.desc.empty()) v.desc = g.desc;
      if (v.ranks.empty()) v.ranks = g.ranks;
      mine[g.name].rank = d.rank;
    }
    for (const auto& e : d.entries) {
      GroupView& v = out[e.pg_name];
      if (v.desc.empty()) v.desc = e.pg_desc;
      GroupRank& r = mine[e.pg_name];
      r.rank = d.rank;
      ++r.entries;
      r.last = &e;
    }
    for (auto& [name, r] : mine) out[name].per_rank.push_back(r);
  }
  return out;
}

TextTable dump_table(const FlightRecorderDumps& dumps) {
  TextTable t;
  t.title = "dumps";
  t.columns = {"rank", "format", "version", "comm library", "groups", "entries", "frames", "file"};
  for (const auto& d : dumps.ranks) {
    t.add_row({std::to_string(d.rank), d.format, d.version, or_dash(d.comm_lib_version),
               std::to_string(d.groups.size()), std::to_string(d.entries.size()),
               std::to_string(d.frames.size()), d.path});
  }
  return t;
}

std::string global_ranks(const std::vector<std::int64_t>& ranks) {
  return ranks.empty() ? "-" : fmt::format("{}", fmt::join(ranks, ","));
}

TextTable group_table(const std::map<std::string, GroupView>& groups) {
  TextTable t;
  t.title = "process groups: each rank's last entry";
  t.columns = {"group",   "desc",     "global ranks", "rank",
               "entries", "last seq", "operation",    "state"};
  for (const auto& [name, g] : groups) {
    for (const auto& r : g.per_rank) {
      t.add_row({name, or_dash(g.desc), global_ranks(g.ranks), std::to_string(r.rank),
                 std::to_string(r.entries),
                 r.last != nullptr ? std::to_string(r.last->collective_seq_id) : "-",
                 r.last != nullptr ? r.last->profiling_name : "-",
                 r.last != nullptr ? fr_state_name(r.last->state) : "-"});
    }
  }
  return t;
}

}  // namespace

InputDetails FlightRecorderInput::details() const {
  InputDetails out;
  const auto groups = group_views(dumps_);
  out.blocks.push_back(DetailBlock{DetailBlock::Kind::kTable, "", {}, dump_table(dumps_), {}});
  out.blocks.push_back(DetailBlock{DetailBlock::Kind::kTable, "", {}, group_table(groups), {}});
  out.csv = group_table(groups);
  DetailWriter w(out.json);
  w.field("prefix", dumps_.prefix);
  w.objects("dumps", dumps_.ranks, [&](const FlightRecorderDump& d) {
    w.field("rank", static_cast<std::int64_t>(d.rank));
    w.field("path", d.path);
    w.field("format", d.format);
    w.field("bytes", d.bytes);
    w.field("version", d.version);
    w.field("comm_lib_version", d.comm_lib_version);
    w.field("entries", static_cast<std::uint64_t>(d.entries.size()));
    w.field("frames", static_cast<std::uint64_t>(d.frames.size()));
  });
  w.key("process_groups");
  w.begin_array();
  for (const auto& [name, g] : groups) {
    w.begin_object();
    w.field("name", name);
    w.field("desc", g.desc);
    w.values("global_ranks", g.ranks);
    w.objects("ranks", g.per_rank, [&](const GroupRank& r) {
      w.field("rank", static_cast<std::int64_t>(r.rank));
      w.field("entries", static_cast<std::uint64_t>(r.entries));
      if (r.last != nullptr) {
        w.field("last_collective_seq_id", r.last->collective_seq_id);
        w.field("last_profiling_name", r.last->profiling_name);
        w.field("last_state", fr_state_name(r.last->state));
      }
    });
    w.end_object();
  }
  w.end_array();
  return out;
}

}  // namespace npkit

#include "analysis/hang/fr_hang.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

namespace npkit {
namespace {

std::string operation_of(const std::string& profiling_name) {
  const std::size_t colon = profiling_name.find(':');
  return colon == std::string::npos ? profiling_name : profiling_name.substr(colon + 1);
}

std::string frame_text(const FlightRecorderDump& d, const FrEntry& e) {
  for (const std::uint32_t i : e.frames) {
    const FrFrame& f = d.frames[i];
    if (f.filename.find("torch/") == std::string::npos) {
      return fmt::format("{}:{} ({})", f.filename, f.line, f.name);
    }
  }
  return "";
}

// Every member's latest collective entry of group `name`.
struct Latest {
  const FlightRecorderDump* dump = nullptr;
  const FrEntry* entry = nullptr;
};

}  // namespace

bool FrHangAnalysis::stalled() const {
  for (const auto& g : groups) {
    if (g.stalled()) return true;
  }
  return false;
}

bool FrHangAnalysis::cannot_tell() const {
  if (stalled()) return false;
  for (const auto& g : groups) {
    if (g.cannot_tell()) return true;
  }
  return false;
}

FrHangAnalysis analyze_fr_hang(const FlightRecorderDumps& dumps) {
  std::map<std::string, FrGroupHang> groups;
  std::map<std::string, std::map<std::int64_t, Latest>> latest;
  std::map<std::int64_t, const FlightRecorderDump*> dump_of;
  for (const auto& d : dumps.ranks) {
    dump_of[d.rank] = &d;
    for (const auto& g : d.groups) {
      FrGroupHang& h = groups[g.name];
      h.name = g.name;
      if (h.desc.empty()) h.desc = g.desc;
      if (h.members.empty()) h.members = g.ranks;
    }
    for (const auto& e : d.entries) {
      if (e.is_p2p) continue;
      FrGroupHang& h = groups[e.pg_name];
      h.name = e.pg_name;
      if (h.desc.empty()) h.desc = e.pg_desc;
      Latest& l = latest[e.pg_name][d.rank];
      if (l.entry == nullptr || e.collective_seq_id >= l.entry->collective_seq_id) l = {&d, &e};
    }
  }
  FrHangAnalysis out;
  for (auto& [name, h] : groups) {
    const auto& mine = latest[name];
    if (mine.empty()) continue;
    if (h.members.empty()) {
      for (const auto& [rank, l] : mine) h.members.push_back(rank);
    }
    for (const auto& [rank, l] : mine) h.seq = std::max(h.seq, l.entry->collective_seq_id);
    const Latest* first = nullptr;   // the lowest rank that recorded the group's latest
    const Latest* waiter = nullptr;  // the lowest that waits in it
    for (const std::int64_t r : h.members) {
      FrMemberState m;
      m.global_rank = r;
      m.has_dump = dump_of.contains(r);
      const auto it = mine.find(r);
      if (it != mine.end()) {
        const FrEntry& e = *it->second.entry;
        m.last_seq = e.collective_seq_id;
        m.operation = operation_of(e.profiling_name);
        m.state = e.state;
        m.input_sizes = e.input_sizes;
        m.input_dtypes = e.input_dtypes;
        if (m.last_seq == h.seq) {
          if (first == nullptr) first = &it->second;
          if (e.state != FrState::kCompleted) {
            h.waiting.push_back(r);
            if (waiter == nullptr) waiter = &it->second;
          }
        }
      }
      if (!m.has_dump) {
        h.without_dump.push_back(r);
      } else if (m.last_seq < h.seq) {
        h.missing.push_back(r);
      }
      h.ranks.push_back(std::move(m));
    }
    if (first != nullptr) {
      const FrEntry& e = *first->entry;
      h.operation = operation_of(e.profiling_name);
      h.input_sizes = e.input_sizes;
      h.input_dtypes = e.input_dtypes;
      const Latest* from = waiter != nullptr ? waiter : first;
      h.called_from = frame_text(*from->dump, *from->entry);
      for (const auto& m : h.ranks) {
        if (m.last_seq != h.seq) continue;
        if (m.operation != h.operation) {
          h.mismatches.push_back(
              fmt::format("global rank {}: {}, not {}", m.global_rank, m.operation, h.operation));
        } else if (m.input_sizes != h.input_sizes) {
          h.mismatches.push_back(fmt::format("global rank {}: input sizes {}, not {}",
                                             m.global_rank, fmt::join(m.input_sizes, " "),
                                             fmt::join(h.input_sizes, " ")));
        } else if (m.input_dtypes != h.input_dtypes) {
          h.mismatches.push_back(fmt::format("global rank {}: input dtypes {}, not {}",
                                             m.global_rank, fmt::join(m.input_dtypes, ","),
                                             fmt::join(h.input_dtypes, ",")));
        }
      }
    }
    out.groups.push_back(std::move(h));
  }
  return out;
}

}  // namespace npkit

#include "import/join_gaps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

#include "util/rank_ranges.hpp"

namespace npkit {
namespace {

constexpr std::size_t kNamedExamples = 3;

void add_gap(RunCommunicator& comm, std::string kind, std::string detail) {
  comm.gaps.push_back(JoinGap{comm.scope, std::move(kind), std::move(detail)});
}

// "5-7" or "5".
std::string seq_range(std::uint64_t first, std::uint64_t last) {
  return first == last ? std::to_string(first) : fmt::format("{}-{}", first, last);
}

}  // namespace

bool operations_agree(std::span<const MemberOperation> members) {
  return std::all_of(members.begin(), members.end(), [&](const MemberOperation& m) {
    const MemberOperation& a = members.front();
    return m.count == a.count && m.bytes == a.bytes && m.type == a.type && m.algo == a.algo &&
           m.proto == a.proto;
  });
}

void add_count_mismatch(RunCommunicator& comm, const RunInstance& inst,
                        std::span<const MemberOperation> members) {
  std::vector<std::string> values;
  for (const auto& m : members) {
    values.push_back(
        fmt::format("rank {} count {} {} {}/{}", m.rank, m.count, m.type, m.algo, m.proto));
  }
  add_gap(comm, "count mismatch",
          fmt::format("{}: {}; not used", inst.label, fmt::join(values, ", ")));
}

void add_seq_gaps(RunCommunicator& comm, std::int32_t rank, SeqsByFunc seqs,
                  const SeqGapCauses& causes, Diagnostics& diagnostics) {
  for (auto& [func, list] : seqs) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    if (list.empty()) continue;
    if (list.front() > 0) {
      std::string detail =
          fmt::format("rank {} {}: seq numbers start at {}; {} earlier one(s) are missing ({})",
                      rank, func, list.front(), list.front(), causes.start);
      diagnostics.warn("seq gaps", comm.scope + ": " + detail, list.front());
      add_gap(comm, "seq start", std::move(detail));
    }
    std::uint64_t missing = 0;
    std::size_t holes = 0;
    std::vector<std::string> ranges;  // the first kNamedExamples holes
    for (std::size_t i = 1; i < list.size(); ++i) {
      if (list[i] == list[i - 1] + 1) continue;
      missing += list[i] - list[i - 1] - 1;
      if (holes++ < kNamedExamples) ranges.push_back(seq_range(list[i - 1] + 1, list[i] - 1));
    }
    if (missing == 0) continue;
    const bool more = holes > kNamedExamples;
    std::string detail =
        fmt::format("rank {} {}: {} seq number(s) missing ({}{}): {}", rank, func, missing,
                    fmt::join(ranges, ", "), more ? ", ..." : "", causes.jump);
    diagnostics.warn("seq gaps", comm.scope + ": " + detail, missing);
    add_gap(comm, "seq jump", std::move(detail));
  }
}

void add_communicator_seq_gaps(RunCommunicator& comm, std::map<std::int32_t, SeqsByFunc> by_rank,
                               const SeqGapCauses& causes, Diagnostics& diagnostics) {
  if (causes.shared.empty()) {
    for (auto& [rank, seqs] : by_rank)
      add_seq_gaps(comm, rank, std::move(seqs), causes, diagnostics);
    return;
  }
  // Per function, the seq numbers some rank has.
  std::map<std::string_view, std::vector<std::uint64_t>> any_rank;
  for (auto& [rank, seqs] : by_rank) {
    for (auto& [func, list] : seqs) {
      auto& all = any_rank[func];
      all.insert(all.end(), list.begin(), list.end());
    }
  }
  for (auto& [func, all] : any_rank) {
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    std::uint64_t missing = all.front();
    std::size_t holes = all.front() > 0 ? 1 : 0;
    std::vector<std::string> ranges;
    if (all.front() > 0) ranges.push_back(seq_range(0, all.front() - 1));
    for (std::size_t i = 1; i < all.size(); ++i) {
      if (all[i] == all[i - 1] + 1) continue;
      missing += all[i] - all[i - 1] - 1;
      if (holes++ < kNamedExamples) ranges.push_back(seq_range(all[i - 1] + 1, all[i] - 1));
    }
    if (missing > 0) {
      add_gap(comm, "seq filtered",
              fmt::format("{}: {} seq number(s) absent on every rank ({}{}): {}", func, missing,
                          fmt::join(ranges, ", "), holes > kNamedExamples ? ", ..." : "",
                          causes.shared));
    }
  }
  // What a rank lacks of the seq numbers some rank has.
  for (auto& [rank, seqs] : by_rank) {
    for (auto& [func, list] : seqs) {
      std::sort(list.begin(), list.end());
      std::vector<std::uint64_t> lacking;
      std::set_difference(any_rank[func].begin(), any_rank[func].end(), list.begin(), list.end(),
                          std::back_inserter(lacking));
      if (lacking.empty()) continue;
      std::vector<std::string> ranges;
      std::size_t holes = 0;
      for (std::size_t i = 0; i < lacking.size();) {
        std::size_t j = i;
        while (j + 1 < lacking.size() && lacking[j + 1] == lacking[j] + 1) ++j;
        if (holes++ < kNamedExamples) ranges.push_back(seq_range(lacking[i], lacking[j]));
        i = j + 1;
      }
      std::string detail =
          fmt::format("rank {} {}: {} seq number(s) other ranks have are missing ({}{}): {}", rank,
                      func, lacking.size(), fmt::join(ranges, ", "),
                      holes > kNamedExamples ? ", ..." : "", causes.jump);
      diagnostics.warn("seq gaps", comm.scope + ": " + detail, lacking.size());
      add_gap(comm, "seq jump", std::move(detail));
    }
  }
}

void warn_ranks_without_data(const RunCommunicator& comm, const RankFilter& selected,
                             const std::string& input, std::string_view why,
                             Diagnostics& diagnostics) {
  std::vector<std::int32_t> unseen;
  for (const std::int32_t r : comm.absent_ranks) {
    if (r >= 0 && selected.contains(static_cast<std::uint32_t>(r))) unseen.push_back(r);
  }
  if (unseen.empty()) return;
  diagnostics.warn(
      "ranks without data",
      fmt::format("{}: {}: {} of {} ranks have data; none from rank(s) {} ({}): "
                  "what those ranks did is unknown",
                  input, comm.scope, comm.ranks.size(), comm.nranks, rank_ranges(unseen), why),
      unseen.size());
}

void add_rank_gaps(RunCommunicator& comm, Diagnostics& diagnostics) {
  if (!comm.absent_ranks.empty()) {
    add_gap(comm, "absent ranks",
            fmt::format("no data for rank(s) {} of {}", fmt::join(comm.absent_ranks, ", "),
                        comm.nranks));
  }
  std::uint64_t lacking = 0;
  std::uint64_t disagreeing = 0;
  std::vector<std::string> examples;
  for (const RunInstance& inst : comm.instances) {
    if (inst.is_pair()) continue;
    if (!inst.agree) ++disagreeing;
    if (inst.missing_ranks.empty()) continue;
    if (lacking++ < kNamedExamples) {
      examples.push_back(
          fmt::format("{} lacks rank {}", inst.label, fmt::join(inst.missing_ranks, ",")));
    }
  }
  if (lacking > 0) {
    std::string detail = fmt::format(
        "{} instance(s) lack ranks that have data ({}{}); analysed with the ranks "
        "present",
        lacking, fmt::join(examples, "; "), lacking > kNamedExamples ? "; ..." : "");
    diagnostics.warn("missing ranks", comm.scope + ": " + detail, lacking);
    add_gap(comm, "missing ranks", std::move(detail));
  }
  if (disagreeing > 0) {
    diagnostics.warn("count mismatch",
                     fmt::format("{}: {} instance(s) whose ranks disagree on count, type, "
                                 "algorithm or protocol were not used",
                                 comm.scope, disagreeing),
                     disagreeing);
  }
}

void warn_duplicate_rank(Diagnostics& diagnostics, const std::string& path, std::uint64_t comm_hash,
                         std::int32_t rank, const std::string& kept) {
  diagnostics.warn("duplicate rank",
                   fmt::format("{}: comm {:016x} rank {} is also in {}; this file is ignored", path,
                               comm_hash, rank, kept));
}

void warn_differing_sizes(Diagnostics& diagnostics, const std::string& path,
                          std::uint64_t comm_hash, std::int32_t nranks, std::int32_t other) {
  diagnostics.warn("differing sizes",
                   fmt::format("{}: comm {:016x} has {} ranks here, {} in another file; the "
                               "larger is used",
                               path, comm_hash, nranks, other));
}

}  // namespace npkit

#include "analysis/summary/summarize_legacy.hpp"

#include <algorithm>
#include <cctype>

#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"
#include "run/summary/saturating_count.hpp"
#include "run/summary/size_bucket.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// NCCL's name for a phase rule's collective ("allreduce" -> "AllReduce"), else the rule's.
std::string nccl_name(const std::string& func) {
  for (const NcclFunc f :
       {NcclFunc::kAllReduce, NcclFunc::kAllGather, NcclFunc::kReduceScatter, NcclFunc::kBroadcast,
        NcclFunc::kReduce, NcclFunc::kAllToAll, NcclFunc::kSendRecv}) {
    if (coll_key(f) == func) return std::string(nccl_func_name(f));
  }
  return func;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

LegacySummarySink::LegacySummarySink(const PhaseAssignment& phases)
    : phases_(phases), breakdown_(phases) {}

void LegacySummarySink::begin_track(const TrackFile& file, TimeDomain domain) {
  breakdown_.begin_track(file, domain);
  track_counters_.clear();
}

void LegacySummarySink::on_span(const Span& span) {
  breakdown_.on_span(span);
  const bool gpu = span.track.kind == TrackKind::kGpu;
  span_ns_[{span.track.rank, gpu, span.phase}].add(sat_sub(span.duration_ns(), span.child_ns));
  if (span.depth != 0 || !gpu || span.base >= phases_.collective_of_base.size()) return;
  const std::int32_t c = phases_.collective_of_base[span.base];
  if (c == kNoCollective || phases_.collectives[c].algo == "p2p") return;
  const std::uint64_t k = track_counters_[{c, span.entry_size}]++;
  auto& list = instances_[{c, span.entry_size, span.track.rank}];
  if (list.size() <= k) list.resize(k + 1);
  list[k].start = std::min(list[k].start, span.start_ns);
  list[k].end = std::max(list[k].end, span.end_ns);
}

void LegacySummarySink::merge(const LegacySummarySink& other) {
  breakdown_.merge(other.breakdown_);
  for (const auto& [key, sample] : other.span_ns_) span_ns_[key].merge(sample);
  for (const auto& [key, theirs] : other.instances_) {
    auto& mine = instances_[key];
    if (mine.size() < theirs.size()) mine.resize(theirs.size());
    for (std::size_t k = 0; k < theirs.size(); ++k) {
      mine[k].start = std::min(mine[k].start, theirs[k].start);
      mine[k].end = std::max(mine[k].end, theirs[k].end);
    }
  }
}

void LegacySummarySink::add_collectives(const LegacyDump& dump, RunSummary& s) const {
  const auto nranks = static_cast<std::uint32_t>(dump.layout.ranks.size());
  auto s_bytes = [&](std::int32_t c, std::uint32_t size_field) -> std::uint64_t {
    const auto conv = nccl_tests_convention(phases_.collectives[c].func, nranks);
    return conv ? static_cast<std::uint64_t>(algbw_bytes(*conv, size_field, nranks)) : size_field;
  };
  SizeBuckets buckets;
  for (const auto& [key, list] : instances_) {
    const auto& [c, size, rank] = key;
    buckets.see(nccl_name(phases_.collectives[c].func), s_bytes(c, size));
  }
  // Instances per (collective, size): the most any rank has; the k-th of each rank is one.
  std::map<TrackKey, std::vector<const std::vector<Instance>*>> groups;
  std::map<TrackKey, std::vector<std::uint32_t>> group_ranks;
  for (const auto& [key, list] : instances_) {
    const auto& [c, size, rank] = key;
    groups[{c, size}].push_back(&list);
    group_ranks[{c, size}].push_back(rank);
  }
  std::map<CollectiveKey, CollectiveRow> rows;
  for (const auto& [group, lists] : groups) {
    const auto& [c, size] = group;
    const std::string func = nccl_name(phases_.collectives[c].func);
    const std::uint64_t bytes = s_bytes(c, size);
    CollectiveKey key{func,
                      static_cast<std::int32_t>(nranks),
                      0,
                      SizeKind::kExact,
                      upper(phases_.collectives[c].algo),
                      ""};
    buckets.assign(func, bytes, key);
    CollectiveRow& row = rows[key];
    row.key = key;
    std::size_t most = 0;
    for (const auto* list : lists) most = std::max(most, list->size());
    row.instances = sat_add_count(row.instances, most);
    row.bytes_sum = sat_add_count(row.bytes_sum, bytes * most);
    for (std::size_t i = 0; i < lists.size(); ++i) {
      DurationSample& times = row.rank_sample(static_cast<std::int32_t>(group_ranks[group][i]));
      for (const auto& inst : *lists[i]) {
        if (inst.end >= inst.start) times.add(sat_sub(inst.end, inst.start));
      }
    }
  }
  for (auto& [key, row] : rows) s.collectives.push_back(std::move(row));
}

void LegacySummarySink::add_phases(RunSummary& s) const {
  std::map<PhaseKey, PhaseRow> rows;
  for (const auto& r : breakdown_.ranks()) {
    for (const bool gpu : {true, false}) {
      const auto& totals = gpu ? r.gpu : r.cpu;
      for (std::size_t p = 0; p < totals.size(); ++p) {
        const PhaseTotal& t = totals[p];
        const auto sample = span_ns_.find({r.rank, gpu, static_cast<std::uint16_t>(p)});
        if (t.ns == 0 && t.count == 0 && sample == span_ns_.end()) continue;
        const PhaseKey key{"spans", gpu ? "gpu" : "cpu", phases_.phase_names[p]};
        PhaseRow& row = rows[key];
        row.key = key;
        row.ranks.push_back(RankPhase{
            static_cast<std::int32_t>(r.rank), t.ns, gpu ? r.gpu_reference_ns : r.cpu_reference_ns,
            t.count, sample == span_ns_.end() ? DurationSample{} : sample->second});
      }
    }
  }
  for (auto& [key, row] : rows) {
    std::sort(row.ranks.begin(), row.ranks.end(),
              [](const RankPhase& a, const RankPhase& b) { return a.rank < b.rank; });
    s.phases.push_back(std::move(row));
  }
}

RunSummary LegacySummarySink::summarize(const std::string& input, const LegacyDump& dump) const {
  RunSummary s;
  s.inputs.push_back(input);
  s.config.formats.insert("npkit-legacy");
  CommunicatorRanks& comm = s.config.communicators["legacy"];
  comm.nranks = static_cast<std::int32_t>(dump.layout.ranks.size());
  for (const auto& r : dump.layout.ranks) {
    comm.ranks.insert(static_cast<std::int32_t>(r.rank));
    s.config.files += r.gpu.size() + r.cpu.size();
  }
  add_collectives(dump, s);
  add_phases(s);
  return s;
}

}  // namespace npkit

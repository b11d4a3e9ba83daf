#include "analysis/diff/run_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "run/measures.hpp"
#include "util/quantiles.hpp"
#include "util/rank_ranges.hpp"

namespace npkit {
namespace {

// Ranks named per communicator in rank_coverage before "...".
constexpr std::size_t kMaxRanksNamed = 16;

struct RankSample {
  std::int32_t rank = 0;
  const DurationSample* sample = nullptr;
};

bool kept(const std::vector<std::int32_t>& keep, std::int32_t rank) {
  return keep.empty() || std::binary_search(keep.begin(), keep.end(), rank);
}

DurationSample pool(const std::vector<RankSample>& ranks, const std::vector<std::int32_t>& keep) {
  DurationSample all;
  for (const auto& r : ranks) {
    if (kept(keep, r.rank)) all.merge(*r.sample);
  }
  return all;
}

// Each kept rank's median, averaged over the ranks with a sample (`bandwidth`'s time of a row).
double rank_median_mean(const std::vector<RankSample>& ranks,
                        const std::vector<std::int32_t>& keep) {
  std::vector<double> medians;
  for (const auto& r : ranks) {
    if (kept(keep, r.rank) && !r.sample->empty()) medians.push_back(r.sample->median());
  }
  return mean_of_rank_medians(medians);
}

// Pooled and per-rank comparisons folded into one verdict (contract in the header).
RowJudgement judge(const std::vector<RankSample>& base, const std::vector<RankSample>& cand,
                   const NoiseRule& rule) {
  RowJudgement j;
  j.compared = true;
  std::vector<std::int32_t> shared;
  for (const auto& b : base) {
    const auto c = std::find_if(cand.begin(), cand.end(),
                                [&](const RankSample& x) { return x.rank == b.rank; });
    if (c == cand.end()) continue;
    shared.push_back(b.rank);
    j.ranks.push_back({b.rank, compare_samples(*b.sample, *c->sample, rule)});
  }
  j.pooled =
      compare_samples_at(pool(base, shared), pool(cand, shared), rank_median_mean(base, shared),
                         rank_median_mean(cand, shared), rule);
  auto consider = [&](std::int32_t rank, const SampleComparison& c) {
    if (c.verdict == Verdict::kRegression &&
        (j.verdict != Verdict::kRegression || c.change > j.deciding_change)) {
      j.verdict = Verdict::kRegression;
      j.deciding_rank = rank;
      j.deciding_change = c.change;
    } else if (c.verdict == Verdict::kImprovement && j.verdict != Verdict::kRegression &&
               (j.verdict != Verdict::kImprovement || c.change < j.deciding_change)) {
      j.verdict = Verdict::kImprovement;
      j.deciding_rank = rank;
      j.deciding_change = c.change;
    }
  };
  consider(kPooled, j.pooled);
  for (const auto& r : j.ranks) consider(r.rank, r.comparison);
  if (j.verdict == Verdict::kUnchanged) {
    j.verdict = j.pooled.verdict == Verdict::kInconclusive ? Verdict::kInconclusive
                : j.pooled.tested                          ? Verdict::kUnchanged
                                                           : Verdict::kNotTested;
    j.deciding_change = j.pooled.change;
  }
  return j;
}

std::vector<RankSample> rank_samples(const std::vector<RankDurations>& ranks) {
  std::vector<RankSample> out;
  for (const auto& r : ranks) out.push_back({r.rank, &r.time_ns});
  return out;
}

std::vector<RankSample> rank_samples(const PhaseRow& row) {
  std::vector<RankSample> out;
  for (const auto& r : row.ranks) out.push_back({r.rank, &r.span_ns});
  return out;
}

double busbw_at_time(const CollectiveRow& row) {
  const double time = row.time_ns();
  return time > 0 ? row_busbw_gbps(row.key, row.mean_bytes(), time) : 0.0;
}

std::string change_reason(const CollectiveKey& b, const CollectiveKey& c) {
  if (b.algo != c.algo && b.proto != c.proto) {
    return fmt::format("algo/proto changed: {} → {}", choice_label(b.algo, b.proto),
                       choice_label(c.algo, c.proto));
  }
  if (b.algo != c.algo) return fmt::format("algo changed: {} → {}", b.algo, c.algo);
  return fmt::format("proto changed: {} → {} ({})", b.proto, c.proto, b.algo);
}

using SizeGroup = std::tuple<std::string, std::int32_t, std::uint64_t, SizeKind, std::uint64_t>;

SizeGroup group_of(const CollectiveKey& k) {
  return {k.collective, k.nranks, k.size_bytes, k.size_kind, k.tag};
}

CollectiveDiff row_diff(const CollectiveRow* b, const CollectiveRow* c) {
  const CollectiveKey& k = b != nullptr ? b->key : c->key;
  CollectiveDiff d;
  d.collective = k.collective;
  d.tag = k.tag;
  d.nranks = k.nranks;
  d.size_bytes = k.size_bytes;
  d.size_kind = k.size_kind;
  d.in_base = b != nullptr;
  d.in_cand = c != nullptr;
  if (b != nullptr) {
    d.base_quality = quality_of({b});
    d.base_choice = choice_label(b->key.algo, b->key.proto);
    d.base_time_ns = b->time_ns();
    d.base_busbw_gbps = busbw_at_time(*b);
  }
  if (c != nullptr) {
    d.cand_quality = quality_of({c});
    d.cand_choice = choice_label(c->key.algo, c->key.proto);
    d.cand_time_ns = c->time_ns();
    d.cand_busbw_gbps = busbw_at_time(*c);
  }
  return d;
}

std::vector<std::int32_t> timed_ranks(const CollectiveRow& row) {
  std::vector<std::int32_t> ranks;
  for (const auto& r : row.ranks) {
    if (!r.time_ns.empty()) ranks.push_back(r.rank);
  }
  return ranks;
}

// Overrides the judgement of a row whose data one side lacks (contract in the header).
void check_coverage(const CollectiveRow& b, const CollectiveRow& c, RowJudgement& j) {
  const std::vector<std::int32_t> base_ranks = timed_ranks(b);
  const std::vector<std::int32_t> cand_ranks = timed_ranks(c);
  if (base_ranks.empty()) {
    // Nothing was lost where nothing was timed, and nothing was tested.
    j.verdict = cand_ranks.empty() ? Verdict::kNotTested : Verdict::kNotComparable;
    j.reason = cand_ranks.empty() ? "untimed in both runs" : "untimed in the baseline";
    return;
  }
  if (cand_ranks.empty()) {
    j.verdict = Verdict::kMissing;
    j.reason = fmt::format("untimed in the candidate ({} instance(s), none timed)", c.instances);
    return;
  }
  std::vector<std::int32_t> lost;
  std::set_difference(base_ranks.begin(), base_ranks.end(), cand_ranks.begin(), cand_ranks.end(),
                      std::back_inserter(lost));
  if (!lost.empty()) {
    j.verdict = Verdict::kMissing;
    j.reason = fmt::format("rank(s) {} timed in the baseline, not in the candidate",
                           fmt::join(lost, ", "));
  } else if (base_ranks != cand_ranks) {
    j.reason += fmt::format("{}judged on rank(s) {} (timed in both runs)",
                            j.reason.empty() ? "" : "; ", fmt::join(base_ranks, ", "));
  }
}

// A row either side of which is mostly flagged is not comparable (contract in the header).
bool check_flags(const CollectiveDiff& d, RowJudgement& j) {
  std::vector<std::string> why;
  for (const auto& [side, q] :
       {std::pair{"baseline", &d.base_quality}, std::pair{"candidate", &d.cand_quality}}) {
    if (q->too_few_clean()) why.push_back(fmt::format("{}: {}", side, q->flag_text()));
  }
  if (why.empty()) return false;
  j.verdict = Verdict::kNotComparable;
  j.reason = fmt::format("flagged times ({})", fmt::join(why, "; "));
  return true;
}

// Names a judged row's side that is below the quality floor, and any side that is incomplete.
void mark_quality(CollectiveDiff& d) {
  RowJudgement& j = d.judgement;
  const bool judged = j.verdict != Verdict::kMissing && j.verdict != Verdict::kNotComparable;
  for (const auto& [side, q] :
       {std::pair{"baseline", &d.base_quality}, std::pair{"candidate", &d.cand_quality}}) {
    std::string mark;
    if (judged && q->below_floor()) {
      mark = fmt::format("{} below the quality floor ({})", side, q->text());
    } else if (q->is_incomplete()) {
      mark = fmt::format(
          "{} incomplete: its log lost records ({}/{} instance(s) of such a "
          "communicator)",
          side, q->incomplete, q->instances);
    }
    if (!mark.empty()) j.reason += (j.reason.empty() ? "" : "; ") + mark;
  }
}

void diff_collectives(const std::vector<CollectiveRow>& base,
                      const std::vector<CollectiveRow>& cand, const NoiseRule& rule, RunDiff& out) {
  std::map<SizeGroup,
           std::pair<std::vector<const CollectiveRow*>, std::vector<const CollectiveRow*>>>
      groups;
  for (const auto& r : base) groups[group_of(r.key)].first.push_back(&r);
  for (const auto& r : cand) groups[group_of(r.key)].second.push_back(&r);
  auto compared = [&](const CollectiveRow& b, const CollectiveRow& c, std::string reason) {
    CollectiveDiff d = row_diff(&b, &c);
    d.judgement = judge(rank_samples(b.ranks), rank_samples(c.ranks), rule);
    d.judgement.reason = std::move(reason);
    if (!check_flags(d, d.judgement)) check_coverage(b, c, d.judgement);
    mark_quality(d);
    out.collectives.push_back(std::move(d));
  };
  for (const auto& [group, sides] : groups) {
    const auto& [b_rows, c_rows] = sides;
    std::vector<const CollectiveRow*> b_only;
    std::vector<const CollectiveRow*> c_only;
    for (const CollectiveRow* b : b_rows) {
      const auto c = std::find_if(c_rows.begin(), c_rows.end(),
                                  [&](const CollectiveRow* x) { return x->key == b->key; });
      if (c == c_rows.end()) {
        b_only.push_back(b);
      } else {
        compared(*b, **c, "");
      }
    }
    for (const CollectiveRow* c : c_rows) {
      if (std::none_of(b_rows.begin(), b_rows.end(),
                       [&](const CollectiveRow* x) { return x->key == c->key; })) {
        c_only.push_back(c);
      }
    }
    const std::size_t pairs = std::min(b_only.size(), c_only.size());
    for (std::size_t i = 0; i < pairs; ++i) {
      compared(*b_only[i], *c_only[i], change_reason(b_only[i]->key, c_only[i]->key));
    }
    for (std::size_t i = pairs; i < b_only.size(); ++i) {
      CollectiveDiff d = row_diff(b_only[i], nullptr);
      const bool timed = !timed_ranks(*b_only[i]).empty();
      d.judgement.verdict = timed ? Verdict::kMissing : Verdict::kNotComparable;
      d.judgement.reason = timed ? "not in the candidate" : "only in baseline (untimed there)";
      out.collectives.push_back(std::move(d));
    }
    for (std::size_t i = pairs; i < c_only.size(); ++i) {
      CollectiveDiff d = row_diff(nullptr, c_only[i]);
      d.judgement.verdict = Verdict::kNotComparable;
      d.judgement.reason = "only in candidate";
      out.collectives.push_back(std::move(d));
    }
  }
}

// (communicator, rank) pairs per communicator size.
std::map<std::int32_t, std::uint64_t> ranks_by_size(const RunConfig& config) {
  std::map<std::int32_t, std::uint64_t> n;
  for (const auto& [key, comm] : config.communicators) n[comm.nranks] += comm.ranks.size();
  return n;
}

// "baseline: comm X: 3 of 4 ranks have data (none from rank 3)" per communicator lacking ranks.
void rank_coverage(const char* side, const RunConfig& config, std::vector<std::string>& out) {
  for (const auto& [key, comm] : config.communicators) {
    if (comm.nranks <= 0 || comm.ranks.size() >= static_cast<std::size_t>(comm.nranks)) continue;
    std::vector<std::int32_t> lacking;
    for (std::int32_t r = 0; r < comm.nranks && lacking.size() <= kMaxRanksNamed; ++r) {
      if (!comm.ranks.contains(r)) lacking.push_back(r);
    }
    const bool more = lacking.size() > kMaxRanksNamed;
    if (more) lacking.pop_back();
    out.push_back(fmt::format("{}: comm {}: {} of {} ranks have data (none from rank(s) {}{})",
                              side, key, comm.ranks.size(), comm.nranks, rank_ranges(lacking),
                              more ? ", ..." : ""));
  }
}

void run_coverage(const RunSummary& base, const RunSummary& cand, RunDiff& out) {
  rank_coverage("baseline", base.config, out.rank_coverage);
  rank_coverage("candidate", cand.config, out.rank_coverage);
  if (cand.collectives.empty() && !base.collectives.empty()) {
    out.missing.push_back(fmt::format(
        "the candidate has no collective (the baseline has {} row(s))", base.collectives.size()));
  }
  auto judged = [](const RowJudgement& j) {
    return j.compared && j.verdict != Verdict::kNotComparable && j.verdict != Verdict::kMissing &&
           j.verdict != Verdict::kNotTested;
  };
  const bool any_compared =
      std::any_of(out.collectives.begin(), out.collectives.end(),
                  [&](const CollectiveDiff& d) { return judged(d.judgement); }) ||
      std::any_of(out.phases.begin(), out.phases.end(),
                  [&](const PhaseDiff& d) { return judged(d.judgement); });
  if (!any_compared) {
    out.untested =
        "nothing was compared: no collective or phase row of the runs was tested (every row "
        "untimed, flagged, too short a sample or in one run only)";
  }
  const auto base_ranks = ranks_by_size(base.config);
  const auto cand_ranks = ranks_by_size(cand.config);
  for (const auto& [nranks, count] : base_ranks) {
    const auto it = cand_ranks.find(nranks);
    const std::uint64_t have = it == cand_ranks.end() ? 0 : it->second;
    if (have < count) {
      out.missing.push_back(fmt::format(
          "{}-rank communicators: the candidate has {} (communicator, rank) pair(s), the "
          "baseline {}",
          nranks, have, count));
    }
  }
}

double median_share(const PhaseRow& row) {
  std::vector<double> shares;
  for (const auto& r : row.ranks) shares.push_back(r.share());
  return summarize(shares).p50;
}

void diff_phases(const RunSummary& base, const RunSummary& cand, const NoiseRule& rule,
                 RunDiff& out) {
  std::map<PhaseKey, std::pair<const PhaseRow*, const PhaseRow*>> rows;
  for (const auto& r : base.phases) rows[r.key].first = &r;
  for (const auto& r : cand.phases) rows[r.key].second = &r;
  for (const auto& [key, sides] : rows) {
    const auto [b, c] = sides;
    PhaseDiff d;
    d.key = key;
    d.in_base = b != nullptr;
    d.in_cand = c != nullptr;
    if (b != nullptr) d.base_share = median_share(*b);
    if (c != nullptr) d.cand_share = median_share(*c);
    const auto sampled = [](const PhaseRow& r) {
      return std::any_of(r.ranks.begin(), r.ranks.end(),
                         [](const RankPhase& p) { return !p.span_ns.empty(); });
    };
    if (b != nullptr && c != nullptr && !sampled(*b) && !sampled(*c)) {
      d.judgement.compared = true;
      d.judgement.verdict = Verdict::kNotTested;
      d.judgement.reason = "totals only, no per-span samples";
    } else if (b != nullptr && c != nullptr) {
      d.judgement = judge(rank_samples(*b), rank_samples(*c), rule);
    } else {
      d.judgement.verdict = Verdict::kNotComparable;
      d.judgement.reason = b != nullptr ? "only in baseline" : "only in candidate";
    }
    out.phases.push_back(std::move(d));
  }
}

double last_share(const SyncRank& s) {
  return s.instances == 0 ? 0.0
                          : static_cast<double>(s.arrived_last) / static_cast<double>(s.instances);
}

void diff_sync(const RunSummary& base, const RunSummary& cand, RunDiff& out) {
  std::map<std::pair<std::int32_t, std::int32_t>, std::pair<const SyncRank*, const SyncRank*>> rows;
  for (const auto& r : base.sync) rows[{r.nranks, r.rank}].first = &r;
  for (const auto& r : cand.sync) rows[{r.nranks, r.rank}].second = &r;
  for (const auto& [key, sides] : rows) {
    const auto [b, c] = sides;
    SyncDiff d;
    d.nranks = key.first;
    d.rank = key.second;
    d.in_base = b != nullptr;
    d.in_cand = c != nullptr;
    if (b != nullptr) {
      d.base_skew_ns = b->skew_ns.median();
      d.base_last_share = last_share(*b);
    }
    if (c != nullptr) {
      d.cand_skew_ns = c->skew_ns.median();
      d.cand_last_share = last_share(*c);
    }
    out.sync.push_back(d);
  }
}

}  // namespace

std::string choice_label(const std::string& algo, const std::string& proto) {
  if (algo.empty() && proto.empty()) return "-";
  if (proto.empty()) return algo;
  return fmt::format("{}/{}", algo.empty() ? "?" : algo, proto);
}

std::string CollectiveDiff::label() const {
  return tag == 0 ? collective : fmt::format("{} [tag {}]", collective, tag);
}

RowJudgement judge_durations(const std::vector<RankDurations>& base,
                             const std::vector<RankDurations>& cand, const NoiseRule& rule) {
  return judge(rank_samples(base), rank_samples(cand), rule);
}

RunDiff diff_runs(const RunSummary& base, const RunSummary& cand, const NoiseRule& rule) {
  RunDiff d;
  d.base_inputs = base.inputs;
  d.cand_inputs = cand.inputs;
  d.base_env_files = base.config.env_files;
  d.cand_env_files = cand.config.env_files;
  d.rule = rule;
  d.config = config_differences(base.config, cand.config);
  for (const auto& c : d.config) {
    if (c.cause_candidate) d.causes.push_back(c.describe());
  }
  if (has_tags(base.collectives) && has_tags(cand.collectives)) {
    diff_collectives(base.collectives, cand.collectives, rule, d);
  } else {
    diff_collectives(untagged(base.collectives), untagged(cand.collectives), rule, d);
  }
  diff_phases(base, cand, rule, d);
  run_coverage(base, cand, d);
  diff_sync(base, cand, d);
  return d;
}

VerdictCounts count_verdicts(const RunDiff& diff) {
  VerdictCounts n;
  auto count = [&](Verdict v) {
    switch (v) {
      case Verdict::kRegression:
        ++n.regressions;
        break;
      case Verdict::kImprovement:
        ++n.improvements;
        break;
      case Verdict::kInconclusive:
        ++n.inconclusive;
        break;
      case Verdict::kMissing:
        ++n.missing;
        break;
      case Verdict::kNotComparable:
        ++n.not_comparable;
        break;
      case Verdict::kNotTested:
        ++n.not_tested;
        break;
      case Verdict::kUnchanged:
        ++n.unchanged;
        break;
    }
  };
  for (const auto& r : diff.collectives) count(r.judgement.verdict);
  for (const auto& r : diff.phases) count(r.judgement.verdict);
  return n;
}

std::string FailOn::name() const {
  const std::string empty = allows_empty() ? ",allow-empty" : "";
  if (FailOn(mask_ & ~kAllowEmpty) == any_change()) return "any-change" + empty;
  std::string s;
  for (int v = 0; v < kVerdictCount; ++v) {
    const auto verdict = static_cast<Verdict>(v);
    if (!fails(verdict)) continue;
    std::string word = verdict_name(verdict);
    std::replace(word.begin(), word.end(), ' ', '-');
    s += (s.empty() ? "" : ",") + word;
  }
  return (s.empty() ? "never" : s) + empty;
}

bool should_fail(const RunDiff& diff, FailOn fail_on) {
  if (fail_on.fails(Verdict::kMissing) && !diff.missing.empty()) return true;
  if (!diff.untested.empty() && !fail_on.allows_empty()) return true;
  for (const auto& r : diff.collectives) {
    if (fail_on.fails(r.judgement.verdict)) return true;
  }
  for (const auto& r : diff.phases) {
    if (fail_on.fails(r.judgement.verdict)) return true;
  }
  return false;
}

}  // namespace npkit

// analysis/diff/run_diff.hpp — a baseline and a candidate run compared row by row (the CI gate's
// data). Contract:
// - Config differences first (config_diff.hpp); `causes` are those that are cause candidates.
// - User tags: when both runs carry tags (run_summary.hpp has_tags), rows are keyed and grouped
//   by tag too (a size group below is per tag; CollectiveDiff::tag); otherwise both runs' rows
//   are compared with their tags folded to 0 (run_summary.hpp untagged).
// - Collective rows: a size group is (collective, nranks, size, size kind). Rows of a group with
//   the same (algo, proto) in both runs are compared; a baseline-only row pairs with a
//   candidate-only row of the same group (in key order) as an algorithm/protocol change,
//   "proto LL → SIMPLE" (the reason), and is judged like any other row: the size got slower or
//   faster whatever NCCL chose. A baseline row left without a partner is missing; a candidate
//   row without one is not comparable ("only in candidate").
// - Missing (the gate's fail-safe): a baseline row with a timed instance that the candidate lacks,
//   holds untimed, or holds without one of the baseline's timed ranks. A row untimed in the
//   baseline is not comparable ("untimed in the baseline"), or not tested when the candidate has
//   it untimed too ("untimed in both runs"). A candidate timed on more ranks than the baseline is
//   judged on the baseline's, and its reason says so. A judged row whose side is below the
//   quality floor (row_quality.hpp) keeps its verdict, and its reason says which side and why; so
//   does any row with an incomplete side (its log lost records, row_quality.hpp), whatever its
//   verdict: a rank or instance it lacks may have been lost by the log, not by the run.
//   Run-wide `missing` lines: a candidate without collectives where the baseline has some, and
//   fewer (communicator, rank) pairs of an N-rank
//   communicator size in the candidate than in the baseline.
// - Compared rows: the pooled durations of the ranks both runs have and each shared rank's
//   durations go through compare_samples(). The row is a regression when any of these
//   comparisons is one (the deciding one is the largest slowdown), else an improvement when any
//   is one (the largest speed-up), else inconclusive when the pooled comparison is (the time the
//   row shows moved beyond the threshold, unconfirmed), else unchanged. deciding_rank names the
//   rank when a rank's comparison decided it (kPooled when the pooled one did).
// - Phase rows: matched by (source, domain, phase). Per-span exclusive times ("spans") are
//   compared the same way; rows without samples (proxy-step totals) are never tested, shown for
//   attribution with the median share over ranks. A phase one run lacks is not comparable.
// - Sync rows (arrival skew per (nranks, rank)) are reported, never judged: skews near zero
//   make relative changes meaningless.
// - Clean members only: a summary's samples hold clean members' times (run_summary.hpp). A row
//   either of whose sides has timed instances of which fewer than kQualityFloor have a clean
//   member (RowQuality::too_few_clean) is not comparable, its reason naming the flags; never a
//   regression.
// - Not tested: a compared row with too few samples on a side for the test, untimed in both runs,
//   or a phase row without samples (totals only) is not tested, never unchanged. `untested` says
//   so when no collective or phase row was tested (unchanged, improvement, regression or
//   inconclusive): such a gate fails unless it allows empty (FailOn::allowing_empty,
//   --allow-empty).
// - FailOn: the verdicts that fail the gate; should_fail is true when a collective or phase row
//   has one of them, when missing fails and the run-wide `missing` list is not empty, or when
//   nothing was tested and the gate does not allow empty.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/diff/config_diff.hpp"
#include "analysis/diff/row_quality.hpp"
#include "analysis/diff/sample_comparison.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

inline constexpr std::int32_t kPooled = -1;

struct RankChange {
  std::int32_t rank = 0;
  SampleComparison comparison;
};

// What decides a row: its comparisons folded into one verdict.
struct RowJudgement {
  Verdict verdict = Verdict::kUnchanged;
  std::string reason;             // not comparable: why
  bool compared = false;          // both runs have the row
  SampleComparison pooled;        // when both runs have data
  std::vector<RankChange> ranks;  // ranks both runs have
  std::int32_t deciding_rank = kPooled;
  double deciding_change = 0;  // the deciding comparison's change
};

struct CollectiveDiff {
  std::string collective;
  std::uint64_t tag = 0;  // the rows' user tag when both runs carry tags, else 0
  std::int32_t nranks = 0;
  std::uint64_t size_bytes = 0;
  SizeKind size_kind = SizeKind::kExact;
  std::string base_choice;  // "RING/LL"; "" when the baseline lacks the row
  std::string cand_choice;
  bool in_base = false;
  bool in_cand = false;
  double base_time_ns = 0;  // `bandwidth`'s time (CollectiveRow::time_ns); 0 when unknown
  double cand_time_ns = 0;
  double base_busbw_gbps = 0;  // at that time; 0 when unknown
  double cand_busbw_gbps = 0;
  RowQuality base_quality;  // instances 0 when the run lacks the row
  RowQuality cand_quality;
  RowJudgement judgement;

  // "AllReduce", or "AllReduce [tag 7]" for a tagged row.
  std::string label() const;
};

struct PhaseDiff {
  PhaseKey key;
  bool in_base = false;
  bool in_cand = false;
  double base_share = 0;  // median over ranks
  double cand_share = 0;
  RowJudgement judgement;
};

struct SyncDiff {
  std::int32_t nranks = 0;
  std::int32_t rank = 0;
  bool in_base = false;
  bool in_cand = false;
  double base_skew_ns = 0;  // median
  double cand_skew_ns = 0;
  double base_last_share = 0;  // arrived last / instances
  double cand_last_share = 0;
};

struct RunDiff {
  std::vector<std::string> missing;  // run-wide coverage problems (contract above)
  // Per side, each communicator with ranks that have no data: "baseline: comm X: 3 of 4 ranks
  // have data (none from rank 3)". Said whether or not the other side lacks them too.
  std::vector<std::string> rank_coverage;
  std::string untested;  // why no row was tested ("" when one was): the gate fails then
  std::vector<std::string> base_inputs;
  std::vector<std::string> cand_inputs;
  std::set<std::string> base_env_files;  // where each run's environment came from (RunConfig)
  std::set<std::string> cand_env_files;
  NoiseRule rule;
  std::vector<ConfigDifference> config;
  std::vector<std::string> causes;  // describe() of the cause candidates
  std::vector<CollectiveDiff> collectives;
  std::vector<PhaseDiff> phases;
  std::vector<SyncDiff> sync;
};

// The verdicts that fail the gate (`--fail-on`, `--allow-missing`).
class FailOn {
 public:
  constexpr FailOn() = default;
  static constexpr FailOn none() { return FailOn(); }
  // regression and missing: the default gate.
  static constexpr FailOn fail_safe() {
    return none().with(Verdict::kRegression).with(Verdict::kMissing);
  }
  // Every verdict but unchanged and not tested.
  static constexpr FailOn any_change() {
    FailOn f;
    for (int v = 0; v < kVerdictCount; ++v) f = f.with(static_cast<Verdict>(v));
    return f.without(Verdict::kUnchanged).without(Verdict::kNotTested);
  }
  // A gate in which no row was tested passes (--allow-empty); by default it fails.
  constexpr FailOn allowing_empty() const { return FailOn(mask_ | kAllowEmpty); }
  constexpr bool allows_empty() const { return (mask_ & kAllowEmpty) != 0; }
  constexpr FailOn with(Verdict v) const { return FailOn(mask_ | bit(v)); }
  constexpr FailOn without(Verdict v) const { return FailOn(mask_ & ~bit(v)); }
  constexpr bool fails(Verdict v) const { return (mask_ & bit(v)) != 0; }
  // "regression,missing"; "any-change", "never" for those sets; ",allow-empty" after it when set.
  std::string name() const;
  friend constexpr bool operator==(FailOn, FailOn) = default;

 private:
  constexpr explicit FailOn(std::uint32_t mask) : mask_(mask) {}
  static constexpr std::uint32_t bit(Verdict v) { return 1u << static_cast<unsigned>(v); }
  static constexpr std::uint32_t kAllowEmpty = 1u << 31;
  std::uint32_t mask_ = 0;
};

RunDiff diff_runs(const RunSummary& base, const RunSummary& cand, const NoiseRule& rule);

// Two rows' per-rank durations judged as diff judges a compared collective row (pooled and per
// rank, contract above; the coverage and quality rules aside): `compare` names a best run only
// where this calls every other run a regression against it.
RowJudgement judge_durations(const std::vector<RankDurations>& base,
                             const std::vector<RankDurations>& cand, const NoiseRule& rule);

struct VerdictCounts {
  std::uint64_t regressions = 0;
  std::uint64_t improvements = 0;
  std::uint64_t inconclusive = 0;
  std::uint64_t unchanged = 0;
  std::uint64_t missing = 0;
  std::uint64_t not_comparable = 0;
  std::uint64_t not_tested = 0;
};
VerdictCounts count_verdicts(const RunDiff& diff);  // collective and phase rows

bool should_fail(const RunDiff& diff, FailOn fail_on);

// "RING/LL"; "-" when both are empty.
std::string choice_label(const std::string& algo, const std::string& proto);

}  // namespace npkit

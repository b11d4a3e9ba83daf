// analysis/diff/run_diff.hpp — a baseline and a candidate run compared row by row (the CI gate's
// data). Contract:
// - Config differences first (config_diff.hpp); `causes` are those that are cause candidates.
// - Collective rows: a size group is (collective, nranks, size, size kind). Rows of a group with
//   the same (algo, proto) in both runs are compared; the rest are not comparable: a baseline-
//   only row pairs with a candidate-only row of the same group (in key order) as an algorithm/
//   protocol change, "proto LL → SIMPLE", with the medians and change shown for information;
//   a row left without a partner is "only in baseline" / "only in candidate".
// - Compared rows: the pooled durations of the ranks both runs have (all ranks when they share
//   none) and each shared rank's durations go through compare_samples(). The row is a regression
//   when any of these comparisons is one (the deciding one is the largest slowdown), else an
//   improvement when any is one (the largest speed-up), else unchanged. deciding_rank names the
//   rank when a rank's comparison decided it (kPooled when the pooled one did).
// - Phase rows: matched by (source, domain, phase). Per-span exclusive times ("spans") are
//   compared the same way; rows without samples (proxy-step totals) are never tested, shown for
//   attribution with the median share over ranks.
// - Sync rows (arrival skew per (nranks, rank)) are reported, never judged: skews near zero
//   make relative changes meaningless.
// - should_fail: kRegression — any regression row; kAnyChange — any collective or phase row whose
//   verdict is not unchanged; kNever — never.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diff/config_diff.hpp"
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
  RowJudgement judgement;
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
  std::vector<std::string> base_inputs;
  std::vector<std::string> cand_inputs;
  NoiseRule rule;
  std::vector<ConfigDifference> config;
  std::vector<std::string> causes;  // describe() of the cause candidates
  std::vector<CollectiveDiff> collectives;
  std::vector<PhaseDiff> phases;
  std::vector<SyncDiff> sync;
};

enum class FailOn : std::uint8_t { kRegression, kAnyChange, kNever };

RunDiff diff_runs(const RunSummary& base, const RunSummary& cand, const NoiseRule& rule);

struct VerdictCounts {
  std::uint64_t regressions = 0;
  std::uint64_t improvements = 0;
  std::uint64_t unchanged = 0;
  std::uint64_t not_comparable = 0;
};
VerdictCounts count_verdicts(const RunDiff& diff);  // collective and phase rows

bool row_fails(Verdict verdict, FailOn fail_on);
bool should_fail(const RunDiff& diff, FailOn fail_on);

// "RING/LL"; "-" when both are empty.
std::string choice_label(const std::string& algo, const std::string& proto);

}  // namespace npkit

// analysis/diff/run_compare.hpp — N runs side by side (a tuning sweep): per size, which run is
// fastest. Contract:
// - Rows are size groups (collective, nranks, size, size kind) present in any run. A run's cell
//   pools every (algo, proto, user tag) row of that group per rank: its time as `bandwidth`
//   defines it (each rank's median GPU time, mean over ranks), busbw at that time, its distinct
//   choices (most instances first, "+"-joined).
// - best = the run with the lowest time (the first on a tie), named only where `diff`'s noise
//   rule (NoiseRule{}: its default threshold) calls every other run a regression against it
//   (judge_durations, run_diff.hpp, on the cells' per-rank samples): a difference `diff` would
//   call unchanged or inconclusive names no best (`no_difference` says which run is fastest and
//   which does not differ from it beyond noise). Every other cell's change is relative to the
//   best. Runs without the group have an empty cell. A group that some run lacks, or holds
//   without a timed instance, with too few unflagged instances (not comparable: its times are
//   flagged, RowQuality::too_few_clean), below the quality floor or incomplete (row_quality.hpp),
//   has no
//   best either (`unranked` says which run and why): a time cannot win against a missing or
//   doubtful one.
// - Settings: the configuration keys whose values differ between runs (config_diff.hpp's
//   comparison of run 0 with each other run), with each run's value; only cause candidates
//   (not hosts, not paths such as dump directories).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/diff/row_quality.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit {

struct CompareCell {
  bool present = false;
  std::string choice;
  std::uint64_t count = 0;
  double time_ns = 0;  // `bandwidth`'s time: each rank's median, mean over ranks
  double busbw_gbps = 0;
  RowQuality quality;                // of the group's rows in this run
  std::vector<RankDurations> ranks;  // per rank, the samples of every row of the group
};

struct CompareRow {
  std::string collective;
  std::int32_t nranks = 0;
  std::uint64_t size_bytes = 0;
  SizeKind size_kind = SizeKind::kExact;
  std::vector<CompareCell> runs;  // parallel to the runs
  std::optional<std::size_t> best;
  std::string unranked;  // why no run is best ("" when one is, or no run has a time)
  // Why no run is best though every run is ranked: the fastest does not differ beyond noise
  // from another ("" otherwise).
  std::string no_difference;
};

struct RunSetting {
  std::string what;
  std::vector<std::string> values;  // parallel to the runs
};

struct RunComparison {
  std::vector<std::string> labels;  // one per run (its inputs)
  std::vector<RunSetting> settings;
  std::vector<CompareRow> rows;
  std::vector<std::uint64_t> wins;  // per run: rows where it is best
};

RunComparison compare_runs(const std::vector<RunSummary>& runs);

}  // namespace npkit

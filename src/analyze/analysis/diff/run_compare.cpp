#include "analysis/diff/run_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/diff/config_diff.hpp"
#include "analysis/diff/run_diff.hpp"

namespace npkit {
namespace {

using SizeGroup = std::tuple<std::string, std::int32_t, std::uint64_t, SizeKind>;

CompareCell cell_of(const std::vector<const CollectiveRow*>& rows) {
  CompareCell cell;
  if (rows.empty()) return cell;
  cell.present = true;
  cell.quality = quality_of(rows);
  std::vector<const CollectiveRow*> by_instances = rows;
  std::stable_sort(
      by_instances.begin(), by_instances.end(),
      [](const CollectiveRow* a, const CollectiveRow* b) { return a->instances > b->instances; });
  CollectiveRow merged;  // every row's samples, per rank
  double bytes = 0;
  std::uint64_t instances = 0;
  std::vector<std::string> choices;  // rows of several user tags may share one
  for (const CollectiveRow* r : by_instances) {
    const std::string choice = choice_label(r->key.algo, r->key.proto);
    if (std::find(choices.begin(), choices.end(), choice) == choices.end()) {
      cell.choice += (choices.empty() ? "" : "+") + choice;
      choices.push_back(choice);
    }
    for (const auto& rank : r->ranks) merged.rank_sample(rank.rank).merge(rank.time_ns);
    bytes += static_cast<double>(r->bytes_sum);
    instances += r->instances;
  }
  cell.count = merged.pooled().count();
  cell.ranks = std::move(merged.ranks);
  if (cell.count == 0) return cell;
  cell.time_ns = mean_rank_median_ns(cell.ranks);
  const double mean_bytes = instances == 0 ? 0.0 : bytes / static_cast<double>(instances);
  cell.busbw_gbps = row_busbw_gbps(rows.front()->key, mean_bytes, cell.time_ns);
  return cell;
}

std::vector<RunSetting> settings_of(const std::vector<RunSummary>& runs) {
  std::vector<RunSetting> settings;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    for (const auto& d : config_differences(runs[0].config, runs[i].config)) {
      if (!d.cause_candidate) continue;
      auto it = std::find_if(settings.begin(), settings.end(),
                             [&](const RunSetting& s) { return s.what == d.what; });
      if (it == settings.end()) {
        it = settings.insert(settings.end(), RunSetting{d.what, {}});
        it->values.assign(runs.size(), "");
      }
      it->values[0] = d.base;
      it->values[i] = d.cand;
    }
  }
  // Runs equal to run 0 in a setting take its value.
  for (auto& s : settings) {
    for (auto& v : s.values) {
      if (v.empty()) v = s.values[0];
    }
  }
  return settings;
}

// Keeps the row's best only where diff's rule calls every other run a regression against it,
// the runs closest to it first (contract in the header).
void check_difference(CompareRow& row) {
  const std::size_t best = *row.best;
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < row.runs.size(); ++i) {
    if (i != best) others.push_back(i);
  }
  std::stable_sort(others.begin(), others.end(), [&](std::size_t a, std::size_t b) {
    return row.runs[a].time_ns < row.runs[b].time_ns;
  });
  for (const std::size_t i : others) {
    const RowJudgement j = judge_durations(row.runs[best].ranks, row.runs[i].ranks, NoiseRule{});
    if (j.verdict == Verdict::kRegression) continue;
    row.no_difference = fmt::format(
        "run [{}] is fastest, but run [{}] ({:+.1f}%) is not slower beyond noise (diff: {})",
        best + 1, i + 1, 100.0 * j.pooled.change, verdict_name(j.verdict));
    row.best.reset();
    return;
  }
}

}  // namespace

RunComparison compare_runs(const std::vector<RunSummary>& runs) {
  RunComparison c;
  for (const auto& r : runs) c.labels.push_back(fmt::format("{}", fmt::join(r.inputs, ", ")));
  c.settings = settings_of(runs);
  c.wins.assign(runs.size(), 0);
  std::map<SizeGroup, std::vector<std::vector<const CollectiveRow*>>> groups;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const auto& row : runs[i].collectives) {
      auto& per_run =
          groups[{row.key.collective, row.key.nranks, row.key.size_bytes, row.key.size_kind}];
      per_run.resize(runs.size());
      per_run[i].push_back(&row);
    }
  }
  for (const auto& [group, per_run] : groups) {
    CompareRow row;
    std::tie(row.collective, row.nranks, row.size_bytes, row.size_kind) = group;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      row.runs.push_back(cell_of(per_run[i]));
      const CompareCell& cell = row.runs.back();
      if (cell.count == 0) continue;
      if (!row.best || cell.time_ns < row.runs[*row.best].time_ns) row.best = i;
    }
    for (std::size_t i = 0; i < row.runs.size() && row.best; ++i) {
      const CompareCell& cell = row.runs[i];
      if (!cell.present) {
        row.unranked = fmt::format("run [{}] lacks the size", i + 1);
      } else if (cell.count == 0) {
        row.unranked = fmt::format("run [{}] has no timed instance", i + 1);
      } else if (cell.quality.too_few_clean()) {
        row.unranked = fmt::format("run [{}] is not comparable: flagged times ({})", i + 1,
                                   cell.quality.flag_text());
      } else if (cell.quality.below_floor()) {
        row.unranked =
            fmt::format("run [{}] is below the quality floor ({})", i + 1, cell.quality.text());
      } else if (cell.quality.is_incomplete()) {
        row.unranked = fmt::format("run [{}] is incomplete: its log lost records ({})", i + 1,
                                   cell.quality.text());
      } else {
        continue;
      }
      row.best.reset();
    }
    if (row.best) check_difference(row);
    if (row.best) ++c.wins[*row.best];
    c.rows.push_back(std::move(row));
  }
  return c;
}

}  // namespace npkit

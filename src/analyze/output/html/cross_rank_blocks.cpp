#include "output/html/cross_rank_blocks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "output/html/heatmap.hpp"
#include "output/html/svg.hpp"
#include "output/render.hpp"
#include "util/readable_duration.hpp"

namespace npkit::html {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Heatmaps {
  Heatmap lateness;
  Heatmap wait;
};

Heatmaps heatmaps(const CrossRankAnalysis& a) {
  Heatmaps h;
  const std::size_t nranks = static_cast<std::size_t>(std::max(a.input.nranks, 0));
  for (Heatmap* m : {&h.lateness, &h.wait}) {
    m->unit = Unit::kNanoseconds;
    m->row_axis = "rank";
    m->column_axis = "collective instance (start order, from 0)";
    for (std::size_t r = 0; r < nranks; ++r) m->rows.push_back(fmt::format("rank {}", r));
    m->values.assign(nranks, std::vector<double>(a.input.instances.size(), kNaN));
  }
  for (std::size_t i = 0; i < a.input.instances.size(); ++i) {
    const JoinedInstance& inst = a.input.instances[i];
    const std::string label =
        fmt::format("#{} {}, {}", i, inst.label, format_bytes(static_cast<double>(inst.bytes)));
    h.lateness.columns.push_back(label);
    h.wait.columns.push_back(label);
    if (inst.ranks.size() < 2) continue;
    // Epoch nanoseconds do not fit a double exactly (1.7e18 is 2^60: 256 ns steps): differences
    // are taken in integers first, against the instance's earliest start.
    std::int64_t base = inst.ranks.front().start_ns;
    for (const auto& r : inst.ranks) base = std::min(base, r.start_ns);
    auto arrival_of = [&](const RankTimes& r) {
      return static_cast<double>(r.start_ns - base) + a.alignment.offset_of(r.rank);
    };
    double first = std::numeric_limits<double>::infinity();
    double last = -first;
    for (const auto& r : inst.ranks) {
      first = std::min(first, arrival_of(r));
      last = std::max(last, arrival_of(r));
    }
    for (const auto& r : inst.ranks) {
      if (r.rank < 0 || static_cast<std::size_t>(r.rank) >= nranks) continue;
      const double arrival = arrival_of(r);
      const double duration = static_cast<double>(std::max<std::int64_t>(0, r.end_ns - r.start_ns));
      const auto row = static_cast<std::size_t>(r.rank);
      h.lateness.values[row][i] = arrival - first;
      h.wait.values[row][i] = std::clamp(last - arrival, 0.0, duration);
    }
  }
  return h;
}

TextTable rank_table(const CrossRankAnalysis& a) {
  TextTable t;
  t.title = "Per rank: arrivals and waits";
  t.columns = {
      "rank",          "host",      "instances", "arrived last", "median skew (us)",
      "max skew (us)", "wait (us)", "busy (us)", "wait share",   "median margin when last (us)"};
  for (const auto& r : a.sync.ranks) {
    std::string host;
    for (const auto& info : a.input.ranks) {
      if (info.rank == r.rank) host = info.host;
    }
    t.add_row({std::to_string(r.rank), host.empty() ? "-" : host, std::to_string(r.instances),
               fmt::format("{} ({})", r.arrived_last, percent(r.arrived_last_share)),
               us(r.skew_median_ns), us(static_cast<double>(r.skew_max_ns)),
               us(static_cast<double>(r.wait_ns)), us(static_cast<double>(r.busy_ns)),
               percent(r.wait_share), r.arrived_last > 0 ? us(r.margin_median_ns) : "-"});
  }
  return t;
}

TextTable collective_table(const CrossRankAnalysis& a) {
  TextTable t;
  t.title = "Per collective: arrival spread, true duration, waits";
  t.columns = {"collective",
               "instances",
               "median spread (us)",
               "max spread (us)",
               "median true duration (us)",
               "wait over ranks (us)"};
  for (const auto& c : a.sync.collectives) {
    t.add_row({c.collective, std::to_string(c.instances), us(c.spread_median_ns),
               us(static_cast<double>(c.spread_max_ns)), us(c.true_duration_median_ns),
               us(static_cast<double>(c.wait_ns))});
  }
  return t;
}

}  // namespace

std::vector<Block> cross_rank_blocks(const CrossRankAnalysis& a,
                                     std::vector<std::string>& reduction, std::size_t max_columns,
                                     std::size_t max_rows) {
  std::vector<Block> out;
  std::string alignment = "Clocks across hosts: " + a.alignment.status_name() + ".";
  if (a.alignment.same_host_violations > 0) {
    alignment += fmt::format(
        " {} instance(s) where a rank completed before another rank of its "
        "host arrived (up to {}): clocks or data are off there.",
        a.alignment.same_host_violations,
        format_duration(static_cast<double>(a.alignment.same_host_violation_max_ns)));
  }
  if (a.sync.violations > 0) {
    alignment += fmt::format(" {} instance(s) with a negative true duration.", a.sync.violations);
  }
  out.emplace_back(
      Paragraph{std::string(a.input.scope) + ": " + a.input.time_source + ". " + alignment});
  if (a.input.instances.empty()) {
    out.emplace_back(Paragraph{"No collective instance was joined across ranks."});
  } else {
    Heatmaps h = heatmaps(a);
    const std::size_t n = a.input.instances.size();
    const auto instance_range = [](std::size_t first, std::size_t last) {
      return fmt::format("#{} … #{} ({} instances)", first, last, last - first + 1);
    };
    const auto rank_range = [](std::size_t first, std::size_t last) {
      return fmt::format("ranks {}–{}", first, last);
    };
    const std::size_t per = bucket_columns(h.lateness, max_columns, instance_range);
    bucket_columns(h.wait, max_columns, instance_range);
    const std::size_t ranks_per = bucket_rows(h.lateness, max_rows, rank_range);
    bucket_rows(h.wait, max_rows, rank_range);
    std::string bucketed =
        per > 1 ? fmt::format(
                      " {} instances are too many for one column each: a column is {} "
                      "consecutive instances and shows the largest value among them.",
                      n, per)
                : std::string();
    if (ranks_per > 1) {
      bucketed +=
          fmt::format(" A row is {} consecutive ranks (largest value among them).", ranks_per);
    }
    if (per > 1) {
      reduction.push_back(
          fmt::format("{}: the lateness and wait heatmaps bucket {} instances "
                      "into {} columns of {} (largest value per column).",
                      a.input.scope, n, h.lateness.columns.size(), per));
    }
    if (ranks_per > 1) {
      reduction.push_back(
          fmt::format("{}: the heatmaps show {} ranks as {} rows of {} (largest "
                      "value per row).",
                      a.input.scope, a.input.nranks, h.lateness.rows.size(), ranks_per));
    }
    h.lateness.title = "Lateness per rank and collective instance (" + a.input.scope + ")";
    h.lateness.note =
        "A cell is the rank's arrival minus the first rank's arrival at that "
        "instance: a straggler shows as a dark row. Grey: the rank has no time "
        "there, or fewer than two ranks do." +
        bucketed;
    h.wait.title = "Wait per rank and collective instance (" + a.input.scope + ")";
    h.wait.note =
        "A cell is the time the rank waits for the last arrival, capped by its own "
        "duration: the ranks that wait for a straggler show dark." +
        bucketed;
    out.emplace_back(std::move(h.lateness));
    out.emplace_back(std::move(h.wait));
  }
  const std::string order = fmt::format("{}", fmt::join(a.sync.straggler_order, ", "));
  out.emplace_back(Table{rank_table(a), order.empty() ? std::string()
                                                      : "Straggler order (arrived last most "
                                                        "often first): " +
                                                            order + "."});
  out.emplace_back(Table{collective_table(a), {}});
  if (a.alignment.hosts.size() > 1) {
    TextTable t;
    t.title = "Host clock offsets (added to each host's times)";
    t.columns = {"host", "ranks", "reference", "linked", "offset (us)", "± (us)", "instances"};
    for (const auto& h : a.alignment.hosts) {
      t.add_row({h.host, std::to_string(h.ranks.size()), h.reference ? "yes" : "no",
                 h.linked ? "yes" : "no", us(h.offset_ns), us(h.uncertainty_ns),
                 std::to_string(h.instances)});
    }
    out.emplace_back(Table{std::move(t), {}});
  }
  if (!a.imbalance.empty()) {
    TextTable t;
    t.title = "Phase imbalance across ranks";
    t.columns = {"phase",    "ranks",        "min (us)", "median (us)", "max (us)",
                 "max rank", "max / median", "cv",       "share"};
    for (const auto& p : a.imbalance) {
      t.add_row({p.phase, std::to_string(p.ranks), us(static_cast<double>(p.min_ns)),
                 us(p.median_ns), us(static_cast<double>(p.max_ns)), std::to_string(p.max_rank),
                 fmt::format("{:.3f}", p.max_over_median), fmt::format("{:.3f}", p.cv),
                 percent(p.share)});
    }
    out.emplace_back(Table{std::move(t), {}});
  }
  if (!a.input.gaps.empty()) {
    TextTable t;
    t.title = "Join gaps (left out of the analysis, never guessed)";
    t.columns = {"scope", "kind", "detail"};
    for (const auto& g : a.input.gaps) t.add_row({g.scope, g.kind, g.detail});
    out.emplace_back(Table{std::move(t), {}});
  }
  return out;
}

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A finding's number as a person reads it: "margin median: 2.254 ms" for margin_median_ns,
// shares as percentages, GB/s with its unit.
std::string readable_number(std::string_view name, double value) {
  std::string shown;
  std::string_view words = name;
  if (ends_with(name, "_ns")) {
    words.remove_suffix(3);
    shown = readable_duration(value);
  } else if (ends_with(name, "_gbps")) {
    words.remove_suffix(5);
    shown = npkit::gbps(value) + " GB/s";
  } else if (ends_with(name, "share")) {
    shown = npkit::percent(value);
  } else {
    shown = format_number(value);
  }
  std::string label(words);
  std::replace(label.begin(), label.end(), '_', ' ');
  return label + ": " + shown;
}

}  // namespace

FindingList finding_list(const std::vector<npkit::Finding>& findings) {
  FindingList list;
  list.empty_text =
      "No finding: no diagnosis rule's thresholds were crossed (docs/phases.md, "
      "\"Diagnosis\").";
  for (const auto& f : findings) {
    Finding out;
    out.severity = f.rule;
    out.title = f.summary;
    out.evidence.push_back("scope: " + f.scope);
    for (const auto& [name, value] : f.numbers) {
      out.evidence.push_back(readable_number(name, value));
    }
    out.next_step = f.next_step;
    list.findings.push_back(std::move(out));
  }
  return list;
}

}  // namespace npkit::html

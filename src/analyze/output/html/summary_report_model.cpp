#include "output/html/summary_report_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/diff/run_diff.hpp"
#include "output/html/bandwidth_blocks.hpp"
#include "output/html/svg.hpp"
#include "output/render.hpp"
#include "run/measures.hpp"

namespace npkit::html {
namespace {

std::string joined(const std::set<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s.empty() ? "(not recorded)" : s;
}

std::vector<Fact> facts(const RunSummary& s) {
  std::vector<Fact> out = {
      {"inputs", fmt::format("{}", fmt::join(s.inputs, ", "))},
      {"formats", joined(s.config.formats)},
      {"NCCL", joined(s.config.nccl_versions)},
      {"GPUs", joined(s.config.gpus)},
      {"hosts", fmt::format("{} ({})", s.config.hosts.size(), joined(s.config.hosts))},
      {"ranks", fmt::format("{} in {} communicator(s), {} file(s)", s.config.rank_count(),
                            s.config.communicators.size(), s.config.files)},
      {"warnings", fmt::format("{} while summarizing", s.warnings)},
  };
  for (const auto& [name, values] : s.config.env) out.push_back({name, joined(values)});
  return out;
}

PlotSeries& series_of(std::vector<PlotSeries>& series, const std::string& name) {
  for (auto& s : series) {
    if (s.name == name) return s;
  }
  series.push_back(PlotSeries{name, {}});
  return series.back();
}

// Rows of one (collective, nranks), in size order.
void collective_blocks(const std::vector<const CollectiveRow*>& rows, std::vector<Block>& out) {
  const CollectiveKey& first = rows.front()->key;
  const std::string who = fmt::format("{} on {} ranks", first.collective, first.nranks);
  const bool has_busbw = bus_factor(first.collective, first.nranks).has_value();
  const std::string note =
      "One point per (size, algo/proto); time = each rank's median GPU time per instance, mean "
      "over ranks (as `bandwidth`), busbw by nccl-tests' conventions from it. Sizes summarized as "
      "power-of-two "
      "buckets are drawn at the bucket's lower bound.";
  LinePlot bw =
      size_plot(who + ": bus bandwidth vs size", note, YAxis::kLinear, Unit::kGbps, "busbw (GB/s)");
  LinePlot lat = size_plot(who + ": time vs size", note, YAxis::kLog10, Unit::kNanoseconds,
                           "time per operation");
  TextTable table;
  table.title = who + ": rows";
  table.columns = {"size (B)",  "algo/proto", "instances", "ranks",
                   "time (us)", "min (us)",   "max (us)",  "busbw (GB/s)"};
  std::string previous_choice;
  for (const CollectiveRow* row : rows) {
    const DurationSample pooled = row->pooled();
    const std::string choice = choice_label(row->key.algo, row->key.proto);
    const double time = row->time_ns();
    const double size = static_cast<double>(row->key.size_bytes);
    const double busbw = busbw_gbps(first.collective, first.nranks, size, time);
    table.add_row({size_label(row->key.size_bytes, row->key.size_kind), choice,
                   std::to_string(row->instances), std::to_string(row->ranks.size()),
                   time > 0 ? us(time) : "-", pooled.count() > 0 ? us(pooled.quantile(0)) : "-",
                   pooled.count() > 0 ? us(pooled.quantile(1)) : "-", gbps_or_dash(busbw)});
    if (pooled.count() == 0) continue;
    const std::string detail =
        fmt::format("{} instance(s) on {} rank(s)", row->instances, row->ranks.size());
    series_of(bw.series, choice).points.push_back({size, busbw, detail});
    series_of(lat.series, choice).points.push_back({size, time, detail});
    if (!previous_choice.empty() && choice != previous_choice) {
      bw.markers.push_back({size, previous_choice + " → " + choice});
      lat.markers.push_back({size, previous_choice + " → " + choice});
    }
    previous_choice = choice;
  }
  if (has_busbw) out.emplace_back(std::move(bw));
  out.emplace_back(std::move(lat));
  out.emplace_back(Table{std::move(table), {}});
}

Section bandwidth_section(const RunSummary& s) {
  Section section{"bandwidth", "Bandwidth and latency vs size", {}};
  std::map<std::tuple<std::string, std::int32_t>, std::vector<const CollectiveRow*>> groups;
  for (const auto& row : s.collectives) {
    groups[{row.key.collective, row.key.nranks}].push_back(&row);
  }
  for (auto& [key, rows] : groups) {
    std::stable_sort(rows.begin(), rows.end(), [](const CollectiveRow* a, const CollectiveRow* b) {
      return a->key.size_bytes < b->key.size_bytes;
    });
    collective_blocks(rows, section.blocks);
  }
  if (groups.empty()) section.blocks.emplace_back(Paragraph{"The summary has no collective row."});
  return section;
}

Section phase_section(const RunSummary& s) {
  Section section{"phases", "Phases per rank", {}};
  std::map<std::tuple<std::string, std::string>, StackedBars> bars;
  std::map<std::tuple<std::string, std::string>, std::set<std::int32_t>> ranks;
  for (const auto& row : s.phases) {
    for (const auto& r : row.ranks) ranks[{row.key.source, row.key.domain}].insert(r.rank);
  }
  for (const auto& row : s.phases) {
    const auto group = std::make_tuple(row.key.source, row.key.domain);
    auto [it, fresh] = bars.try_emplace(group);
    StackedBars& b = it->second;
    const std::set<std::int32_t>& group_ranks = ranks[group];
    if (fresh) {
      b.title = fmt::format("{} time per rank by phase ({})", row.key.domain,
                            row.key.source == "proxy" ? "proxy steps" : "spans");
      b.note =
          "Each rank's total time per phase, summed over the summarized runs (exclusive span "
          "time for NPKit dumps, step time for NET proxy steps).";
      for (std::int32_t r : group_ranks) {
        b.bars.push_back(fmt::format("rank {}", r));
        b.values.emplace_back();
      }
    }
    b.segments.push_back(row.key.phase);
    std::size_t i = 0;
    for (std::int32_t r : group_ranks) {
      double ns = 0;
      for (const auto& rp : row.ranks) {
        if (rp.rank == r) ns = static_cast<double>(rp.ns);
      }
      b.values[i++].push_back(ns);
    }
  }
  for (auto& [key, b] : bars) section.blocks.emplace_back(std::move(b));
  if (bars.empty()) section.blocks.emplace_back(Paragraph{"The summary has no phase row."});
  return section;
}

Section wait_section(const RunSummary& s) {
  Section section{"waits", "Arrival skew per rank", {}};
  if (s.sync.empty()) {
    section.blocks.emplace_back(Paragraph{"No collective instance was timed on two ranks."});
    return section;
  }
  Table t;
  t.table.columns = {"ranks",         "rank",          "instances",
                     "skew p50 (us)", "skew max (us)", "arrived last"};
  for (const auto& r : s.sync) {
    const double last =
        r.instances > 0 ? 100.0 * static_cast<double>(r.arrived_last) / r.instances : 0.0;
    t.table.add_row({std::to_string(r.nranks), std::to_string(r.rank), std::to_string(r.instances),
                     us(r.skew_ns.median()), us(r.skew_ns.quantile(1)),
                     fmt::format("{:.1f}%", last)});
  }
  t.note = "Skew = the rank's GPU start minus the earliest rank's, per instance.";
  section.blocks.emplace_back(std::move(t));
  return section;
}

}  // namespace

ReportModel build_summary_report_model(const RunSummary& summary) {
  ReportModel m;
  m.title = fmt::format("npkit-analyze report: summary of {}", fmt::join(summary.inputs, ", "));
  m.subtitle = "npkit summary (summarize)";
  m.facts = facts(summary);
  m.sections.push_back(bandwidth_section(summary));
  m.sections.push_back(phase_section(summary));
  m.sections.push_back(wait_section(summary));
  return m;
}

}  // namespace npkit::html

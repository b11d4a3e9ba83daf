// `npkit-analyze report PATH`: per-rank phase breakdown with the spread across ranks.
#include <fmt/format.h>

#include <memory>

#include "commands/command.hpp"
#include "commands/html_report.hpp"
#include "commands/npkt_input.hpp"
#include "phases/phase_breakdown.hpp"
#include "render/text_table.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

struct Totals {
  std::int64_t gpu = 0;
  std::int64_t cpu = 0;
};

Totals reference_totals(const std::vector<RankPhases>& ranks) {
  Totals t;
  for (const auto& r : ranks) {
    t.gpu = sat_add(t.gpu, r.gpu_reference_ns);
    t.cpu = sat_add(t.cpu, r.cpu_reference_ns);
  }
  return t;
}

TextTable spread_table(const std::vector<PhaseSpread>& spreads, const Totals& totals,
                       const TimeScale& ms) {
  TextTable t;
  t.columns = {"phase",
               "domain",
               "count",
               ms.header("total"),
               "share",
               ms.header("rank min"),
               ms.header("median"),
               ms.header("max"),
               "slowest rank"};
  for (const auto& s : spreads) {
    t.add_row({s.phase, s.gpu ? "gpu" : "cpu", std::to_string(s.count), ms(s.total_ns),
               percent(share(s.total_ns, s.gpu ? totals.gpu : totals.cpu)), ms(s.min_ns),
               ms(s.median_ns), ms(s.max_ns), std::to_string(s.slowest_rank)});
  }
  return t;
}

// Machine-readable: integer nanoseconds and shares as fractions.
TextTable spread_csv(const std::vector<PhaseSpread>& spreads, const Totals& totals) {
  TextTable t;
  t.columns = {"phase",       "domain",         "count",       "total_ns",    "share",
               "rank_min_ns", "rank_median_ns", "rank_max_ns", "slowest_rank"};
  for (const auto& s : spreads) {
    t.add_row({s.phase, s.gpu ? "gpu" : "cpu", std::to_string(s.count), std::to_string(s.total_ns),
               fmt::format("{:.6f}", share(s.total_ns, s.gpu ? totals.gpu : totals.cpu)),
               std::to_string(s.min_ns), std::to_string(s.median_ns), std::to_string(s.max_ns),
               std::to_string(s.slowest_rank)});
  }
  return t;
}

TextTable rank_table(const std::vector<RankPhases>& ranks, const std::vector<PhaseSpread>& spreads,
                     const PhaseAssignment& phases, const TimeScale& ms) {
  TextTable t;
  t.columns = {"rank", ms.header("collective")};
  std::vector<std::uint16_t> ids;
  for (const auto& s : spreads) {
    if (!s.gpu) continue;
    for (std::size_t p = 0; p < phases.phase_names.size(); ++p) {
      if (phases.phase_names[p] == s.phase) ids.push_back(static_cast<std::uint16_t>(p));
    }
    t.columns.push_back(s.phase);
  }
  for (const auto& r : ranks) {
    std::vector<std::string> row = {std::to_string(r.rank), ms(r.gpu_reference_ns)};
    for (auto p : ids) {
      row.push_back(
          fmt::format("{} ({})", ms(r.gpu[p].ns), percent(share(r.gpu[p].ns, r.gpu_reference_ns))));
    }
    t.add_row(std::move(row));
  }
  return t;
}

void write_json(const LoadedDump& d, const PhaseBreakdownSink& sink,
                const std::vector<PhaseSpread>& spreads, const CommonOptions& o, std::string& out) {
  const Totals totals = reference_totals(sink.ranks());
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.report");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.field("event_table", d.dump.table.label());
  w.field("gpu_collective_ns", totals.gpu);
  w.field("cpu_span_ns", totals.cpu);
  std::int64_t other = 0;
  for (const auto& s : spreads) {
    if (s.gpu && s.phase == "other") other = s.total_ns;
  }
  w.field("gpu_explained_share",
          totals.gpu > 0 ? share(sat_sub(totals.gpu, other), totals.gpu) : 0.0);
  w.key("phases");
  w.begin_array();
  for (const auto& s : spreads) {
    w.begin_object();
    w.field("name", s.phase);
    w.field("domain", s.gpu ? "gpu" : "cpu");
    w.field("count", s.count);
    w.field("total_ns", s.total_ns);
    w.field("share", share(s.total_ns, s.gpu ? totals.gpu : totals.cpu));
    w.field("rank_min_ns", s.min_ns);
    w.field("rank_median_ns", s.median_ns);
    w.field("rank_max_ns", s.max_ns);
    w.field("slowest_rank", s.slowest_rank);
    w.end_object();
  }
  w.end_array();
  w.key("ranks");
  w.begin_array();
  for (const auto& r : sink.ranks()) {
    w.begin_object();
    w.field("rank", r.rank);
    w.field("gpu_collective_ns", r.gpu_reference_ns);
    w.field("cpu_span_ns", r.cpu_reference_ns);
    w.key("phases");
    w.begin_array();
    for (const bool gpu : {true, false}) {
      const auto& totals_by_phase = gpu ? r.gpu : r.cpu;
      for (std::size_t p = 0; p < totals_by_phase.size(); ++p) {
        if (totals_by_phase[p].ns == 0 && totals_by_phase[p].count == 0) continue;
        w.begin_object();
        w.field("name", d.phases.phase_names[p]);
        w.field("domain", gpu ? "gpu" : "cpu");
        w.field("ns", totals_by_phase[p].ns);
        w.field("share",
                share(totals_by_phase[p].ns, gpu ? r.gpu_reference_ns : r.cpu_reference_ns));
        w.field("count", totals_by_phase[p].count);
        w.end_object();
      }
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  write_warnings_json(w, d.diagnostics);
  w.end_object();
}

void write_text(const LoadedDump& d, const PhaseBreakdownSink& sink,
                const std::vector<PhaseSpread>& spreads, const CommonOptions& o, std::string& out) {
  const Totals totals = reference_totals(sink.ranks());
  std::int64_t other = 0;
  for (const auto& s : spreads) {
    if (s.gpu && s.phase == "other") other = s.total_ns;
  }
  out += fmt::format("{}: {} rank(s), event table {}\n", o.path, sink.ranks().size(),
                     d.dump.table.label());
  const TimeScale ms = time_scale_for(std::max(totals.gpu, totals.cpu));
  out += fmt::format(
      "GPU collective time {} {} (top-level spans summed over buffers); phases explain {}",
      ms(totals.gpu), ms.unit, percent(share(sat_sub(totals.gpu, other), totals.gpu)));
  out += totals.cpu > 0 ? fmt::format("; CPU proxy span time {} {}\n\n", ms(totals.cpu), ms.unit)
                        : "\n\n";
  TextTable spread = spread_table(spreads, totals, ms);
  spread.title = "Phases (exclusive time; share of the domain's time; spread of per-rank totals)";
  render_text(spread, out);
  out += "\n";
  TextTable ranks = rank_table(sink.ranks(), spreads, d.phases, ms);
  ranks.title = "Per rank (GPU)";
  render_text(ranks, out);
}

Result<int> run_report(const CommonOptions& o, CliContext& context) {
  if (output_format(o) == OutputFormat::kHtml) return run_html_report(o, context);
  if (is_npkt_input(o.path)) return run_npkt_report(o, context);
  auto loaded = load_dump(o, context);
  if (!loaded) return loaded.error();
  auto merged = read_merged<PhaseBreakdownSink>(*loaded, o,
                                                [&] { return PhaseBreakdownSink(loaded->phases); });
  if (!merged) return merged.error();
  const PhaseBreakdownSink& sink = *merged;
  if (sink.clamped_spans() > 0) {
    loaded->diagnostics.warn(
        "overlapping children",
        std::to_string(sink.clamped_spans()) +
            " span(s) end before their nested events; their own time counts as 0",
        sink.clamped_spans());
  }
  const auto spreads = phase_spreads(sink.ranks(), loaded->phases);
  std::string text;
  switch (output_format(o)) {
    case OutputFormat::kJson:
      write_json(*loaded, sink, spreads, o, text);
      break;
    case OutputFormat::kCsv:
      render_csv(spread_csv(spreads, reference_totals(sink.ranks())), text);
      break;
    case OutputFormat::kTable:
      write_text(*loaded, sink, spreads, o, text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace

void register_report(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Per-rank phase breakdown: reduce-scatter, all-gather, sync, ...");
  add_common_options(*cmd, *options);
  add_html_report_options(*cmd);
  cmd->callback([options, &context] { context.outcome = run_report(*options, context); });
}

}  // namespace npkit::cli

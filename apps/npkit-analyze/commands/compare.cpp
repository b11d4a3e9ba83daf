// `npkit-analyze compare RUN...`: runs side by side (a tuning sweep), the best run per size and
// the settings that differ between runs.
#include <fmt/format.h>

#include <memory>

#include "analysis/diff/run_compare.hpp"
#include "commands/gate_commands.hpp"
#include "output/json_writer.hpp"

namespace npkit::cli {
namespace {

struct CompareOptions {
  CommonOptions common;
  RunNaming naming;
  std::vector<std::string> paths;
};

TextTable runs_table(const RunComparison& c) {
  TextTable t;
  t.columns = {"run", "input", "best at"};
  for (const auto& s : c.settings) t.columns.push_back(s.what);
  for (std::size_t i = 0; i < c.labels.size(); ++i) {
    std::vector<std::string> row = {fmt::format("[{}]", i + 1), c.labels[i],
                                    fmt::format("{} of {} size(s)", c.wins[i], c.rows.size())};
    for (const auto& s : c.settings) row.push_back(s.values[i]);
    t.add_row(std::move(row));
  }
  return t;
}

TextTable rows_table(const RunComparison& c) {
  TextTable t;
  t.columns = {"collective", "ranks", "size (B)"};
  for (std::size_t i = 0; i < c.labels.size(); ++i) {
    t.columns.push_back(fmt::format("[{}] (us)", i + 1));
    t.columns.push_back(fmt::format("[{}] algo/proto", i + 1));
  }
  t.columns.insert(t.columns.end(), {"best", "best busbw", "vs [1]"});
  for (const auto& r : c.rows) {
    std::vector<std::string> row = {r.collective, std::to_string(r.nranks),
                                    size_label(r.size_bytes, r.size_kind)};
    for (const auto& cell : r.runs) {
      row.push_back(cell.count > 0 ? us(cell.time_ns) : "-");
      row.push_back(cell.present ? cell.choice : "-");
    }
    if (r.best) {
      const CompareCell& best = r.runs[*r.best];
      const CompareCell& first = r.runs.front();
      row.push_back(fmt::format("[{}]", *r.best + 1));
      row.push_back(gbps_or_dash(best.busbw_gbps));
      row.push_back(first.count > 0 && first.time_ns > 0
                        ? fmt::format("{:+.1f}%", 100.0 * (best.time_ns / first.time_ns - 1))
                        : "-");
    } else {
      const char* best = !r.unranked.empty()        ? "not ranked"
                         : !r.no_difference.empty() ? "none"
                                                    : "-";
      row.insert(row.end(), {best, "-", "-"});
    }
    t.add_row(std::move(row));
  }
  return t;
}

// One line per size group left unranked or without a difference beyond noise, saying why.
void render_unranked(const RunComparison& c, OutputFormat format, std::string& out) {
  for (const auto& r : c.rows) {
    if (!r.unranked.empty()) {
      render_line(fmt::format("Not ranked: {} {} B on {} ranks: {}", r.collective,
                              size_label(r.size_bytes, r.size_kind), r.nranks, r.unranked),
                  format, out);
    } else if (!r.no_difference.empty()) {
      render_line(fmt::format("No best: {} {} B on {} ranks: {}", r.collective,
                              size_label(r.size_bytes, r.size_kind), r.nranks, r.no_difference),
                  format, out);
    }
  }
}

void write_json(const RunComparison& c, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.compare");
  w.field("schema_version", 2);
  w.key("runs");
  w.begin_array();
  for (std::size_t i = 0; i < c.labels.size(); ++i) {
    w.begin_object();
    w.field("input", c.labels[i]);
    w.field("best_at", c.wins[i]);
    w.object("settings", [&] {
      for (const auto& s : c.settings) w.field(s.what, s.values[i]);
    });
    w.end_object();
  }
  w.end_array();
  w.objects("rows", c.rows, [&](const auto& r) {
    w.field("collective", r.collective);
    w.field("nranks", r.nranks);
    w.field("size_bytes", r.size_bytes);
    w.field("size_kind", size_kind_name(r.size_kind));
    if (r.best) w.field("best_run", static_cast<std::uint64_t>(*r.best));
    if (!r.unranked.empty()) w.field("unranked", r.unranked);
    if (!r.no_difference.empty()) w.field("no_difference", r.no_difference);
    w.objects("runs", r.runs, [&](const auto& cell) {
      if (cell.present) {
        w.field("choice", cell.choice);
        w.field("count", cell.count);
        w.field("instances", cell.quality.instances);
        w.field("timed", cell.quality.timed);
        w.field("incomplete", cell.quality.incomplete);
        w.field("flagged", cell.quality.flagged);
        w.field("ranks_timed", cell.quality.ranks_timed);
        if (cell.count > 0) {
          w.field("time_ns", cell.time_ns);
          w.field("busbw_gbps", cell.busbw_gbps);
        }
      }
    });
  });
  w.end_object();
  out += "\n";
}

Result<int> run_compare(const CompareOptions& o, CliContext& context) {
  if (o.paths.size() < 2) return Error{"compare needs at least two runs"};
  std::vector<RunSummary> runs;
  for (std::size_t i = 0; i < o.paths.size(); ++i) {
    NPKIT_ASSIGN(auto options, options_for_run(o.common, o.naming, i, o.paths.size(), false));
    NPKIT_ASSIGN(auto run, load_run(o.paths[i], options, context));
    runs.push_back(std::move(run));
  }
  const RunComparison c = compare_runs(runs);
  std::string text;
  if (o.common.format == "json") {
    write_json(c, text);
  } else {
    const OutputFormat format =
        o.common.format == "md" ? OutputFormat::kMarkdown : OutputFormat::kTable;
    TextTable runs_t = runs_table(c);
    runs_t.title = c.settings.empty() ? "Runs (no configuration difference recorded)"
                                      : "Runs and the settings that differ";
    render_table(runs_t, format, text);
    if (format == OutputFormat::kTable) text += "\n";
    TextTable rows_t = rows_table(c);
    rows_t.title =
        "Time: each rank's median GPU time per iteration, mean over ranks (as in bandwidth); "
        "best = lowest time, where diff's rule calls every other run slower (a regression); "
        "vs [1] = best against run [1]";
    render_table(rows_t, format, text);
    render_unranked(c, format, text);
  }
  NPKIT_TRY(write_output(o.common, text, context));
  return 0;
}

}  // namespace

void register_compare(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "Put runs side by side (a tuning sweep): the best run per size, settings per run");
  cmd->add_option("RUN", options->paths, std::string("Runs, two or more: ") + kRunInputs)
      ->required();
  cmd->add_option("--format", options->common.format, "Output format")
      ->check(CLI::IsMember({"table", "json", "md"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", options->common.output,
                  "Write the result to FILE instead of standard output");
  add_dump_options(*cmd, options->common);
  add_run_naming_options(*cmd, options->naming);
  cmd->callback([options, &context] { context.outcome = run_compare(*options, context); });
}

}  // namespace npkit::cli

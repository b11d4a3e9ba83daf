// `npkit-analyze report PATH`: every input through the run model — one analysis
// (analysis/report/run_report.hpp), rendered as text, Markdown, CSV or JSON
// (output/run_report_output.hpp); --format html draws the page (commands/html_report.hpp); a
// summary is drawn only as HTML.
#include <memory>

#include "analysis/report/run_report.hpp"
#include "commands/command.hpp"
#include "commands/gate_commands.hpp"
#include "commands/html_report.hpp"
#include "output/run_report_output.hpp"

namespace npkit::cli {
namespace {

Result<int> report_run(const CommonOptions& o, CliContext& context) {
  NPKIT_ASSIGN(auto thresholds, finding_thresholds(o));
  NPKIT_ASSIGN(auto input, open_input(o, context));
  RunInput& in = *input;
  Run run;
  NPKIT_ASSIGN(auto sink, read_run<RunReportSink>(in, run, [&] {
                 return RunReportSink(in.phases(), in.span_names().size());
               }));
  const RunReport report =
      build_run_report(run, std::move(sink), in.has_spans(), in.phases(), in.span_names(),
                       thresholds, in.diagnostics(), o.by == "tag");
  const ReportInput about{o.path, in.event_table(), &in.phases(), &in.span_names(), o.wide};
  std::string text;
  const OutputFormat f = output_format(o);
  if (f == OutputFormat::kJson) {
    write_run_report_json(report, about, in.diagnostics(), text);
  } else if (f == OutputFormat::kCsv) {
    render_run_report_csv(report, text);
  } else {
    render_run_report(report, about, f, text);
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

Result<int> run_report(const CommonOptions& o, CliContext& context) {
  if (auto error = html_options_error(o)) return *error;
  if (output_format(o) == OutputFormat::kHtml) return run_html_report(o, context);
  if (is_summary_file(o.path)) {
    return Error{o.path +
                 " is an npkit summary: report draws it with --format html; for tables, "
                 "diff or compare it with another run"};
  }
  return report_run(o, context);
}

}  // namespace

void register_report(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Per-rank phase breakdown (reduce-scatter, all-gather, ...), waiting, cross-rank sync and "
      "stragglers, proxy steps, latency by size, findings");
  add_common_options(*cmd, *options);
  add_html_report_options(*cmd);
  cmd->add_option("--finding-threshold", options->thresholds,
                  "A finding's threshold, NAME=VALUE (repeatable or comma-separated; names and "
                  "defaults: docs/phases.md, Diagnosis)");
  cmd->add_option("--threshold", options->old_threshold)->group("");  // refused: the new name
  cmd->add_option("--by", options->by,
                  "Per-rank tables by rank, or by tag: per user tag (NCCL 2.31's "
                  "ncclCollConfig_t userProfilerTag, 0 = untagged) and rank")
      ->check(CLI::IsMember({"rank", "tag"}))
      ->capture_default_str();
  cmd->add_flag("--wide", options->wide,
                "Text and Markdown: every column of every table (nccl-tests' results keep count, "
                "redop, root, pass and algbw), wider than 120 columns; CSV and JSON always hold "
                "every column");
  cmd->callback([options, &context] { context.outcome = run_report(*options, context); });
}

}  // namespace npkit::cli

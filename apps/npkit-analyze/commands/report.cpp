// `npkit-analyze report PATH`: every input through the run model (commands/run_report.hpp);
// --format html draws the page (commands/html_report.hpp); a summary is drawn only as HTML.
#include <fmt/format.h>

#include <memory>

#include "analysis/phases/phase_breakdown.hpp"
#include "commands/command.hpp"
#include "commands/gate_commands.hpp"
#include "commands/html_report.hpp"
#include "commands/npkt_input.hpp"
#include "commands/run_report.hpp"
#include "output/text_table.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

Result<int> run_report(const CommonOptions& o, CliContext& context) {
  if (output_format(o) == OutputFormat::kHtml) return run_html_report(o, context);
  if (is_summary_file(o.path)) {
    return Error{o.path +
                 " is an npkit summary: report draws it with --format html; for tables, "
                 "diff or compare it with another run"};
  }
  return run_run_report(o, context);
}

}  // namespace

Result<PhaseReport> compute_phase_report(const SpanSource& source, const CommonOptions& options,
                                         Diagnostics& diagnostics) {
  auto merged = read_merged<PhaseBreakdownSink>(
      source, options, diagnostics, [&] { return PhaseBreakdownSink(source.phases()); });
  if (!merged) return merged.error();
  const PhaseBreakdownSink& sink = *merged;
  if (sink.clamped_spans() > 0) {
    diagnostics.warn("overlapping children",
                     std::to_string(sink.clamped_spans()) +
                         " span(s) end before their nested events; their own time counts as 0",
                     sink.clamped_spans());
  }
  auto spreads = phase_spreads(sink.ranks(), source.phases());
  return PhaseReport{std::move(*merged), std::move(spreads)};
}

void register_report(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Per-rank phase breakdown: reduce-scatter, all-gather, sync, ...");
  add_common_options(*cmd, *options);
  add_html_report_options(*cmd);
  cmd->callback([options, &context] { context.outcome = run_report(*options, context); });
}

}  // namespace npkit::cli

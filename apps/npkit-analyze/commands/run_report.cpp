#include "commands/run_report.hpp"

#include "analysis/report/run_report.hpp"
#include "output/run_report_output.hpp"

namespace npkit::cli {

Result<int> run_run_report(const CommonOptions& o, CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  RunInput& in = **input;
  Run run;
  auto sink = read_run<RunReportSink>(
      in, run, [&] { return RunReportSink(in.phases(), in.span_names().size()); });
  if (!sink) return sink.error();
  const RunReport report = build_run_report(run, std::move(*sink), in.has_spans(), in.phases(),
                                            in.span_names(), in.diagnostics());
  const ReportInput about{o.path, in.event_table(), &in.phases(), &in.span_names()};
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

}  // namespace npkit::cli

// `npkit-analyze bandwidth PATH`: nccl-tests-style rows per collective and size (time, period,
// true time; algbw, busbw), switch points, and span durations/bandwidths per event type and size
// bucket — for every input kind (output/bandwidth_output.hpp).
#include <memory>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/bandwidth/span_bandwidth.hpp"
#include "commands/command.hpp"
#include "output/bandwidth_output.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

struct BandwidthOptions {
  CommonOptions common;
  std::string coll = "all";
  std::string view = "auto";
  bool per_rank = false;
};

Result<int> run_bandwidth(const BandwidthOptions& o, CliContext& context) {
  if (!valid_coll_option(o.coll)) {
    return Error{"--coll '" + o.coll + "': expected one of " + coll_option_list()};
  }
  auto input = open_input(o.common, context);
  if (!input) return input.error();
  RunInput& in = **input;
  Run run;
  auto events = read_run<SpanBandwidthSink>(
      in, run, [&] { return SpanBandwidthSink(in.phases(), in.span_names(), o.coll); });
  if (!events) return events.error();
  BandwidthReport report;
  report.run = &run;
  report.coll = o.coll;
  report.view = o.view;
  report.per_rank = o.per_rank;
  report.has_spans = in.has_spans();
  report.rows = bandwidth_rows(run, o.coll);
  report.switches = switch_points(report.rows);
  report.events = events->summarise();
  std::string text;
  render_bandwidth(report, in.diagnostics(), output_format(o.common), text);
  NPKIT_TRY(write_output(o.common, text, context));
  print_warnings(in.diagnostics(), o.common, context);
  return 0;
}

}  // namespace

void register_bandwidth(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<BandwidthOptions>();
  CLI::App* cmd =
      app.add_subcommand("bandwidth",
                         "Time, algbw and busbw per collective and size; span bandwidth "
                         "per event type and size bucket");
  add_common_options(*cmd, options->common);
  cmd->add_option("--coll", options->coll,
                  "Collective: " + coll_option_list() +
                      " (the events view: alltoall selects the send/recv events an alltoall "
                      "runs with)")
      ->capture_default_str();
  cmd->add_option("--view", options->view,
                  "What to show: auto (both; CSV: collectives if any), collectives, events")
      ->check(CLI::IsMember({"auto", "collectives", "events"}))
      ->capture_default_str();
  cmd->add_flag("--per-rank", options->per_rank, "Also list event rows per rank in the text table");
  cmd->callback([options, &context] { context.outcome = run_bandwidth(*options, context); });
}

}  // namespace npkit::cli

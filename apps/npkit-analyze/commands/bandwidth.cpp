// `npkit-analyze bandwidth PATH`: nccl-tests-style rows per collective and size (time, period,
// true time; algbw, busbw), switch points, and span durations/bandwidths per event type and size
// bucket — for every input kind (output/bandwidth_output.hpp); --driver RESULTS.json puts a
// nccl-tests results file's time and busbw beside each row (analysis/bandwidth/driver_match.hpp).
#include <memory>
#include <optional>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/bandwidth/driver_match.hpp"
#include "analysis/bandwidth/span_bandwidth.hpp"
#include "analysis/select/tag_filter.hpp"
#include "commands/command.hpp"
#include "import/nccl_tests/nccl_tests_file.hpp"
#include "output/bandwidth_output.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

struct BandwidthOptions {
  CommonOptions common;
  std::string coll = "all";
  std::string view = "auto";
  bool per_rank = false;
  std::string driver;      // --driver: a nccl-tests results file
  std::uint64_t tag = 0;   // --tag: only the instances of this user tag
  bool tag_given = false;  // --tag was given
};

Result<int> run_bandwidth(BandwidthOptions o, CliContext& context) {
  NPKIT_ASSIGN(o.coll, parse_coll_option("--coll", o.coll));
  std::optional<NcclTestsFile> driver;
  if (!o.driver.empty()) {
    auto file = read_nccl_tests_file(o.driver);
    if (!file) return Error{"--driver: " + file.error().message};
    driver = std::move(*file);
  }
  NPKIT_ASSIGN(auto input, open_input(o.common, context));
  RunInput& in = *input;
  Run run;
  NPKIT_ASSIGN(auto events, read_run<SpanBandwidthSink>(in, run, [&] {
                 return SpanBandwidthSink(in.phases(), in.span_names(), o.coll);
               }));
  if (o.tag_given) keep_tagged(run, o.tag);
  BandwidthReport report;
  report.run = &run;
  report.coll = o.coll;
  report.view = o.view;
  report.per_rank = o.per_rank;
  report.has_spans = in.has_spans();
  report.rows = bandwidth_rows(run, o.coll);
  report.switches = switch_points(report.rows);
  report.events = events.summarise();
  if (driver) report.driver = compare_with_driver(report.rows, driver->results, o.coll, o.driver);
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
                  "Collective rows to show: " + coll_option_list() +
                      ", or NCCL's name in any case (AllReduce); the events view: alltoall "
                      "selects the send/recv events an alltoall runs with")
      ->capture_default_str();
  cmd->add_option("--view", options->view,
                  "What to show: auto (both; CSV: collectives if any), collectives, events")
      ->check(CLI::IsMember({"auto", "collectives", "events"}))
      ->capture_default_str();
  cmd->add_flag("--per-rank", options->per_rank, "Also list event rows per rank in the text table");
  CLI::Option* tag =
      cmd->add_option("--tag", options->tag,
                      "Only the collective instances whose user tag is N (NCCL 2.31+: the call's "
                      "ncclCollConfig_t userProfilerTag; 0 = untagged)");
  cmd->add_option("--driver", options->driver,
                  "A nccl-tests results file (-J FILE.json) of the same run: its time and busbw "
                  "beside each row, matched by collective, size and data type");
  cmd->callback([options, tag, &context] {
    options->tag_given = tag->count() > 0;
    context.outcome = run_bandwidth(*options, context);
  });
}

}  // namespace npkit::cli

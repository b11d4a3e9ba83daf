// `npkit-analyze instances PATH`: one JSON line per collective instance of any input
// (output/instance_jsonl.hpp), for monitoring pipelines.
#include <memory>

#include "analysis/export/instance_records.hpp"
#include "commands/command.hpp"
#include "output/instance_jsonl.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

struct InstancesOptions : CommonOptions {
  std::string coll = "all";
};

Result<int> run_instances(InstancesOptions o, CliContext& context) {
  if (o.format != "jsonl") {
    return Error{"--format " + o.format +
                 ": instances writes JSON lines (--format jsonl); tables come from bandwidth and "
                 "report"};
  }
  NPKIT_ASSIGN(o.coll, parse_coll_option("--coll", o.coll));
  NPKIT_ASSIGN(auto input, open_input(o, context));
  RunInput& in = *input;
  Run run;
  NPKIT_TRY(read_run<IgnoreSpans>(in, run, [] { return IgnoreSpans{}; }));
  const auto records = instance_records(run, o.coll);
  std::string text;
  append_instance_jsonl(records, run.label.empty() ? o.path : run.label, text);
  NPKIT_TRY(write_output(o, text, context));
  if (run.driver_only && !o.quiet) {
    context.err << "npkit-analyze: " << o.path
                << " is a nccl-tests results file: one averaged time per size, no per-instance "
                   "times to list (bandwidth shows its rows)\n";
  } else if (records.empty() && !o.quiet) {
    context.err << "npkit-analyze: " << o.path << " holds no collective instances"
                << (o.coll == "all" ? "" : " of --coll " + o.coll)
                << " (the input's collectives were not joined across ranks, or it has none: "
                   "report says why)\n";
  }
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

}  // namespace

void register_instances(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<InstancesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "instances",
      "One JSON line per collective instance: per rank start/end on the aligned clock, time, "
      "algbw, busbw (schema npkit-analyze.instance v1)");
  add_common_options(*cmd, *options, /*with_format=*/false);
  options->format = "jsonl";
  cmd->add_option("--format", options->format, "Output format: jsonl (the only one)")
      ->capture_default_str();
  cmd->add_option("--coll", options->coll,
                  "Collective instances to list: " + coll_option_list() +
                      ", or NCCL's name in any case (AllReduce)")
      ->capture_default_str();
  cmd->callback([options, &context] { context.outcome = run_instances(*options, context); });
}

}  // namespace npkit::cli

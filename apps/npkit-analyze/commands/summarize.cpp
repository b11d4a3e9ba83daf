// `npkit-analyze summarize PATH... -o run.json`: dumps or summaries reduced to one mergeable
// summary (map/merge across nodes: `summarize node*/run.json -o all.json`).
#include <fmt/format.h>

#include <memory>
#include <tuple>
#include <vector>

#include "analysis/summary/summarize_run.hpp"
#include "commands/gate_commands.hpp"
#include "import/environment/environment_file.hpp"
#include "import/summary/summary_json_reader.hpp"
#include "output/summary_json_writer.hpp"
#include "util/terminal_text.hpp"

namespace npkit {

Result<RunSummary> summarize_input(RunInput& input) {
  Run run;
  NPKIT_ASSIGN(auto spans, read_run<SummarySpanSink>(
                               input, run, [&] { return SummarySpanSink(input.phases()); }));
  RunSummary s = summarize_run(run, spans);
  s.warnings = input.diagnostics().total();
  return s;
}

}  // namespace npkit

namespace npkit::cli {
namespace {

Result<RunSummary> summarize_dump(const CommonOptions& o, CliContext& context) {
  NPKIT_ASSIGN(auto input, open_input(o, context));
  auto summary = summarize_input(*input);
  if (!summary) return summary;
  print_warnings(input->diagnostics(), o, context);
  return summary;
}

struct SummarizeOptions {
  CommonOptions common;
  RunNaming naming;
  std::vector<std::string> paths;
};

Result<int> run_summarize(const SummarizeOptions& o, CliContext& context) {
  RunSummary merged;
  for (std::size_t i = 0; i < o.paths.size(); ++i) {
    NPKIT_ASSIGN(auto options, options_for_run(o.common, o.naming, i, o.paths.size(), true));
    NPKIT_ASSIGN(auto run, load_run(o.paths[i], options, context));
    merge_into(merged, run);
  }
  std::string text;
  write_summary_json(merged, text);
  NPKIT_TRY(write_output(o.common, text, context));
  return 0;
}

}  // namespace

Result<RunSummary> load_run(const std::string& path, const CommonOptions& options,
                            CliContext& context) {
  if (!is_summary_file(path)) {
    CommonOptions o = options;
    o.path = path;
    return summarize_dump(o, context);
  }
  if (options.run > 1) {
    return Error{
        fmt::format("--run {}: {} is an npkit summary, which holds one run", options.run, path)};
  }
  auto summary = read_summary_file(path);
  if (!summary) return summary;
  if (!options.env_file.empty() && options.env_file != "none") {
    NPKIT_ASSIGN(auto env, read_environment_file(options.env_file));
    for (const auto& conflict : apply_environment(env, summary->config)) {
      if (!options.quiet)
        context.err << "npkit-analyze: warning: " << terminal_safe(conflict) << "\n";
    }
  }
  if (!options.label.empty()) summary->inputs = {options.label};
  return summary;
}

void add_run_naming_options(CLI::App& cmd, RunNaming& naming) {
  cmd.add_option("--env", naming.env_files,
                 "A run's NCCL_*/NPKIT_* settings: a file of KEY=VALUE lines as `env` prints them; "
                 "once per run, in order (default: ENV.txt or env.txt beside a dump or in its "
                 "parent; none: no file)");
  cmd.add_option("--label", naming.labels, "A run's name in the output; once per run, in order");
  cmd.add_option("--run", naming.runs,
                 "A directory of .npkt files of several runs of a job: read run N only, numbered "
                 "from 1 by start time (info lists them); once for all runs, or once per run, in "
                 "order")
      ->check(CLI::PositiveNumber);
  cmd.add_flag("--pool-runs", naming.pool_runs,
               "Read every file of a directory of several runs of a job as one run (a \"mixed "
               "runs\" warning names them); without it or --run such a directory is refused");
}

Result<CommonOptions> options_for_run(const CommonOptions& options, const RunNaming& naming,
                                      std::size_t index, std::size_t runs, bool one_for_all) {
  CommonOptions o = options;
  for (const auto& [name, values, field] : {std::tuple{"--env", &naming.env_files, &o.env_file},
                                            std::tuple{"--label", &naming.labels, &o.label}}) {
    if (values->empty()) continue;
    if (values->size() == runs) {
      *field = (*values)[index];
    } else if (values->size() == 1 && one_for_all) {
      *field = values->front();
    } else {
      return Error{
          fmt::format("{} given {} time(s) for {} run(s): give it once per run, in the "
                      "order of the runs{}",
                      name, values->size(), runs, one_for_all ? ", or once for all" : "")};
    }
  }
  if (naming.runs.size() == 1) {
    o.run = naming.runs.front();
  } else if (naming.runs.size() == runs) {
    o.run = naming.runs[index];
  } else if (!naming.runs.empty()) {
    return Error{fmt::format(
        "--run given {} time(s) for {} run(s): give it once for all, or once per run, in the "
        "order of the runs",
        naming.runs.size(), runs)};
  }
  o.refuse_mixed_runs = !naming.pool_runs;
  return o;
}

void add_dump_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--ranks", o.ranks, "Ranks of dumps to analyse, e.g. 0,2-5 (default: all)")
      ->capture_default_str();
  cmd.add_flag("-q,--quiet", o.quiet, "Do not print the warning summary");
  cmd.add_option("--event-table", o.event_table,
                 "Event-id table of legacy NPKit dumps (default: auto)")
      ->capture_default_str();
  cmd.add_option("--phase-map", o.phase_map, "Extra phase rules for legacy NPKit dumps");
  cmd.add_option("--threads", o.threads, "Threads reading a legacy dump")
      ->check(thread_count_validator());
  cmd.add_option("--cpu-record-size", o.cpu_record_size,
                 "CPU record size of legacy NPKit dumps (16, 18, 22; default: detect)");
  cmd.add_option("--nranks", o.nranks,
                 "Legacy NPKit dumps: the communicator size, where rank files are missing "
                 "(default: the highest rank with files + 1)");
}

void register_summarize(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<SummarizeOptions>();
  auto* cmd = app.add_subcommand(
      "summarize",
      "Reduce dumps or summaries to one mergeable npkit-summary JSON (the input of diff and "
      "compare; merging node summaries gives the cluster's)");
  cmd->add_option("PATH", options->paths, std::string("Runs, one or more: ") + kRunInputs)
      ->required();
  cmd->add_option("-o,--output", options->common.output,
                  "Write the summary to FILE instead of standard output");
  add_dump_options(*cmd, options->common);
  add_run_naming_options(*cmd, options->naming);
  cmd->callback([options, &context] { context.outcome = run_summarize(*options, context); });
}

}  // namespace npkit::cli
